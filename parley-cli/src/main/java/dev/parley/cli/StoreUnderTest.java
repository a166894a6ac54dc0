package dev.parley.cli;

import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Scopes;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import dev.parley.engine.MemoryRepositories;
import dev.parley.files.FilesConformanceSupport;
import dev.parley.postgres.PostgresConformanceSupport;
import dev.parley.postgres.PostgresStore;
import dev.parley.sqlite.SqliteConformanceSupport;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.CapabilityMissing;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.SessionRepositoryHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A store URI as the conformance kit sees it: harnesses for its three contracts.
 *
 * <p>The repository kits run in the store itself, each scenario in a scope of its own that is dropped afterwards, each
 * {@code createRepository} opening a new store instance (the memory store, which has nothing to reopen, is opened
 * once). The message-log kit needs stores isolated per scope, so it runs in sibling stores the command creates and
 * removes: {@code PATH.tck/<scope>.db} for {@code sqlite:PATH}, {@code DIR.tck/<scope>/} for {@code jsonl:DIR}, one
 * memory store per scope for {@code memory:}; on {@code postgres:} each scope is a log scope of the same database
 * ({@code parley.scope}), deleted afterwards. Damage for the corruption scenarios is injected through each backend's
 * conformance support; a scheme Parley does not know gets the repository kits without them (reported as skipped) and
 * no message-log kit.
 */
final class StoreUnderTest implements AutoCloseable {
    private final String uri;
    private final String scheme;
    private final String location;
    private final List<MessageLog> open = new ArrayList<>();
    private @Nullable MessageLog memory;
    private @Nullable PostgresStore postgres;
    private final boolean hasRepositories;

    StoreUnderTest(String uri) {
        this.uri = uri;
        int colon = uri.indexOf(':');
        this.scheme = colon < 0 ? "" : uri.substring(0, colon);
        this.location = colon < 0 ? "" : uri.substring(colon + 1);
        Path root = messageLogRoot();
        if (root != null && Files.exists(root)) {
            throw new InvalidInputException(root + " exists (left by an interrupted run?): the message-log kit creates"
                    + " and removes it; remove it first");
        }
        // Fail now, with the store's own error, if the URI cannot be opened at all.
        MessageLog probe = Stores.open(uri);
        this.hasRepositories = probe.repositories().isPresent();
        if (scheme.equals("memory")) {
            memory = probe;
        } else {
            probe.close();
        }
    }

    /** Whether the store has session and archive repositories for the repository kits. */
    boolean hasRepositories() {
        return hasRepositories;
    }

    /** Where the message-log kit's per-scope stores go, or null when this scheme has none. */
    @Nullable Path messageLogRoot() {
        return switch (scheme) {
            case "sqlite", "jsonl" -> {
                Path p = Path.of(location).toAbsolutePath().normalize();
                if (p.getFileName() == null) {
                    throw new InvalidInputException("the conformance kit needs a store below the root directory, not "
                            + scheme + ":" + p);
                }
                yield p.resolveSibling(p.getFileName() + ".tck");
            }
            default -> null;
        };
    }

    /** The message-log harness, or null when the kit cannot run against this scheme. */
    @Nullable MessageLogHarness messageLog() {
        return switch (scheme) {
            case "memory" -> new MessageLogHarness() {
                private final Map<String, MessageLog> scopes = new HashMap<>();

                @Override
                public synchronized MessageLog open(String scope) {
                    // Closing a memory store releases nothing, so the kit may close the view it is handed.
                    return scopes.computeIfAbsent(scope, s -> Stores.open("memory:"));
                }

                @Override
                public synchronized void cleanupScope(String scope) {
                    scopes.remove(scope);
                }
            };
            case "sqlite", "jsonl" -> new MessageLogHarness() {
                final Path root = messageLogRoot();

                @Override
                public MessageLog open(String scope) {
                    Path at = scheme.equals("sqlite") ? root.resolve(scope + ".db") : root.resolve(scope);
                    return Stores.open(scheme + ":" + at, StoreOptions.defaults());
                }

                @Override
                public void cleanupScope(String scope) {
                    if (!Files.isDirectory(root)) {
                        return;
                    }
                    try (Stream<Path> files = Files.list(root)) {
                        for (Path p : files.filter(p -> p.getFileName().toString().startsWith(scope)).toList()) {
                            deleteTree(p);
                        }
                    } catch (IOException e) {
                        throw new UnavailableException("cannot clean up " + root + ": " + e.getMessage(), e);
                    }
                }

                @Override
                public void corruptEntry(String scope, SessionId session, EntryId entry) {
                    if (scheme.equals("sqlite")) {
                        SqliteConformanceSupport.corruptEntry(root.resolve(scope + ".db"), session.value(), entry.value());
                    } else {
                        FilesConformanceSupport.corruptEntry(root.resolve(scope), session, entry);
                    }
                }
            };
            case "postgres" -> new MessageLogHarness() {
                @Override
                public MessageLog open(String scope) {
                    return Stores.open(withParameter(uri, "parley.scope", scope));
                }

                @Override
                public void cleanupScope(String scope) {
                    PostgresConformanceSupport.dropLogScope(postgres().dataSource(), scope);
                }

                @Override
                public void corruptEntry(String scope, SessionId session, EntryId entry) {
                    PostgresConformanceSupport.corruptEntry(postgres().dataSource(), scope, session.value(),
                            entry.value());
                }
            };
            default -> null;
        };
    }

    /** A URI with one more query parameter. */
    static String withParameter(String uri, String name, String value) {
        return uri + (uri.indexOf('?') < 0 ? "?" : "&") + name + "="
                + java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** One instance of a PostgreSQL store, kept open for damage and cleanup. */
    private synchronized PostgresStore postgres() {
        if (postgres == null) {
            postgres = (PostgresStore) Stores.open(uri);
        }
        return postgres;
    }

    /** The session-repository harness. */
    SessionRepositoryHarness sessions() {
        return new SessionRepositoryHarness() {
            @Override
            public ChatSessionRepository createRepository(String scopeId) {
                return repositories().sessions(scopeId);
            }

            @Override
            public void cleanupScope(String scopeId) {
                StoreUnderTest.this.cleanupScope(scopeId);
            }

            @Override
            public void corruptSessionRecord(String scopeId, String sessionId) {
                switch (scheme) {
                    case "sqlite" -> SqliteConformanceSupport.corruptSessionRecord(Path.of(location), scopeId, sessionId);
                    case "jsonl" -> FilesConformanceSupport.corruptSessionRecord(
                            FilesConformanceSupport.of(repositories()), scopeId, sessionId);
                    case "memory" -> ((MemoryRepositories) repositories()).corruptSession(scopeId, sessionId);
                    case "postgres" -> PostgresConformanceSupport.corruptSessionRecord(postgres().dataSource(), scopeId,
                            sessionId);
                    default -> throw new CapabilityMissing("corruptSessionRecord for " + scheme + ":");
                }
            }
        };
    }

    /** The archive-repository harness. */
    ArchiveRepositoryHarness archives() {
        return new ArchiveRepositoryHarness() {
            @Override
            public ChatArchiveRepository createRepository(String scopeId) {
                return repositories().archives(scopeId);
            }

            @Override
            public void cleanupScope(String scopeId) {
                StoreUnderTest.this.cleanupScope(scopeId);
            }

            @Override
            public void corruptManifest(String scopeId, String sessionId) {
                switch (scheme) {
                    case "sqlite" -> SqliteConformanceSupport.corruptManifest(Path.of(location), scopeId, sessionId);
                    case "jsonl" -> FilesConformanceSupport.corruptManifest(FilesConformanceSupport.of(repositories()),
                            scopeId, sessionId);
                    case "memory" -> ((MemoryRepositories) repositories()).corruptManifest(scopeId, sessionId);
                    case "postgres" -> PostgresConformanceSupport.corruptManifest(postgres().dataSource(), scopeId,
                            sessionId);
                    default -> throw new CapabilityMissing("corruptManifest for " + scheme + ":");
                }
            }
        };
    }

    /** The repositories of a new instance of the store (of the one memory store). */
    private synchronized Repositories repositories() {
        MessageLog log;
        if (scheme.equals("memory")) {
            if (memory == null) {
                memory = Stores.open(uri);
            }
            log = memory;
        } else {
            log = Stores.open(uri);
            open.add(log);
        }
        return log.repositories().orElseThrow(() -> new UnsupportedException("the store " + uri
                + " has no session repositories"));
    }

    private synchronized void cleanupScope(String scope) {
        repositories().dropScope(scope);
        closeInstances();
    }

    private synchronized void closeInstances() {
        for (MessageLog log : open) {
            log.close();
        }
        open.clear();
    }

    @Override
    public synchronized void close() {
        closeInstances();
        if (postgres != null) {
            postgres.close();
        }
        Path root = messageLogRoot();
        if (root != null && Files.isDirectory(root)) {
            deleteTree(root);
        }
    }

    static void deleteTree(Path path) {
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot remove " + path + ": " + e.getMessage(), e);
        }
    }
}
