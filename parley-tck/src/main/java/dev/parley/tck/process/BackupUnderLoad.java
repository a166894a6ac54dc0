package dev.parley.tck.process;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import dev.parley.tck.Kit;
import dev.parley.tck.StoreHarness;
import dev.parley.tck.Verdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A backup taken while writers work, checked after a restore: writer threads (each on a store instance of its own)
 * append batches of one to four entries and update a session record; part-way through, {@link Stores#backup} copies
 * the store; the copy is {@linkplain Stores#restore restored} elsewhere and must hold every entry and record update
 * acknowledged before the backup began, no batch in part, nothing twice — and pass the kit's message-log scenarios.
 */
public final class BackupUnderLoad {
    private BackupUnderLoad() {}

    /**
     * What the check showed.
     *
     * @param acknowledgedBefore entries acknowledged before the backup began
     * @param acknowledgedDuring entries acknowledged once the backup had begun: while it ran and in the moments after,
     *     before the writers stopped (any of them may or may not be in the copy)
     * @param violations every broken rule; empty when the backup passed
     */
    public record Report(long acknowledgedBefore, long acknowledgedDuring, List<String> violations) {
        /**
         * Copies {@code violations}.
         *
         * @param acknowledgedBefore entries acknowledged before the backup began
         * @param acknowledgedDuring entries acknowledged once the backup had begun: while it ran and in the moments
         *     after, before the writers stopped (any of them may or may not be in the copy)
         * @param violations every broken rule; empty when the backup passed
         * @throws NullPointerException if {@code violations} is null or holds a null
         */
        public Report {
            violations = List.copyOf(violations);
        }
    }

    private record Ack(SessionId session, List<String> ids, long at) {}

    /**
     * Runs the check.
     *
     * @param storeUri the store to back up (written to in a scope of the check's own)
     * @param backup where the backup goes (must not exist)
     * @param restoredUri where the backup is restored (must hold no store)
     * @return what the check showed; {@link Report#violations()} is empty when the backup passed
     * @throws InterruptedException if this thread is interrupted; the writers are stopped and the check's scope
     *     deleted first, as for any exception of the backup itself, which goes to the caller
     */
    public static Report run(String storeUri, Path backup, String restoredUri) throws InterruptedException {
        String scope = "backup-" + Long.toString(System.nanoTime(), 36);
        StoreOptions options = StoreOptions.defaults().withScope(scope);
        List<String> violations = new ArrayList<>();
        ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<long[]> recordAcks = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (Store setup = Stores.open(storeUri, options)) {
            setup.sessions().ifPresent(r -> r.create(ChatSession.builder("backup-record", Instant.EPOCH).build()));
        }
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                try (Store store = Stores.open(storeUri, options)) {
                    AgentId agent = new AgentId("w" + writer);
                    Optional<ChatSessionRepository> records = store.sessions();
                    for (int n = 0; !stop.get(); n++) {
                        if (writer == 0 && records.isPresent() && n % 3 == 0) {
                            update(records.get(), n, recordAcks);
                        }
                        SessionId session = new SessionId("backup-" + (n % 2));
                        int k = 1 + (n % 4);
                        List<NewEntry> batch = new ArrayList<>();
                        List<String> ids = new ArrayList<>();
                        for (int i = 1; i <= k; i++) {
                            String id = "w" + writer + "-" + n + "-" + i + "of" + k;
                            ids.add(id);
                            batch.add(NewEntry.of(new EntryId(id), null, null, Message.user("backup " + id)));
                        }
                        store.log().append(session, agent, batch);
                        acks.add(new Ack(session, ids, System.nanoTime()));
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "backup-writer-" + w);
            writers.add(t);
            t.start();
        }
        long began = 0;
        long ended = 0;
        try {
            Thread.sleep(400);
            began = System.nanoTime();
            try {
                Stores.backup(storeUri, backup);
            } finally {
                ended = System.nanoTime();
            }
            Thread.sleep(200);
        } catch (Throwable e) { // an interrupt, a failed backup: the writers end and the scope goes, then it is thrown
            boolean interrupted = stopWriters(stop, writers);
            try {
                deleteScope(storeUri, options);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            throw e;
        }
        if (stopWriters(stop, writers)) {
            Thread.currentThread().interrupt();
        }
        try {
            if (!errors.isEmpty()) {
                violations.add("writers failed: " + errors);
            }
            violations.addAll(check(acks, recordAcks, began, ended, backup, restoredUri, scope));
        } finally {
            deleteScope(storeUri, options);
        }
        long from = began;
        long before = acks.stream().filter(a -> a.at() < from).mapToLong(a -> a.ids().size()).sum();
        long during = acks.stream().filter(a -> a.at() >= from).mapToLong(a -> a.ids().size()).sum();
        return new Report(before, during, violations);
    }

    /**
     * Stops the writers and waits for each to end, however often this thread is interrupted meanwhile; its interrupt
     * status is cleared while it waits (a file channel used after would close on it). Returns whether it was
     * interrupted, before or during, for the caller to restore once it is done with the store.
     */
    private static boolean stopWriters(AtomicBoolean stop, List<Thread> writers) {
        stop.set(true);
        boolean interrupted = Thread.interrupted();
        for (Thread t : writers) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        return interrupted;
    }

    private static void deleteScope(String storeUri, StoreOptions options) {
        try (Store store = Stores.open(storeUri, options)) {
            store.deleteScope();
        }
    }

    private static void update(ChatSessionRepository records, int n, ConcurrentLinkedQueue<long[]> recordAcks) {
        StoredSession current = records.read("backup-record").orElseThrow();
        List<ConversationLine> lines = new ArrayList<>(current.session().messages());
        lines.add(new ConversationLine("u" + n, "user", "backup", null, null, null));
        try {
            records.update(current.session().toBuilder().messages(lines).build(), current.revision())
                    .ifPresent(s -> recordAcks.add(new long[] {s.revision(), System.nanoTime()}));
        } catch (RevisionConflictException e) {
            // no other writer of the record here; a conflict would be a bug the check reports through the revision
        }
    }

    private static List<String> check(ConcurrentLinkedQueue<Ack> acks, ConcurrentLinkedQueue<long[]> recordAcks,
                                      long began, long ended, Path backup, String restoredUri, String scope) {
        List<String> out = new ArrayList<>();
        Stores.restore(backup, restoredUri);
        try (Store restored = Stores.open(restoredUri, StoreOptions.defaults().withScope(scope))) {
            Map<SessionId, Map<String, Integer>> present = new HashMap<>();
            for (String name : List.of("backup-0", "backup-1")) {
                SessionId s = new SessionId(name);
                Map<String, Integer> count = new HashMap<>();
                for (Entry e : restored.log().load(s, null)) {
                    count.merge(e.id().value(), 1, Integer::sum);
                }
                present.put(s, count);
                Map<String, TreeSet<String>> batches = new HashMap<>();
                count.forEach((id, c) -> {
                    if (c > 1) {
                        out.add("entry " + id + " is in the copy " + c + " times");
                    }
                    batches.computeIfAbsent(id.substring(0, id.lastIndexOf('-')), b -> new TreeSet<>()).add(id);
                });
                batches.forEach((b, ids) -> {
                    String any = ids.first();
                    int k = Integer.parseInt(any.substring(any.lastIndexOf("of") + 2));
                    if (ids.size() != k) {
                        out.add("batch " + b + " is in the copy in part: " + ids);
                    }
                });
            }
            for (Ack a : acks) {
                if (a.at() < began) {
                    for (String id : a.ids()) {
                        if (!present.get(a.session()).containsKey(id)) {
                            out.add("entry " + id + ", acknowledged before the backup began, is not in the copy");
                        }
                    }
                }
            }
            Optional<ChatSessionRepository> records = restored.sessions();
            if (records.isPresent()) {
                long revision = records.get().read("backup-record").map(StoredSession::revision).orElse(0L);
                for (long[] r : recordAcks) {
                    if (r[1] < began && revision < r[0]) {
                        out.add("record revision " + r[0] + ", acknowledged before the backup began, is not in the"
                                + " copy (it holds " + revision + ")");
                    }
                }
            }
        }
        for (Verdict v : StoreHarness.of(restoredUri).run(Kit.MESSAGE_LOG)) {
            if (v.outcome() == Verdict.Outcome.FAILED) {
                out.add("the restored store fails " + v.scenario() + ": " + v.detail());
            }
        }
        return out;
    }
}
