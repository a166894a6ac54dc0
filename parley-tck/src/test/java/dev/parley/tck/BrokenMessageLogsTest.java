package dev.parley.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.ForwardingMessageLog;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.ForwardingStore;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The message-log kit is itself tested: a working store passes every scenario, and deliberately broken logs — each
 * a working memory store with one behaviour broken — must each be caught by the scenario that checks that behaviour
 * (Reactive Streams' TCK tests itself the same way; {@code BrokenRepositoriesTest} does it for the repository kits).
 */
class BrokenMessageLogsTest {
    private final MemoryStore memory = MemoryStore.open();

    @AfterEach
    void closeTheStore() {
        memory.close();
    }

    /**
     * A memory store whose entries can be damaged: a damaged entry fails every read that would return it, as a
     * backend with a stored form fails to decode it. So the correct store can run ML-08 too.
     */
    final class Harness implements MessageLogHarness {
        private final StoreHarness stores;
        private final Set<String> damaged = ConcurrentHashMap.newKeySet();

        /**
         * @param breaker breaks the log each scenario gets (the identity for a correct one)
         * @param skipDamaged whether reads leave damaged entries out instead of failing (a broken decoder)
         */
        Harness(UnaryOperator<MessageLog> breaker, boolean skipDamaged) {
            this.stores = StoreHarness.over(memory).wrapping(store -> new ForwardingStore(store) {
                @Override
                public MessageLog log() {
                    return breaker.apply(new Decoding(store.scope(), super.log(), skipDamaged));
                }
            });
        }

        @Override
        public Store open(String scope) {
            return stores.open(scope);
        }

        @Override
        public void cleanupScope(String scope) {
            stores.cleanupScope(scope);
            damaged.removeIf(key -> key.startsWith(scope + "/"));
        }

        @Override
        public void corruptEntry(String scope, SessionId session, EntryId entry) {
            damaged.add(scope + "/" + session.value() + "/" + entry.value());
        }

        /** Reads that meet a damaged entry fail with {@link CorruptRecordException}, or skip it when broken. */
        final class Decoding extends ForwardingMessageLog {
            private final String scope;
            private final boolean skip;

            Decoding(String scope, MessageLog log, boolean skip) {
                super(log);
                this.scope = scope;
                this.skip = skip;
            }

            private List<Entry> decode(SessionId session, List<Entry> entries) {
                List<Entry> out = new ArrayList<>(entries.size());
                for (Entry e : entries) {
                    String key = scope + "/" + session.value() + "/" + e.id().value();
                    if (!damaged.contains(key)) {
                        out.add(e);
                    } else if (!skip) {
                        throw new CorruptRecordException("memory " + key, "damaged by the test");
                    }
                }
                return out;
            }

            @Override
            public List<Entry> load(SessionId session, @Nullable AgentId agent) {
                return decode(session, super.load(session, agent));
            }

            @Override
            public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
                return super.lastEntry(session, agent).flatMap(e -> decode(session, List.of(e)).stream().findFirst());
            }
        }
    }

    private List<Verdict> run(Function<MessageLog, MessageLog> breaker) {
        return MessageLogScenarios.run(new Harness(breaker::apply, false));
    }

    private static List<String> failedIds(List<Verdict> verdicts) {
        return verdicts.stream().filter(v -> v.outcome() == Verdict.Outcome.FAILED).map(Verdict::id).toList();
    }

    @Test
    void workingLog_passesEveryScenario() {
        List<Verdict> verdicts = run(log -> log);

        assertThat(verdicts).extracting(Verdict::id).containsExactlyElementsOf(
                MessageLogScenarios.all().stream().map(Scenario::id).toList());
        assertThat(verdicts).allSatisfy(v -> assertThat(v.outcome()).as(v.detail()).isEqualTo(Verdict.Outcome.PASSED));
    }

    @Test
    void logThatOrdersByTimestamp_isCaughtByInsertionOrder() {
        // What a store does that sorts on the entries' timestamps (LangChain4j and Spring AI stores): ties and clocks
        // that run backwards reorder the conversation.
        List<Verdict> verdicts = run(log -> new ForwardingMessageLog(log) {
            @Override
            public List<Entry> load(SessionId session, @Nullable AgentId agent) {
                return super.load(session, agent).stream().sorted(Comparator.comparing(Entry::timestamp,
                        Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))).toList();
            }
        });

        assertThat(failedIds(verdicts)).contains("ML-01");
    }

    @Test
    void logThatHalfWritesAFailingBatch_isCaughtByBatchAtomicity() {
        // No transaction: the entries are written one by one, and those before the bad one stay written.
        List<Verdict> verdicts = run(log -> new ForwardingMessageLog(log) {
            @Override
            public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
                try {
                    return super.append(session, agent, batch, usage);
                } catch (ParleyException e) {
                    for (NewEntry entry : batch) {
                        try {
                            super.append(session, agent, List.of(entry), Usage.ZERO);
                        } catch (ParleyException stop) {
                            break;
                        }
                    }
                    throw e;
                }
            }
        });

        assertThat(failedIds(verdicts)).contains("ML-02");
    }

    @Test
    void logThatWritesARetriedBatchAgain_isCaughtByRetryRecognition() {
        // A batch sent again after a lost answer is written a second time, with its usage. (The memory store refuses
        // an id twice, so the copies carry a suffix: what a store keyed on its seq alone would hold.)
        AtomicInteger retries = new AtomicInteger();
        List<Verdict> verdicts = run(log -> new ForwardingMessageLog(log) {
            @Override
            public synchronized AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch,
                                                    Usage usage) {
                Map<EntryId, Entry> stored = new HashMap<>();
                super.load(session, null).forEach(e -> stored.put(e.id(), e));
                boolean retried = !batch.isEmpty() && batch.stream().allMatch(e -> stored.containsKey(e.id())
                        && stored.get(e.id()).agentId().equals(agent) && stored.get(e.id()).toNewEntry().equals(e));
                if (!retried) {
                    return super.append(session, agent, batch, usage);
                }
                String suffix = "-again-" + retries.incrementAndGet();
                List<NewEntry> copies = batch.stream().map(e -> new NewEntry(new EntryId(e.id().value() + suffix),
                        e.parentId() != null && batch.stream().anyMatch(b -> b.id().equals(e.parentId()))
                                ? new EntryId(e.parentId().value() + suffix) : e.parentId(),
                        e.timestamp(), e.payload(), e.source())).toList();
                return super.append(session, agent, copies, usage);
            }
        });

        assertThat(failedIds(verdicts)).contains("ML-13");
    }

    @Test
    void logThatTruncatesTheNamedEntryToo_isCaughtByTruncateAfter() {
        // An off-by-one: truncateAfter(e) removes e as well.
        List<Verdict> verdicts = run(log -> new ForwardingMessageLog(log) {
            @Override
            public void truncateAfter(SessionId session, EntryId entry) {
                List<Entry> all = super.load(session, null);
                int at = all.stream().map(Entry::id).toList().indexOf(entry);
                super.truncateAfter(session, at > 0 ? all.get(at - 1).id() : entry);
            }
        });

        assertThat(failedIds(verdicts)).contains("ML-04");
    }

    @Test
    void logThatSkipsACorruptEntry_isCaughtByCorruptRecordFailsRead() {
        // A decoder that drops what it cannot read: the session silently loses an entry.
        List<Verdict> verdicts = MessageLogScenarios.run(new Harness(log -> log, true));

        assertThat(failedIds(verdicts)).containsExactly("ML-08");
    }

    @Test
    void brokenLogFailure_namesTheScenarioInItsDetail() {
        List<Verdict> verdicts = run(log -> new ForwardingMessageLog(log) {
            @Override
            public List<Entry> load(SessionId session, @Nullable AgentId agent) {
                List<Entry> entries = new ArrayList<>(super.load(session, agent));
                Collections.reverse(entries);
                return entries;
            }
        });

        Verdict order = verdicts.get(0);
        assertThat(order.outcome()).isEqualTo(Verdict.Outcome.FAILED);
        assertThat(order.detail()).startsWith("ML-01 insertion order across agents: ");
    }
}
