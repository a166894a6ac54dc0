package dev.parley.tck;

import static dev.parley.tck.Check.equal;
import static dev.parley.tck.Check.fails;
import static dev.parley.tck.Check.that;

import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.EntryConflictException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.FlushResult;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.EntryLimits;
import dev.parley.core.log.EntryTooLargeException;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.Store;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.SourceRecord;
import dev.parley.core.model.Usage;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * The scenarios of the message-log contract ({@link MessageLog}). Rule numbers refer to the guarantees listed on
 * {@link MessageLog}: ML-01…ML-03 order and atomicity, ML-04 truncation, ML-05…ML-06 integrity and exactness,
 * ML-07…ML-08 durability and corruption, ML-09…ML-12 catalog, usage, isolation and concurrency, ML-13…ML-14
 * idempotent appends, ML-15…ML-16 conditional appends (one conversation, many writers), ML-17 the size limits
 * ({@link EntryLimits}) that keep every acknowledged entry readable, ML-18 windows and per-agent totals (the reads
 * of a session browser), ML-19 seqs never reused by a session created again after a deletion.
 */
public final class MessageLogScenarios {
    static final AgentId ORCHESTRATOR = new AgentId("orchestrator");
    static final AgentId WORKER = new AgentId("worker-1");

    private MessageLogScenarios() {}

    /**
     * Every message-log scenario, in id order.
     *
     * @return the scenarios, a new immutable list each call
     */
    public static List<Scenario<MessageLogHarness>> all() {
        return List.of(
                new Scenario<>("ML-01", "insertion order across agents",
                        "entries come back in store-assigned insertion order, interleaved across agents, never by timestamp",
                        MessageLogScenarios::insertionOrderAcrossAgents),
                new Scenario<>("ML-02", "batch append is atomic",
                        "a batch with one bad entry writes nothing, and the log and catalog are unchanged",
                        MessageLogScenarios::batchAtomicity),
                new Scenario<>("ML-03", "entry ids are unique in a session",
                        "an id stored with other content is an entry conflict; an id repeated in the batch is invalid input",
                        MessageLogScenarios::uniqueIds),
                new Scenario<>("ML-04", "truncate after removes later entries of every agent",
                        "truncateAfter keeps the named entry and removes every later entry across agents",
                        MessageLogScenarios::truncateAfter),
                new Scenario<>("ML-05", "parent ids must exist in the same session",
                        "a parent must be an earlier entry of the same session, or an earlier entry of the batch",
                        MessageLogScenarios::parentsMustExist),
                new Scenario<>("ML-06", "messages round-trip exactly",
                        "every field of every content block reads back equal, NUL and astral characters included",
                        MessageLogScenarios::exactRoundTrip),
                new Scenario<>("ML-07", "a fresh instance reopens everything",
                        "what one instance acknowledged, a new instance over the same storage reads back",
                        MessageLogScenarios::freshInstanceReopens),
                new Scenario<>("ML-08", "a corrupt record fails the read",
                        "reading a damaged entry throws CorruptRecordException naming where; it is never skipped",
                        MessageLogScenarios::corruptRecordFailsRead),
                new Scenario<>("ML-09", "the catalog pages every session once",
                        "list pages newest activity first and the cursor walk visits each session exactly once",
                        MessageLogScenarios::catalogPaging),
                new Scenario<>("ML-10", "usage accumulates per agent",
                        "persistUsage and append add to the agent's total, which survives a fresh instance; a token"
                                + " count that would pass Long.MAX_VALUE stays at Long.MAX_VALUE",
                        MessageLogScenarios::usageAccumulates),
                new Scenario<>("ML-11", "scopes are isolated",
                        "a session written in one scope does not exist in another",
                        MessageLogScenarios::scopeIsolation),
                new Scenario<>("ML-12", "concurrent appends lose nothing",
                        "appends from several threads are all stored, each once, with distinct increasing seqs",
                        MessageLogScenarios::concurrentAppends),
                new Scenario<>("ML-13", "a retried append is recognised",
                        "a batch whose ids are stored with identical content comes back as stored, writes nothing and"
                                + " adds its usage once; a re-sent history appends only what is new",
                        MessageLogScenarios::retriedAppendIsRecognised),
                new Scenario<>("ML-14", "a conflicting id writes nothing",
                        "an id stored with different content is an EntryConflictException naming it, and nothing of"
                                + " its batch is written",
                        MessageLogScenarios::conflictingIdWritesNothing),
                new Scenario<>("ML-15", "an append after a stale last entry writes nothing",
                        "appendIfLast naming an entry that is no longer the agent's latest is a LastEntryMovedException"
                                + " naming both, and writes nothing; a retried batch is still recognised",
                        MessageLogScenarios::staleLastEntryWritesNothing),
                new Scenario<>("ML-16", "two writers of one conversation never fork it",
                        "handles (AgentSession) on separate store instances appending to one agent at once leave one"
                                + " line: every entry's parent is the entry stored before it",
                        MessageLogScenarios::concurrentWritersDoNotFork),
                new Scenario<>("ML-17", "an entry too large to read back is refused",
                        "an entry over EntryLimits (more text than MAX_TEXT_CHARS, a raw value nested deeper than"
                                + " MAX_RAW_DEPTH) is an EntryTooLargeException and writes nothing of its batch, not"
                                + " even a new session; an entry at the nesting limit reads back equal",
                        MessageLogScenarios::tooLargeEntryWritesNothing),
                new Scenario<>("ML-18", "windows and agent totals agree with the whole log",
                        "loadAfter walks the log in windows that add up to load, in seq order; loadAgentUsage names the"
                                + " agents that wrote entries by their first entry, with loadUsage's totals",
                        MessageLogScenarios::windowsAndAgentTotals),
                new Scenario<>("ML-19", "a session deleted and created again never reuses a seq",
                        "after the catalog deletes a session, the entries of a session created again under its id get"
                                + " seqs above every seq it had, also after the store is reopened, so a reader that"
                                + " follows by seq sees them",
                        MessageLogScenarios::seqsAfterDeletion));
    }

    /**
     * Runs the scenarios against the harness and returns one verdict each.
     *
     * @param harness the backend's harness
     * @return one verdict per scenario, in id order; a failing scenario is a verdict, not an exception
     */
    public static List<Verdict> run(MessageLogHarness harness) {
        return ConformanceRunner.run(all(), harness, MessageLogHarness::cleanupScope);
    }

    // ---- helpers ----

    private static int counter;

    static synchronized EntryId id(String prefix) {
        return new EntryId(prefix + "-" + (++counter));
    }

    static NewEntry entry(EntryId id, EntryId parent, Message m) {
        return NewEntry.of(id, parent, Instant.parse("2026-01-01T00:00:00.000Z"), m);
    }

    static SessionId session(String name) {
        return new SessionId(name);
    }

    // ---- scenarios ----

    static void insertionOrderAcrossAgents(MessageLogHarness h, String scope) {
        SessionId s = session("order");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            List<EntryId> expected = new ArrayList<>();
            EntryId lastA = null;
            EntryId lastB = null;
            for (int i = 0; i < 6; i++) {
                boolean a = i % 3 != 2;
                EntryId id = id(a ? "a" : "b");
                // Timestamps run backwards on purpose: order must not follow them.
                NewEntry e = NewEntry.of(id, a ? lastA : lastB, Instant.parse("2026-01-01T00:00:00Z").minusSeconds(i),
                        Message.user("m" + i));
                log.append(s, a ? ORCHESTRATOR : WORKER, List.of(e));
                if (a) {
                    lastA = id;
                } else {
                    lastB = id;
                }
                expected.add(id);
            }
            List<Entry> all = log.load(s, null);
            equal(expected, all.stream().map(Entry::id).toList(), "ids in insertion order");
            for (int i = 1; i < all.size(); i++) {
                that(all.get(i).seq() > all.get(i - 1).seq(), "seq must strictly increase: " + all);
            }
            List<Entry> worker = log.load(s, WORKER);
            equal(List.of(expected.get(2), expected.get(5)), worker.stream().map(Entry::id).toList(), "one agent's entries");
            that(worker.stream().allMatch(e -> e.agentId().equals(WORKER)), "agent recorded on each entry");
            equal(lastA, log.lastEntry(s, ORCHESTRATOR).map(Entry::id).orElse(null), "last entry of an agent");
            equal(OptionalLong.of(all.get(4).seq()), log.lastSeq(s, ORCHESTRATOR), "last seq of an agent");
            equal(OptionalLong.of(all.get(5).seq()), log.lastSeq(s, WORKER), "last seq of the other agent");
            equal(OptionalLong.empty(), log.lastSeq(s, AgentId.of("nobody")), "last seq of an agent without entries");
            equal(OptionalLong.empty(), log.lastSeq(session("no-such-session"), ORCHESTRATOR),
                    "last seq in a missing session");
            equal(List.of(), log.load(session("no-such-session"), null), "a missing session loads empty");
            equal(6, log.loadSessionMessages(s).size(), "loadSessionMessages sees every agent");
        }
    }

    static void batchAtomicity(MessageLogHarness h, String scope) {
        SessionId s = session("atomic");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId first = id("x");
            log.append(s, ORCHESTRATOR, List.of(entry(first, null, Message.user("kept"))));
            SessionInfo before = store.catalog().flatMap(c -> c.find(s)).orElse(null);
            EntryId a = id("x");
            EntryId b = id("x");
            List<NewEntry> bad = List.of(entry(a, first, Message.user("1")), entry(b, a, Message.user("2")),
                    entry(id("x"), new EntryId("nowhere"), Message.user("3")));
            fails(InvalidInputException.class, "batch with a dangling parent",
                    () -> log.append(s, ORCHESTRATOR, bad));
            equal(List.of(first), log.load(s, null).stream().map(Entry::id).toList(), "log after failed batch");
            if (before != null) {
                SessionInfo after = store.catalog().flatMap(c -> c.find(s)).orElseThrow();
                equal(before.entryCount(), after.entryCount(), "catalog entry count after failed batch");
            }
            List<Entry> stored = log.append(s, ORCHESTRATOR, List.of(entry(a, first, Message.user("1")),
                    entry(b, a, Message.user("2"))));
            equal(2, stored.size(), "a valid batch after a failed one");
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            equal(3, log.load(s, null).size(), "entries after reopening");
            fails(InvalidInputException.class, "a session of the batch in another session",
                    () -> log.append(session("other"), ORCHESTRATOR, List.of(entry(id("y"), log.load(s, null).get(0).id(),
                            Message.user("cross-session parent")))));
            equal(List.of(), log.load(session("other"), null), "nothing written for the failed batch");
        }
    }

    static void uniqueIds(MessageLogHarness h, String scope) {
        SessionId s = session("unique");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a = id("u");
            log.append(s, ORCHESTRATOR, List.of(entry(a, null, Message.user("one"))));
            fails(EntryConflictException.class, "an id that is already stored with other content",
                    () -> log.append(s, WORKER, List.of(entry(a, null, Message.user("again")))));
            EntryId b = id("u");
            fails(InvalidInputException.class, "an id repeated within the batch",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(b, a, Message.user("1")), entry(b, a, Message.user("2")))));
            equal(1, log.load(s, null).size(), "entries after the rejected batches");
            // The same id in another session is fine.
            log.append(session("unique-2"), ORCHESTRATOR, List.of(entry(a, null, Message.user("other session"))));
            equal(1, log.load(session("unique-2"), null).size(), "same id in another session");
        }
    }

    static void retriedAppendIsRecognised(MessageLogHarness h, String scope) {
        SessionId s = session("retry");
        EntryId a = id("t");
        EntryId b = id("t");
        List<NewEntry> batch = List.of(entry(a, null, Message.user("question")),
                entry(b, a, Message.builder(Role.ASSISTANT).plainText("answer").build()));
        Usage cost = Usage.of(30, 4);
        List<Entry> first;
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            AppendResult result = log.append(s, ORCHESTRATOR, batch, cost);
            equal(2, result.written(), "entries written by the first append");
            first = result.entries();
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            AppendResult again = log.append(s, ORCHESTRATOR, batch, cost);
            equal(first, again.entries(), "a retried batch answers the entries as stored, with their seqs");
            equal(0, again.written(), "entries written by the retried append");
            equal(2, log.load(s, null).size(), "entries after the retry");
            equal(cost, log.loadUsage(s, ORCHESTRATOR), "usage after the retry (counted once)");
            store.catalog().ifPresent(catalog -> {
                SessionInfo info = catalog.find(s).orElseThrow();
                equal(2L, info.entryCount(), "catalog entry count after the retry (counted once)");
                equal(2L, info.messageCount(), "catalog message count after the retry (counted once)");
            });
            equal(FlushResult.NOOP, log.flushUnpersisted(s, ORCHESTRATOR, batch), "flushing stored entries");
            EntryId c = id("t");
            List<NewEntry> history = List.of(batch.get(0), batch.get(1), entry(c, b, Message.user("follow-up")));
            AppendResult resent = log.append(s, ORCHESTRATOR, history, Usage.ZERO);
            equal(1, resent.written(), "entries written for a re-sent history with one new entry");
            equal(first, resent.entries().subList(0, 2), "the re-sent stored entries as stored");
            that(resent.entries().get(2).seq() > first.get(1).seq(), "the new entry follows the stored ones");
            equal(3, log.load(s, null).size(), "entries after the re-sent history");
            store.catalog().ifPresent(catalog -> equal(3L, catalog.find(s).orElseThrow().entryCount(),
                    "catalog entry count after the re-sent history (its stored entries counted once)"));
            equal(FlushResult.FLUSHED, log.flushUnpersisted(s, ORCHESTRATOR,
                    List.of(entry(id("t"), c, Message.user("queued")))), "flushing a new entry");
        }
    }

    static void conflictingIdWritesNothing(MessageLogHarness h, String scope) {
        SessionId s = session("conflict");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a = id("k");
            log.append(s, ORCHESTRATOR, List.of(entry(a, null, Message.user("original"))));
            EntryId fresh = id("k");
            EntryConflictException e = fails(EntryConflictException.class, "an id stored with other text",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(fresh, a, Message.user("new")),
                            entry(a, null, Message.user("edited"))), Usage.of(5, 5)));
            equal(a, e.entry(), "the conflicting id the error names");
            fails(EntryConflictException.class, "an id stored by another agent",
                    () -> log.append(s, WORKER, List.of(entry(a, null, Message.user("original")))));
            fails(EntryConflictException.class, "an id stored under another parent",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(fresh, null, Message.user("x")),
                            entry(a, fresh, Message.user("original")))));
            equal(1, log.load(s, null).size(), "entries after the conflicting batches");
            equal(Usage.ZERO, log.loadUsage(s, ORCHESTRATOR), "usage after the conflicting batch");
        }
    }

    static void staleLastEntryWritesNothing(MessageLogHarness h, String scope) {
        SessionId s = session("stale-last");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a = id("l");
            log.appendIfLast(s, ORCHESTRATOR, null, List.of(entry(a, null, Message.user("first"))), Usage.ZERO);
            EntryId b = id("l");
            List<NewEntry> second = List.of(entry(b, a, Message.user("second")));
            log.appendIfLast(s, ORCHESTRATOR, a, second, Usage.of(1, 1));
            EntryId c = id("l");
            LastEntryMovedException moved = fails(LastEntryMovedException.class, "an append after a stale entry",
                    () -> log.appendIfLast(s, ORCHESTRATOR, a, List.of(entry(c, a, Message.user("fork"))),
                            Usage.of(7, 7)));
            equal(a, moved.expected(), "the expected entry the error names");
            equal(b, moved.actual(), "the actual last entry the error names");
            fails(LastEntryMovedException.class, "an append expecting no entry where there is one",
                    () -> log.appendIfLast(s, ORCHESTRATOR, null, List.of(entry(c, null, Message.user("root"))),
                            Usage.ZERO));
            equal(2, log.load(s, null).size(), "entries after the refused appends");
            equal(Usage.of(1, 1), log.loadUsage(s, ORCHESTRATOR), "usage after the refused appends");
            equal(0, log.appendIfLast(s, ORCHESTRATOR, a, second, Usage.of(1, 1)).written(),
                    "entries written by a retry of the acknowledged batch");
            log.appendIfLast(s, WORKER, null, List.of(entry(c, null, Message.user("another agent"))), Usage.ZERO);
            equal(3, log.load(s, null).size(), "entries after another agent's first conditional append");
        }
    }

    static void concurrentWritersDoNotFork(MessageLogHarness h, String scope) throws InterruptedException {
        SessionId s = session("no-fork");
        int writers = 3;
        int perWriter = 8;
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Store> stores = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                stores.add(h.open(scope));
            }
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                AgentSession handle = new AgentSession(stores.get(w).log(), s, ORCHESTRATOR,
                        dev.parley.core.IdGenerator.uuidV7(), java.time.Clock.systemUTC());
                int writer = w;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < perWriter; i++) {
                            handle.appendMessages(List.of(Message.user("writer " + writer + " prompt " + i)));
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            that(errors.isEmpty(), "appends failed: " + errors);
            List<Entry> all = stores.get(0).log().load(s, null);
            equal(writers * perWriter, all.size(), "entries stored");
            EntryId previous = null;
            for (Entry e : all) {
                equal(previous, e.parentId(), "the parent of entry " + e.seq() + " (a side branch means a fork)");
                previous = e.id();
            }
        } finally {
            for (Store store : stores) {
                store.close();
            }
        }
    }

    static void truncateAfter(MessageLogHarness h, String scope) {
        SessionId s = session("truncate");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a1 = id("t");
            EntryId w1 = id("t");
            EntryId a2 = id("t");
            EntryId w2 = id("t");
            log.append(s, ORCHESTRATOR, List.of(entry(a1, null, Message.user("a1"))));
            log.append(s, WORKER, List.of(entry(w1, null, Message.user("w1"))));
            log.append(s, ORCHESTRATOR, List.of(entry(a2, a1, Message.user("a2"))));
            long highest = log.append(s, WORKER, List.of(entry(w2, w1, Message.user("w2")))).get(0).seq();
            log.truncateAfter(s, w1);
            equal(List.of(a1, w1), log.load(s, null).stream().map(Entry::id).toList(), "after truncateAfter(w1)");
            equal(a1, log.lastEntry(s, ORCHESTRATOR).map(Entry::id).orElse(null), "orchestrator's last entry");
            List<Entry> kept = log.load(s, null);
            equal(OptionalLong.of(kept.get(0).seq()), log.lastSeq(s, ORCHESTRATOR),
                    "orchestrator's last seq after truncateAfter(w1)");
            equal(OptionalLong.of(kept.get(1).seq()), log.lastSeq(s, WORKER),
                    "worker's last seq after truncateAfter(w1)");
            fails(NotFoundException.class, "truncating after an entry that does not exist",
                    () -> log.truncateAfter(s, new EntryId("nope")));
            EntryId a3 = id("t");
            List<Entry> stored = log.append(s, ORCHESTRATOR, List.of(entry(a3, a1, Message.user("a3"))));
            // Above every seq ever assigned, the removed ones included: a reader that remembers the seq of the last
            // entry it saw (lastSeq) must see a change after a truncation and new appends.
            that(stored.get(0).seq() > highest, "a truncated seq is not given again: " + stored.get(0).seq()
                    + " after " + highest);
            equal(OptionalLong.of(stored.get(0).seq()), log.lastSeq(s, ORCHESTRATOR), "last seq after appending again");
            // The removed id may be used again.
            log.append(s, WORKER, List.of(entry(w2, w1, Message.user("w2 again"))));
            equal(4, log.load(s, null).size(), "entries after appending again");
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            equal(4, log.load(s, null).size(), "truncation is durable");
        }
    }

    static void tooLargeEntryWritesNothing(MessageLogHarness h, String scope) {
        SessionId s = session("too-large");
        SessionId fresh = session("too-large-new");
        // The cheapest entry over the limit: one string one character longer than an entry may hold (64 MiB in
        // memory, never written: the limit is checked before anything is).
        String overLimit = "x".repeat(EntryLimits.MAX_TEXT_CHARS + 1);
        int deep = EntryLimits.MAX_RAW_DEPTH;
        RawJson atDepthLimit = RawJson.of("[".repeat(deep) + "]".repeat(deep));
        RawJson overDepthLimit = RawJson.of("[".repeat(deep + 1) + "]".repeat(deep + 1));
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a = id("big");
            log.append(s, ORCHESTRATOR, List.of(entry(a, null, Message.user("small"))));
            EntryId b = id("big");
            EntryId c = id("big");
            fails(EntryTooLargeException.class, "an entry with more text than an entry may hold",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(b, a, Message.user("fits")),
                            entry(c, b, Message.user(overLimit))), Usage.of(3, 3)));
            fails(EntryTooLargeException.class, "text over the limit in a new session",
                    () -> log.append(fresh, ORCHESTRATOR, List.of(entry(id("big"), null, Message.user(overLimit)))));
            fails(EntryTooLargeException.class, "a tool call's arguments nested deeper than the limit",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(b, a, Message.assistant(List.of(
                            new ContentBlock.ToolCall("call-1", "deep", overDepthLimit)))))));
            equal(1, log.load(s, null).size(), "entries after the refused batches");
            equal(Usage.ZERO, log.loadUsage(s, ORCHESTRATOR), "usage after the refused batch");
            store.catalog().ifPresent(catalog -> that(catalog.find(fresh).isEmpty(),
                    "a session whose only batch was refused is not in the catalog"));
            log.append(s, ORCHESTRATOR, List.of(entry(b, a, deepCall(atDepthLimit))));
        }
        try (Store store = h.open(scope)) {
            List<Entry> back = store.log().load(s, null);
            equal(2, back.size(), "entries read back by a fresh instance");
            equal(deepCall(atDepthLimit), back.get(1).payload(), "a tool call nested at the limit, read back");
        }
    }

    private static Message deepCall(RawJson arguments) {
        return Message.assistant(List.of(new ContentBlock.ToolCall("call-2", "deep", arguments)));
    }

    static void parentsMustExist(MessageLogHarness h, String scope) {
        SessionId s = session("parents");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            fails(InvalidInputException.class, "a parent that does not exist",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(id("p"), new EntryId("ghost"), Message.user("x")))));
            EntryId a = id("p");
            EntryId b = id("p");
            fails(InvalidInputException.class, "a parent later in the batch",
                    () -> log.append(s, ORCHESTRATOR, List.of(entry(a, b, Message.user("child")),
                            entry(b, null, Message.user("parent")))));
            List<Entry> ok = log.append(s, ORCHESTRATOR, List.of(entry(b, null, Message.user("parent")),
                    entry(a, b, Message.user("child"))));
            equal(b, ok.get(1).parentId(), "parent earlier in the batch");
            EntryId c = id("p");
            Entry fromWorker = log.append(s, WORKER, List.of(entry(c, a, Message.user("worker child")))).get(0);
            equal(a, fromWorker.parentId(), "a parent written by another agent of the same session");
        }
    }

    static void exactRoundTrip(MessageLogHarness h, String scope) {
        SessionId s = session("exact");
        List<NewEntry> batch = new ArrayList<>();
        EntryId parent = null;
        for (Message m : Samples.tricky()) {
            EntryId id = id("e");
            batch.add(NewEntry.of(id, parent, Instant.parse("2025-12-08T22:41:09.389Z"), m));
            parent = id;
        }
        EntryId root = parent;
        batch.add(new NewEntry(id("e"), root, null, new EntryPayload.Compaction("summary ✓", batch.get(2).id(), 170251L),
                new SourceRecord("pi", RawJson.of("{\"details\":{\"files\":[\"a\"]},\"fromHook\":false}"))));
        batch.add(NewEntry.of(id("e"), null, null, new EntryPayload.Custom("file-history-snapshot",
                RawJson.of("{\"snapshot\":{\"trackedFileBackups\":{}},\"isSnapshotUpdate\":false}"))));
        batch.add(NewEntry.of(id("e"), root, null, new EntryPayload.ModelChange("anthropic", "claude-sonnet-4-5")));
        batch.add(NewEntry.of(id("e"), root, null, new EntryPayload.ThinkingLevelChange("high")));
        batch.add(NewEntry.of(id("e"), root, null, new EntryPayload.Label(root, null)));
        batch.add(NewEntry.of(id("e"), root, null, new EntryPayload.BranchSummary(batch.get(1).id(), "left a branch")));
        batch.add(NewEntry.of(id("e"), root, null, new EntryPayload.SessionName("名前")));
        Random random = new Random(42);
        for (int i = 0; i < 30; i++) {
            EntryId id = id("r");
            batch.add(NewEntry.of(id, root, null, Samples.random(random)));
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            List<Entry> stored = log.append(s, ORCHESTRATOR, batch);
            equal(batch, stored.stream().map(Entry::toNewEntry).toList(), "what append returns");
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            List<Entry> loaded = log.load(s, null);
            for (int i = 0; i < batch.size(); i++) {
                equal(batch.get(i), loaded.get(i).toNewEntry(), "entry " + i + " read back");
            }
        }
    }

    static void freshInstanceReopens(MessageLogHarness h, String scope) {
        SessionId s = session("reopen");
        List<Entry> written;
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a = id("r");
            written = new ArrayList<>(log.append(s, ORCHESTRATOR, List.of(entry(a, null, Message.user("1")))));
            written.addAll(log.append(s, WORKER, List.of(entry(id("r"), a, Message.user("2")))));
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            equal(written, log.load(s, null), "entries seen by a fresh instance");
            EntryId next = id("r");
            Entry more = log.append(s, ORCHESTRATOR, List.of(entry(next, written.get(0).id(), Message.user("3")))).get(0);
            that(more.seq() > written.get(1).seq(), "seq continues after reopening");
        }
        try (Store firstStore = h.open(scope); Store secondStore = h.open(scope)) {
            MessageLog first = firstStore.log();
            MessageLog second = secondStore.log();
            first.append(s, ORCHESTRATOR, List.of(entry(id("r"), null, Message.user("from first"))));
            equal(4, second.load(s, null).size(), "a second open instance reads the first's write immediately");
        }
    }

    static void corruptRecordFailsRead(MessageLogHarness h, String scope) {
        SessionId s = session("corrupt");
        EntryId victim = id("c");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId a = id("c");
            log.append(s, ORCHESTRATOR, List.of(entry(a, null, Message.user("fine")), entry(victim, a, Message.user("victim"))));
            log.append(session("bystander"), ORCHESTRATOR, List.of(entry(id("c"), null, Message.user("untouched"))));
        }
        h.corruptEntry(scope, s, victim);
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            CorruptRecordException e = fails(CorruptRecordException.class, "loading a damaged entry",
                    () -> log.load(s, null));
            that(!e.location().isBlank(), "the error names where the record is");
            equal(1, log.load(session("bystander"), null).size(), "other sessions still load");
        }
    }

    static void catalogPaging(MessageLogHarness h, String scope) {
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            SessionCatalog catalog = store.catalog().orElseThrow(() -> new CapabilityMissing("catalog"));
            Set<SessionId> all = new HashSet<>();
            for (int i = 0; i < 7; i++) {
                SessionId s = session("page-" + i);
                log.append(s, ORCHESTRATOR, List.of(entry(id("c"), null, Message.user("m"))));
                all.add(s);
            }
            catalog.create(new NewSession(session("created"), "A title", "test:origin", Map.of("k", RawJson.of("[1]"))));
            all.add(session("created"));
            List<SessionId> seen = new ArrayList<>();
            String cursor = null;
            Instant previous = Instant.MAX;
            int pages = 0;
            do {
                SessionPage page = catalog.list(cursor, 3);
                that(page.sessions().size() <= 3, "page size within limit");
                for (SessionInfo info : page.sessions()) {
                    that(!info.updatedAt().isAfter(previous), "newest activity first");
                    previous = info.updatedAt();
                    seen.add(info.id());
                }
                cursor = page.nextCursor();
                that(++pages < 20, "the walk ends");
            } while (cursor != null);
            equal(all.size(), seen.size(), "sessions visited");
            equal(all, new HashSet<>(seen), "every session exactly once");
            SessionInfo created = catalog.find(session("created")).orElseThrow();
            equal("A title", created.title(), "title");
            equal(List.of(session("created")), catalog.findByOrigin("test:origin").stream().map(SessionInfo::id).toList(),
                    "findByOrigin");
            equal(Map.of("k", RawJson.of("[1]")), created.metadata(), "metadata");
            Instant then = Instant.parse("2025-01-02T03:04:05.678Z"); // a session restored from an export
            catalog.create(new NewSession(session("restored"), null, null, Map.of(), then));
            SessionInfo restored = catalog.find(session("restored")).orElseThrow();
            equal(then, restored.createdAt(), "the creation time a restored session was created with");
            that(!restored.updatedAt().isBefore(then), "a restored session's activity is not before its creation");
            equal(restored.updatedAt(), catalog.list(null, 1).sessions().get(0).updatedAt(),
                    "a restored session is listed where its restoring happened: first (or tied for first), not by "
                            + "its creation time");
            fails(dev.parley.core.AlreadyExistsException.class, "creating an existing session",
                    () -> catalog.create(NewSession.of(session("created"))));
            equal(List.of(session("page-0"), session("page-1")), catalog.findByPrefix("page-", 2), "findByPrefix");
            equal(1L, catalog.find(session("page-3")).orElseThrow().entryCount(), "entry count");
            equal(1L, catalog.find(session("page-3")).orElseThrow().messageCount(), "message count");
            fails(InvalidInputException.class, "a damaged cursor", () -> catalog.list("not-a-cursor!", 3));
            fails(InvalidInputException.class, "a limit of 0", () -> catalog.list(null, 0));
            that(catalog.delete(session("page-3")), "delete returns true for an existing session");
            that(!catalog.delete(session("page-3")), "delete returns false the second time");
            equal(List.of(), log.load(session("page-3"), null), "a deleted session has no entries");
            that(catalog.find(session("page-3")).isEmpty(), "a deleted session is not in the catalog");
        }
    }

    static void seqsAfterDeletion(MessageLogHarness h, String scope) {
        SessionId s = session("deleted-again");
        long highest;
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            SessionCatalog catalog = store.catalog().orElseThrow(() -> new CapabilityMissing("catalog"));
            EntryId first = id("d");
            log.append(s, ORCHESTRATOR, List.of(entry(first, null, Message.user("one"))));
            log.append(s, WORKER, List.of(entry(id("d"), null, Message.user("two"))));
            highest = log.append(s, ORCHESTRATOR, List.of(entry(id("d"), first, Message.user("three")))).get(0).seq();
            that(catalog.delete(s), "the session is deleted");

            Entry again = log.append(s, WORKER, List.of(entry(id("d"), null, Message.user("created again")))).get(0);
            that(again.seq() > highest, "a seq of the deleted session is not given again: " + again.seq()
                    + " after " + highest);
            equal(List.of(again), log.loadAfter(s, highest, 10), "a reader that saw seq " + highest + " reads on");
            equal(OptionalLong.empty(), log.lastSeq(s, ORCHESTRATOR), "the deleted agent's last seq");
            highest = again.seq();
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            that(store.catalog().orElseThrow().delete(s), "the session is deleted again, by a new instance");
            long next = log.append(s, ORCHESTRATOR, List.of(entry(id("d"), null, Message.user("once more"))))
                    .get(0).seq();
            that(next > highest, "a seq of the deleted session is not given again after reopening: " + next
                    + " after " + highest);
        }
    }

    static void windowsAndAgentTotals(MessageLogHarness h, String scope) {
        SessionId s = session("windows");
        AgentId usageOnly = new AgentId("usage-only");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            EntryId lastA = null;
            EntryId lastB = null;
            for (int i = 0; i < 7; i++) {
                boolean worker = i % 3 == 0; // the worker writes first
                EntryId id = id(worker ? "w" : "o");
                log.append(s, worker ? WORKER : ORCHESTRATOR, List.of(entry(id, worker ? lastB : lastA,
                        Message.user("m" + i))), Usage.of(i, 1));
                if (worker) {
                    lastB = id;
                } else {
                    lastA = id;
                }
            }
            log.persistUsage(s, usageOnly, Usage.of(3, 4));
            List<Entry> all = log.load(s, null);
            List<Entry> walked = new ArrayList<>();
            long after = 0;
            for (List<Entry> w = log.loadAfter(s, after, 3); !w.isEmpty(); w = log.loadAfter(s, after, 3)) {
                that(w.size() <= 3, "a window of 3 held " + w.size() + " entries");
                walked.addAll(w);
                after = w.get(w.size() - 1).seq();
            }
            equal(all, walked, "the windows walk the whole log in seq order");
            equal(all.subList(2, 4), log.loadAfter(s, all.get(1).seq(), 2), "a window in the middle");
            equal(List.of(), log.loadAfter(session("no-such-session"), 0, 5), "a missing session has no window");
            fails(InvalidInputException.class, "a window after a negative seq", () -> log.loadAfter(s, -1, 3));
            fails(InvalidInputException.class, "a window of 0 entries", () -> log.loadAfter(s, 0, 0));
            Map<AgentId, Usage> totals = log.loadAgentUsage(s);
            equal(List.of(WORKER, ORCHESTRATOR), new ArrayList<>(totals.keySet()),
                    "the agents that wrote entries, by their first entry (not an agent that only recorded usage)");
            for (AgentId a : totals.keySet()) {
                equal(log.loadUsage(s, a), totals.get(a), "the total of " + a);
            }
            equal(Map.of(), log.loadAgentUsage(session("no-such-session")), "a missing session has no agents");
        }
    }

    static void usageAccumulates(MessageLogHarness h, String scope) {
        SessionId s = session("usage");
        EntryId first = id("u");
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            log.append(s, ORCHESTRATOR, List.of(entry(first, null, Message.user("m"))));
            log.persistUsage(s, ORCHESTRATOR, new Usage(100, 10, 5, 1, 2, new BigDecimal("0.25")));
            log.persistUsage(s, ORCHESTRATOR, new Usage(1, 2, 3, 4, 5, new BigDecimal("0.5")));
            log.persistUsage(s, WORKER, Usage.of(7, 8));
        }
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            equal(new Usage(101, 12, 8, 5, 7, new BigDecimal("0.75")), log.loadUsage(s, ORCHESTRATOR), "orchestrator total");
            equal(Usage.of(7, 8), log.loadUsage(s, WORKER), "worker total");
            equal(Usage.ZERO, log.loadUsage(s, new AgentId("nobody")), "an agent with no usage");
        }
        // Totals saturate rather than overflow, whichever way the usage arrives (Usage.plus does the same).
        long max = Long.MAX_VALUE;
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            log.persistUsage(s, WORKER, new Usage(max - 1, max, 1, 0, max - 8, null));
            EntryId second = id("u");
            log.append(s, WORKER, List.of(entry(second, first, Message.user("n"))), new Usage(2, 1, 0, 0, 8, null));
            log.append(s, WORKER, List.of(entry(id("u"), second, Message.user("o"))), new Usage(0, max, 0, 0, 1, null));
        }
        try (Store store = h.open(scope)) {
            equal(new Usage(max, max, 1, 0, max, null), store.log().loadUsage(s, WORKER),
                    "worker total past Long.MAX_VALUE");
        }
    }

    static void scopeIsolation(MessageLogHarness h, String scope) {
        String other = scope + "-other";
        SessionId s = session("isolated");
        try {
            try (Store store = h.open(scope)) {
                MessageLog log = store.log();
                log.append(s, ORCHESTRATOR, List.of(entry(id("i"), null, Message.user("mine"))));
            }
            try (Store store = h.open(other)) {
                MessageLog log = store.log();
                equal(List.of(), log.load(s, null), "entries seen from another scope");
                store.catalog().ifPresent(c -> that(c.find(s).isEmpty(), "session seen in another scope's catalog"));
            }
        } finally {
            h.cleanupScope(other);
        }
    }

    static void concurrentAppends(MessageLogHarness h, String scope) throws InterruptedException {
        SessionId s = session("concurrent");
        int threads = 4;
        int perThread = 25;
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        try (Store store = h.open(scope)) {
            MessageLog log = store.log();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                AgentId agent = new AgentId("agent-" + t);
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        EntryId parent = null;
                        for (int i = 0; i < perThread; i++) {
                            EntryId id = new EntryId(agent.value() + "-" + i);
                            log.append(s, agent, List.of(entry(id, parent, Message.user(id.value()))));
                            parent = id;
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                workers.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread t : workers) {
                t.join();
            }
            that(errors.isEmpty(), "appends failed: " + errors);
            List<Entry> all = log.load(s, null);
            equal(threads * perThread, all.size(), "entries stored");
            Set<Long> seqs = new HashSet<>();
            all.forEach(e -> seqs.add(e.seq()));
            equal(all.size(), seqs.size(), "distinct seqs");
            for (int t = 0; t < threads; t++) {
                List<Entry> mine = log.load(s, new AgentId("agent-" + t));
                for (int i = 0; i < perThread; i++) {
                    equal("agent-" + t + "-" + i, mine.get(i).id().value(), "agent " + t + " order");
                }
            }
        }
    }
}
