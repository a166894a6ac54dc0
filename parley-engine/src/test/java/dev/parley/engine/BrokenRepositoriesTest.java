package dev.parley.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.RawJson;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.Json;
import dev.parley.json.repository.ChatSessionCodec;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.ArchiveRepositoryScenarios;
import dev.parley.tck.SessionRepositoryHarness;
import dev.parley.tck.SessionRepositoryScenarios;
import dev.parley.tck.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The kit is itself tested: deliberately broken repositories must each fail, with a message that names the
 * scenario that caught them (Reactive Streams' TCK tests itself the same way).
 */
class BrokenRepositoriesTest {

    /** A session repository that delegates to a working one, so that a test can break one behaviour. */
    static class Delegating implements ChatSessionRepository {
        final ChatSessionRepository real;

        Delegating(ChatSessionRepository real) {
            this.real = real;
        }

        @Override
        public CatalogPage list(CatalogQuery query) {
            return real.list(query);
        }

        @Override
        public Optional<StoredSession> read(String sessionId) {
            return real.read(sessionId);
        }

        @Override
        public StoredSession create(ChatSession session) {
            return real.create(session);
        }

        @Override
        public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
            return real.update(session, expectedRevision);
        }

        @Override
        public boolean delete(String sessionId, long expectedRevision) {
            return real.delete(sessionId, expectedRevision);
        }
    }

    /**
     * A memory store whose records can be "damaged" for the corruption scenarios: a damaged record reads as a
     * {@link StorageCorruptionException}, as a damaged stored form does on a durable backend.
     */
    static final class DamageableMemory {
        final Store store = MemoryStore.open();
        final Set<String> damaged = ConcurrentHashMap.newKeySet();

        ChatSessionRepository sessions(String scope) {
            ChatSessionRepository real = store.withScope(scope).sessions().orElseThrow();
            return new Delegating(real) {
                @Override
                public Optional<StoredSession> read(String sessionId) {
                    if (damaged.contains(scope + "/" + sessionId)) {
                        throw new StorageCorruptionException("memory " + scope + "/" + sessionId, "damaged", null, false);
                    }
                    return real.read(sessionId);
                }
            };
        }

        ChatArchiveRepository archives(String scope) {
            ChatArchiveRepository real = store.withScope(scope).archives().orElseThrow();
            return new ChatArchiveRepository() {
                @Override
                public ChatArchiveManifest loadManifest(String sessionId) {
                    if (damaged.contains(scope + "/manifest/" + sessionId)) {
                        throw new StorageCorruptionException("memory " + scope + " manifest " + sessionId, "damaged",
                                null, true);
                    }
                    return real.loadManifest(sessionId);
                }

                @Override
                public Optional<String> readSummary(String summaryLocator) {
                    return real.readSummary(summaryLocator);
                }

                @Override
                public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
                    return real.readMessages(messagesLocator);
                }

                @Override
                public ArchiveAppend.Result append(ArchiveAppend request) {
                    return real.append(request);
                }
            };
        }

        void cleanup(String scope) {
            store.withScope(scope).deleteScope();
            damaged.removeIf(k -> k.startsWith(scope + "/"));
        }
    }

    static List<Verdict> runSessions(Function<ChatSessionRepository, ChatSessionRepository> breaker) {
        DamageableMemory store = new DamageableMemory();
        return SessionRepositoryScenarios.run(new SessionRepositoryHarness() {
            @Override
            public ChatSessionRepository createRepository(String scopeId) {
                return breaker.apply(store.sessions(scopeId));
            }

            @Override
            public void cleanupScope(String scopeId) {
                store.cleanup(scopeId);
            }

            @Override
            public void corruptSessionRecord(String scopeId, String sessionId) {
                store.damaged.add(scopeId + "/" + sessionId);
            }
        });
    }

    static List<String> failed(List<Verdict> verdicts) {
        List<String> out = new ArrayList<>();
        verdicts.stream().filter(v -> v.outcome() == Verdict.Outcome.FAILED).forEach(v -> out.add(v.detail()));
        return out;
    }

    @Test
    void theWorkingRepository_passesEveryScenario() {
        assertThat(failed(runSessions(r -> r))).isEmpty();
    }

    @Test
    void aRepositoryThatLosesConcurrentUpdates_isCaught() {
        // Ignores the expected revision: last writer wins, the classic lost update.
        List<String> failures = failed(runSessions(real -> new Delegating(real) {
            @Override
            public synchronized Optional<StoredSession> update(ChatSession session, long expectedRevision) {
                Optional<StoredSession> current = real.read(session.id());
                return current.isEmpty() ? Optional.empty() : real.update(session, current.get().revision());
            }
        }));
        assertThat(failures).anySatisfy(f -> assertThat(f).startsWith(
                "CS-2 concurrent create and update enforce atomic uniqueness and CAS"));
    }

    @Test
    void aRepositoryThatOrdersTiesByUtf16_isCaught() {
        // Re-sorts each page's ties with String.compareTo (UTF-16 order) instead of UTF-8 byte order.
        List<String> failures = failed(runSessions(real -> new Delegating(real) {
            @Override
            public CatalogPage list(CatalogQuery query) {
                List<CatalogEntry> all = new ArrayList<>();
                CatalogQuery q = new CatalogQuery(null, 200, query.workspaceId(), query.archived());
                all.addAll(real.list(q).items());
                all.sort((a, b) -> a.pinned() != b.pinned() ? (a.pinned() ? -1 : 1)
                        : !a.updatedAt().equals(b.updatedAt()) ? b.updatedAt().compareTo(a.updatedAt()) : a.id().compareTo(b.id()));
                int from = 0;
                if (query.cursor() != null) {
                    from = Integer.parseInt(query.cursor());
                }
                int to = Math.min(all.size(), from + query.limit());
                return new CatalogPage(all.subList(from, to), to < all.size() ? Integer.toString(to) : null);
            }
        }));
        assertThat(failures).anySatisfy(f -> assertThat(f).startsWith(
                "CS-3 cursor pagination is stable across pinned, timestamp, and UTF-8 ties"));
    }

    @Test
    void aRepositoryThatLeaksRecordFieldsIntoTheCatalog_isCaught() {
        // "Projects" by putting the whole record where the catalog's context goes.
        List<String> failures = failed(runSessions(real -> new Delegating(real) {
            @Override
            public CatalogPage list(CatalogQuery query) {
                CatalogPage page = real.list(query);
                List<CatalogEntry> leaky = new ArrayList<>();
                for (CatalogEntry e : page.items()) {
                    ChatSession full = real.read(e.id()).orElseThrow().session();
                    leaky.add(new CatalogEntry(e.id(), e.revision(), e.name(), e.retention(), e.workspaceId(), e.pinned(),
                            e.archivedAt(), e.createdAt(), e.updatedAt(), e.model(), e.reasoningEffort(), e.driftEnabled(),
                            e.lastContinuePrompt(), RawJson.of(Json.write(ChatSessionCodec.encode(full))), e.archives(),
                            e.leaseEpoch(), e.lease()));
                }
                return new CatalogPage(leaky, page.nextCursor());
            }
        }));
        assertThat(failures).anySatisfy(f -> assertThat(f).startsWith("CS-9 catalog entries expose only catalog fields"));
    }

    @Test
    void aRepositoryThatDropsEmptyLists_isCaught() {
        // Stores "archives": [] and "toolCalls": [] as no key at all, as a store that skips empty lists would.
        Function<ChatSession, ChatSession> normalize = s -> s.toBuilder()
                .archives(s.archives() == null || s.archives().isEmpty() ? null : s.archives())
                .history(s.history().stream().map(m -> m.toolCalls() != null && m.toolCalls().isEmpty()
                        ? new ChatMessage(m.role(), m.content(), null, m.toolCallId(), m.providerContinuation()) : m)
                        .toList())
                .build();
        List<String> failures = failed(runSessions(real -> new Delegating(real) {
            @Override
            public StoredSession create(ChatSession session) {
                return real.create(normalize.apply(session));
            }

            @Override
            public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
                return real.update(normalize.apply(session), expectedRevision);
            }
        }));
        assertThat(failures).singleElement().satisfies(f -> assertThat(f).startsWith(
                "CS-10 create and update preserve the exact record"));
    }

    @Test
    void aRepositoryThatSwallowsCorruption_isCaught() {
        // Treats a record it cannot decode as missing.
        List<String> failures = failed(runSessions(real -> new Delegating(real) {
            @Override
            public Optional<StoredSession> read(String sessionId) {
                try {
                    return real.read(sessionId);
                } catch (RuntimeException e) {
                    return Optional.empty();
                }
            }
        }));
        assertThat(failures).anySatisfy(f -> assertThat(f).startsWith(
                "CS-7 malformed stored records propagate as read failures"));
    }

    @Test
    void theWorkingArchiveRepository_passesEveryScenario() {
        assertThat(failed(runArchives(r -> r))).isEmpty();
    }

    @Test
    void anArchiveRepositoryThatSwallowsACorruptManifest_isCaught() {
        List<Verdict> verdicts = runArchives(real -> new ChatArchiveRepository() {
            @Override
            public ChatArchiveManifest loadManifest(String sessionId) {
                try {
                    return real.loadManifest(sessionId);
                } catch (RuntimeException e) {
                    return ChatArchiveManifest.empty(sessionId);
                }
            }

            @Override
            public Optional<String> readSummary(String summaryLocator) {
                return real.readSummary(summaryLocator);
            }

            @Override
            public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
                return real.readMessages(messagesLocator);
            }

            @Override
            public ArchiveAppend.Result append(ArchiveAppend request) {
                return real.append(request);
            }
        });
        assertThat(failed(verdicts)).singleElement().satisfies(f -> assertThat(f).startsWith(
                "AR-6 malformed stored manifests propagate as read failures"));
    }

    static List<Verdict> runArchives(Function<ChatArchiveRepository, ChatArchiveRepository> breaker) {
        DamageableMemory store = new DamageableMemory();
        return ArchiveRepositoryScenarios.run(new ArchiveRepositoryHarness() {
            @Override
            public ChatArchiveRepository createArchiveRepository(String scopeId) {
                return breaker.apply(store.archives(scopeId));
            }

            @Override
            public void cleanupScope(String scopeId) {
                store.cleanup(scopeId);
            }

            @Override
            public void corruptManifest(String scopeId, String sessionId) {
                store.damaged.add(scopeId + "/manifest/" + sessionId);
            }
        });
    }
}
