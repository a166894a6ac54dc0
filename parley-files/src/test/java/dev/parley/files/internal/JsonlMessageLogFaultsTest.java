package dev.parley.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.AppendResult;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faults of the JSONL log that need its package-private knobs: read block size, stamping, failing writes. */
class JsonlMessageLogFaultsTest {
    static final SessionId S = new SessionId("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    static final AgentId A = AgentId.MAIN;

    @TempDir
    Path dir;

    static NewEntry entry(String id, String parent, String text) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), null, Message.user(text));
    }

    JsonlMessageLog log(int chunkBytes) {
        return new JsonlMessageLog(dir, StoreOptions.defaults(), chunkBytes, Files::setLastModifiedTime);
    }

    static List<String> ids(List<Entry> entries) {
        return entries.stream().map(e -> e.id().value()).toList();
    }

    // ---- issue 14, break 8: a failure after the durable point ----

    /**
     * Issue 14, break 8: the modification-time stamp after a durable append failed ("cannot stamp … Operation not
     * permitted", a file owned by another user) and the append was reported as failed, so a retry duplicated it.
     */
    @Test
    void append_whoseStampFailsAfterTheDurableWrite_isAcknowledgedAndARetryWritesNothing() {
        JsonlMessageLog log = new JsonlMessageLog(dir, StoreOptions.defaults(), SessionFile.CHUNK_BYTES,
                (file, time) -> {
                    throw new AccessDeniedException(file.toString(), null, "Operation not permitted");
                });
        List<NewEntry> batch = List.of(entry("a", null, "one"), entry("b", "a", "two"));

        AppendResult first = log.append(S, A, batch, Usage.of(3, 4));
        AppendResult retry = log.append(S, A, batch, Usage.of(3, 4));

        assertThat(first.written()).isEqualTo(2);
        assertThat(retry.written()).isZero();
        JsonlMessageLog fresh = log(SessionFile.CHUNK_BYTES);
        assertThat(ids(fresh.load(S, null))).containsExactly("a", "b");
        assertThat(fresh.loadUsage(S, A)).isEqualTo(Usage.of(3, 4));
    }

    // ---- issue 14, break 4: session files over 2 GiB ----

    /**
     * Issue 14, break 4: a session file was read into one array, so one over 2 GiB could not be read at all ("session
     * file region too large to read at once"). Files are now streamed in blocks; here the blocks are a few bytes, so
     * every line spans several of them, as lines do at block edges in a large file.
     */
    @Test
    void sessionFileLargerThanOneReadBlock_isStreamedByLoadFindTruncateAndAppend() {
        JsonlMessageLog writer = log(SessionFile.CHUNK_BYTES);
        EntryId parent = null;
        for (int i = 0; i < 40; i++) {
            writer.append(S, A, List.of(entry("e" + i, parent == null ? null : parent.value(), "text " + i)),
                    i % 3 == 0 ? Usage.of(1, 1) : Usage.ZERO);
            parent = new EntryId("e" + i);
        }
        for (int block : new int[] {1, 7, 64, 1000}) {
            JsonlMessageLog small = log(block);
            assertThat(small.load(S, null)).as("block of %d bytes", block).hasSize(40)
                    .isEqualTo(log(SessionFile.CHUNK_BYTES).load(S, null));
            assertThat(small.loadUsage(S, A)).isEqualTo(Usage.of(14, 14));
            assertThat(small.find(S)).map(i -> i.entryCount()).contains(40L);
        }
        JsonlMessageLog small = log(5);
        small.truncateAfter(S, new EntryId("e29"));
        small.append(S, A, List.of(entry("after", "e29", "next")), Usage.ZERO);
        assertThat(ids(log(SessionFile.CHUNK_BYTES).load(S, null))).hasSize(31).endsWith("e29", "after");
        assertThat(log(SessionFile.CHUNK_BYTES).loadUsage(S, A)).isEqualTo(Usage.of(14, 14));
    }

    /**
     * Issue 14, break 4: offsets past {@link Integer#MAX_VALUE}. The records sit 3 GiB into a sparse file, and the
     * index is told that what precedes them was read already (the header), so the scan, the spans it records and the
     * read-back of an entry all work on offsets no int can hold, without writing gigabytes.
     */
    @Test
    void sessionFileOverTwoGibibytes_offsetsPastIntegerMaxValueStayExact() throws IOException {
        JsonlMessageLog writer = log(SessionFile.CHUNK_BYTES);
        writer.append(S, A, List.of(entry("a", null, "one"), entry("b", "a", "two")), Usage.of(5, 6));
        byte[] whole = Files.readAllBytes(writer.fileOf(S));
        int headerEnd = indexOf(whole, (byte) '\n') + 1;
        long far = 3L << 30;
        Path sparse = dir.resolve("sparse.jsonl");
        try (FileChannel ch = FileChannel.open(sparse, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            ch.write(ByteBuffer.wrap(whole, headerEnd, whole.length - headerEnd), far);
            SessionFile.Index index = new SessionFile.Index();
            index.header = new SessionFile.Header(S, Instant.EPOCH, null, null, java.util.Map.of());
            index.committedLines = 1;
            index.examined = far;
            index.committedEnd = far;
            List<Entry> entries = new ArrayList<>();

            SessionFile.scan(sparse, S, ch, ch.size(), index, entries, 16);

            assertThat(ids(entries)).containsExactly("a", "b");
            SessionFile.Span span = index.spans.get(new EntryId("b"));
            assertThat(span.start()).isGreaterThan(Integer.MAX_VALUE);
            assertThat(span.line()).isEqualTo(3);
            assertThat(SessionFile.readEntry(sparse, ch, span, new EntryId("b"))).isEqualTo(entries.get(1));
            assertThat(index.committedEnd).isEqualTo(far + whole.length - headerEnd).isEqualTo(ch.size());
            assertThat(index.usage).containsEntry(A, Usage.of(5, 6));
        }
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A file larger than {@link SessionFile#PARALLEL_MIN_BYTES} is decoded in segments on several threads: the entries
     * come back in file order, and a damaged line deep inside is reported by its own line number.
     */
    @Test
    void load_fileDecodedInParallelSegments_keepsFileOrderAndNamesTheDamagedLine() throws IOException {
        JsonlMessageLog writer = log(SessionFile.CHUNK_BYTES);
        String text = "x".repeat(900);
        List<String> expected = new ArrayList<>();
        String parent = null;
        for (int b = 0; b < 30; b++) {
            List<NewEntry> batch = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                String id = "e" + b + "-" + i;
                batch.add(entry(id, parent, text));
                expected.add(id);
                parent = id;
            }
            writer.append(S, A, batch, Usage.of(1, 1));
        }
        assertThat(Files.size(writer.fileOf(S))).isGreaterThan(2L * SessionFile.PARALLEL_MIN_BYTES);

        assertThat(ids(log(4096).load(S, null))).isEqualTo(expected);
        assertThat(log(SessionFile.CHUNK_BYTES).loadUsage(S, A)).isEqualTo(Usage.of(30, 30));

        List<String> lines = new ArrayList<>(Files.readAllLines(writer.fileOf(S)));
        lines.set(2500, lines.get(2500).replace("\"seq\"", "\"seq\":\"x\",\"q\""));
        Files.write(writer.fileOf(S), lines);
        assertThatThrownBy(() -> log(SessionFile.CHUNK_BYTES).load(S, null))
                .isInstanceOf(dev.parley.core.CorruptRecordException.class)
                .hasMessageContaining(writer.fileOf(S) + ":2501");
    }

    // ---- issue 14, break 9: zero-byte temporary files after a full disk ----

    /** Issue 14, break 9: a full disk while setting a torn tail aside left an empty {@code .torn-} sidecar. */
    @Test
    void setAsideOnAFullDisk_leavesNoEmptySidecar() throws IOException {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);
        log.append(S, A, List.of(entry("a", null, "kept")));
        Files.writeString(log.fileOf(S), "{\"type\":\"entry\",\"seq\":2,\"id\":\"b\",\"paren", StandardOpenOption.APPEND);

        failingWrites(() -> assertThatThrownBy(() -> log.append(S, A, List.of(entry("c", "a", "next"))))
                .isInstanceOf(UnavailableException.class));

        assertThat(leftovers()).isEmpty();
        assertThat(ids(log(SessionFile.CHUNK_BYTES).load(S, null))).containsExactly("a");
    }

    /** Issue 14, break 9: a full disk while writing the catalog cache left an empty temporary cache file. */
    @Test
    void catalogCacheOnAFullDisk_leavesNoEmptyTemporaryFile() {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);
        log.append(S, A, List.of(entry("a", null, "kept")));
        assertThat(log.list(null, 10).sessions()).hasSize(1);

        failingWrites(log::close);

        assertThat(leftovers()).isEmpty();
        assertThat(Files.exists(dir.resolve(JsonlMessageLog.CACHE))).isFalse();
    }

    /** A full disk while creating a session's file leaves neither the file nor its temporary header file. */
    @Test
    void createOnAFullDisk_leavesNoEmptyTemporaryFile() {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);

        failingWrites(() -> assertThatThrownBy(() -> log.append(S, A, List.of(entry("a", null, "one"))))
                .isInstanceOf(UnavailableException.class));

        assertThat(leftovers()).isEmpty();
        assertThat(Files.exists(log.fileOf(S))).isFalse();
    }

    private void failingWrites(Runnable action) {
        AtomicFiles.failWriteOf = p -> p.startsWith(dir);
        try {
            action.run();
        } finally {
            AtomicFiles.failWriteOf = null;
        }
    }

    /** Files in the directory other than session files. */
    private List<String> leftovers() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(JsonlMessageLog.SUFFIX)).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ---- group commit ----

    /**
     * Issue 12: every operation of a log was serialized on the instance, so an append waiting for one session's lock
     * held up appends to every other session of the store. Here session A's lock is held while an append to A waits
     * for it; an append to B must complete meanwhile (before, it waited until A's append gave up after 10 s).
     */
    @Test
    void append_toOneSessionWhileAnotherSessionsAppendWaitsForItsLock_doesNotWait() throws Exception {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);
        SessionId a = new SessionId("session-a");
        SessionId b = new SessionId("session-b");
        log.append(a, A, List.of(entry("a1", null, "one")));
        log.append(b, A, List.of(entry("b1", null, "one")));
        java.util.concurrent.atomic.AtomicReference<Object> waiting = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.locks.ReentrantLock held = FileLocks.lockInJvm(log.fileOf(a));
        Thread blocked;
        try {
            blocked = new Thread(() -> {
                try {
                    waiting.set(log.append(a, A, List.of(entry("a2", "a1", "two")), Usage.ZERO));
                } catch (RuntimeException e) {
                    waiting.set(e);
                }
            });
            blocked.start();
            while (!held.hasQueuedThread(blocked)) {
                Thread.sleep(1);
            }

            AppendResult other = log.append(b, A, List.of(entry("b2", "b1", "two")), Usage.ZERO);

            assertThat(other.written()).isEqualTo(1);
            assertThat(waiting.get()).as("the append to A is still waiting").isNull();
        } finally {
            held.unlock();
        }
        blocked.join();
        assertThat(waiting.get()).isInstanceOf(AppendResult.class);
        assertThat(ids(log.load(a, null))).containsExactly("a1", "a2");
    }

    /**
     * Appends racing for one session are committed in groups; every valid batch is acknowledged and stored whole and
     * once, and a batch that fails its checks (its parent does not exist) fails alone.
     */
    @Test
    void append_concurrentBatchesToOneSession_eachStoredWholeAndAnInvalidOneFailsAlone() throws Exception {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);
        int threads = 8;
        int rounds = 25;
        ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            AgentId agent = new AgentId("agent-" + t);
            all.add(new Thread(() -> {
                try {
                    start.await();
                    String parent = null;
                    for (int r = 0; r < rounds; r++) {
                        if (r % 5 == 4) {
                            try {
                                log.append(S, agent, List.of(entry("bad-" + id + "-" + r, "missing", "x")), Usage.ZERO);
                                unexpected.add(new AssertionError("an invalid batch was accepted"));
                            } catch (InvalidInputException expected) {
                                // fails alone
                            }
                            continue;
                        }
                        String first = "t" + id + "-r" + r + "-a";
                        String second = "t" + id + "-r" + r + "-b";
                        log.append(S, agent, List.of(entry(first, parent, "one"), entry(second, first, "two")),
                                Usage.of(1, 0));
                        acknowledged.add(first);
                        acknowledged.add(second);
                        parent = second;
                    }
                } catch (Throwable e) {
                    unexpected.add(e);
                }
            }));
        }
        all.forEach(Thread::start);
        start.countDown();
        for (Thread t : all) {
            t.join();
        }

        assertThat(unexpected).isEmpty();
        List<Entry> stored = log(SessionFile.CHUNK_BYTES).load(S, null);
        assertThat(ids(stored)).containsExactlyInAnyOrderElementsOf(acknowledged);
        for (int i = 1; i < stored.size(); i++) {
            assertThat(stored.get(i).seq()).isGreaterThan(stored.get(i - 1).seq());
        }
        assertThat(log(SessionFile.CHUNK_BYTES).loadUsage(S, new AgentId("agent-3"))).isEqualTo(Usage.of(20, 0));
    }

    // ---- group commit: a group's failure, interrupts, sizes ----

    /** An append run on its own thread; its outcome (an AppendResult or the exception) and its interrupt flag after. */
    static final class Caller {
        final Thread thread;
        final java.util.concurrent.atomic.AtomicReference<Object> outcome =
                new java.util.concurrent.atomic.AtomicReference<>();
        volatile boolean interruptedAfter;

        Caller(JsonlMessageLog log, AgentId agent, List<NewEntry> batch) {
            thread = new Thread(() -> {
                try {
                    outcome.set(log.append(S, agent, batch, Usage.ZERO));
                } catch (RuntimeException e) {
                    outcome.set(e);
                }
                interruptedAfter = Thread.currentThread().isInterrupted();
            });
        }
    }

    /**
     * Queues appends to {@link #S} in order as one group: a first "blocker" append leads alone and is held at the
     * file's in-JVM lock while the others queue behind it; once released, the first of {@code callers} leads the rest.
     * {@code beforeRelease} runs with all of them queued.
     */
    static void runAsOneGroup(JsonlMessageLog log, List<Caller> callers, Runnable beforeRelease) throws Exception {
        java.util.concurrent.locks.ReentrantLock held = FileLocks.lockInJvm(log.fileOf(S));
        Caller blocker = new Caller(log, new AgentId("blocker"), List.of(entry("blocker-1", null, "b")));
        try {
            blocker.thread.start();
            while (!held.hasQueuedThread(blocker.thread)) {
                Thread.sleep(1);
            }
            for (Caller c : callers) {
                c.thread.start();
                while (c.thread.getState() != Thread.State.WAITING) {
                    assertThat(c.thread.isAlive()).as("a caller queued behind the blocker").isTrue();
                    Thread.sleep(1);
                }
            }
            beforeRelease.run();
        } finally {
            held.unlock();
        }
        blocker.thread.join();
        for (Caller c : callers) {
            c.thread.join();
        }
    }

    /**
     * Review of the group commit, fault 1: a batch and an identical retry of it in one group; the retry was judged
     * against the group's own unwritten entries and acknowledged before anything was written, then the group's
     * fdatasync failed and the file was cut back, yet the retry still returned success for an entry not on disk.
     */
    @Test
    void groupCommit_retryJudgedAgainstTheGroupWhoseSyncFails_isNotAcknowledged() throws Exception {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);
        log.append(S, A, List.of(entry("x0", null, "zero")));
        List<NewEntry> batch = List.of(entry("x", "x0", "one"));
        Caller first = new Caller(log, A, batch);
        Caller retry = new Caller(log, A, batch);
        JsonlMessageLog.failSyncOf = file -> true;
        try {
            runAsOneGroup(log, List.of(first, retry), () -> {});
        } finally {
            JsonlMessageLog.failSyncOf = null;
        }

        assertThat(first.outcome.get()).isInstanceOf(UnavailableException.class);
        assertThat(retry.outcome.get()).as("the retry's outcome").isInstanceOf(UnavailableException.class);
        assertThat(ids(log(SessionFile.CHUNK_BYTES).load(S, null))).containsExactly("x0");
        assertThat(ids(log.load(S, null))).containsExactly("x0");
    }

    /**
     * Review of the group commit, fault 2: an interrupted follower that became leader failed the whole group on its
     * own interrupt (the in-JVM lock's wait, or a channel closed by the interrupt). The other caller's batch must be
     * stored and acknowledged, each caller's outcome must match the file, and the interrupt is kept for its thread.
     */
    @Test
    void groupCommit_ledByAnInterruptedThread_storesAndAcknowledgesTheOthersBatch() throws Exception {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);
        log.append(S, A, List.of(entry("x0", null, "zero")));
        Caller interrupted = new Caller(log, new AgentId("interrupted"), List.of(entry("i1", null, "one")));
        Caller other = new Caller(log, new AgentId("other"), List.of(entry("o1", null, "one")));
        runAsOneGroup(log, List.of(interrupted, other), interrupted.thread::interrupt);

        assertThat(other.outcome.get()).as("the other caller's outcome").isInstanceOf(AppendResult.class);
        List<String> stored = ids(log(SessionFile.CHUNK_BYTES).load(S, null));
        assertThat(stored).contains("o1");
        if (interrupted.outcome.get() instanceof AppendResult) {
            assertThat(stored).contains("i1");
        } else {
            assertThat(stored).doesNotContain("i1");
        }
        assertThat(interrupted.interruptedAfter).as("the interrupt is kept").isTrue();
        assertThat(ids(log.load(S, null))).isEqualTo(stored);
    }

    /**
     * Runs, as one group, three appends to a session holding "x0": "s1", then "big" of {@code bigChars} characters,
     * then "s2", with {@code knob} set to {@code value} meanwhile; returns their outcomes in that order.
     */
    static List<Object> smallBigSmall(JsonlMessageLog log, int bigChars, java.util.function.LongUnaryOperator knob,
                                      long value) throws Exception {
        log.append(S, A, List.of(entry("x0", null, "zero")));
        List<Caller> callers = List.of(new Caller(log, new AgentId("small-1"), List.of(entry("s1", null, "one"))),
                new Caller(log, new AgentId("big"), List.of(entry("big", null, "x".repeat(bigChars)))),
                new Caller(log, new AgentId("small-2"), List.of(entry("s2", null, "two"))));
        long before = knob.applyAsLong(value);
        try {
            runAsOneGroup(log, callers, () -> {});
        } finally {
            knob.applyAsLong(before);
        }
        return callers.stream().map(c -> c.outcome.get()).toList();
    }

    /**
     * Review of the group commit, fault 3: a group whose lines together were too large for one write failed every
     * member with InvalidInputException. A batch too large fails alone; the small batches queued with it are stored.
     */
    @Test
    void groupCommit_withABatchTooLargeToWrite_failsOnlyThatBatch() throws Exception {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);

        List<Object> outcomes = smallBigSmall(log, 8000, limit -> {
            long before = JsonlMessageLog.maxWriteBytes;
            JsonlMessageLog.maxWriteBytes = limit;
            return before;
        }, 4096);

        assertThat(outcomes.get(0)).isInstanceOf(AppendResult.class);
        assertThat(outcomes.get(1)).isInstanceOf(InvalidInputException.class);
        assertThat(outcomes.get(2)).isInstanceOf(AppendResult.class);
        assertThat(ids(log(SessionFile.CHUNK_BYTES).load(S, null))).containsExactlyInAnyOrder("x0", "blocker-1", "s1",
                "s2");
    }

    /**
     * Review of the group commit, fault 3: a group is capped by its members' encoded bytes (it was capped by a guess of
     * 256 bytes an entry). A batch that does not fit waits for the next group, a batch over the cap is written alone,
     * and every batch is stored and acknowledged.
     */
    @Test
    void groupCommit_overTheCapByEncodedBytes_leavesTheRestQueuedForTheNextGroup() throws Exception {
        JsonlMessageLog log = log(SessionFile.CHUNK_BYTES);

        List<Object> outcomes = smallBigSmall(log, 5000, cap -> {
            long before = JsonlMessageLog.maxGroupBytes;
            JsonlMessageLog.maxGroupBytes = cap;
            return before;
        }, 2000);

        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(AppendResult.class));
        assertThat(ids(log(SessionFile.CHUNK_BYTES).load(S, null))).containsExactly("x0", "blocker-1", "s1", "big",
                "s2");
        assertThat(ids(log.load(S, null))).containsExactly("x0", "blocker-1", "s1", "big", "s2");
    }
}
