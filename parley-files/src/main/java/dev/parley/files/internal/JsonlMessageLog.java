package dev.parley.files.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.IoErrors;
import dev.parley.core.NotFoundException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.LogWindows;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The message log and catalog of one scope of a {@code jsonl:} store, as a directory of JSONL files, one per session:
 * {@code <session-id>.jsonl} (the layout is described on {@link SessionFile}; where the directory is, on
 * {@link StoreLayout}). panto's {@code FSJSONLStore}, made safe:
 * <ul>
 *   <li>the file is created with its header in place (written to a temporary file and linked into place), never
 *       empty, and of two creators exactly one wins;</li>
 *   <li>every append — its entries and its usage — is written whole in one write followed by {@code fdatasync}
 *       (shared with the appends that arrived with it), and returns only after it; the usage line ends the batch, so
 *       a crash keeps both or neither;</li>
 *   <li>each write holds an exclusive lock on the file (shared for reads), across threads and processes, and works
 *       on the file the path names once the lock is granted (its identity is checked; a file replaced or deleted
 *       meanwhile is let go and the operation starts over); no descriptor of a locked file is closed while the lock
 *       is held, since that would drop it;</li>
 *   <li>an append is checked against the stored entries under that lock ({@link AppendCheck}): a retried batch is
 *       recognised and writes nothing, so two processes retrying one batch cannot both write it;</li>
 *   <li>a torn tail (an append a crash cut short) is ignored when reading and, on the next write, set aside
 *       into {@code <file>.torn-<millis>} with a warning, so the next append starts on a fresh line;</li>
 *   <li>a damaged complete line makes the read fail, naming the file and line;</li>
 *   <li>an append writes only new lines: its cost does not grow with the session (an in-memory index, refreshed
 *       incrementally from what other writers appended, answers the id and parent checks and locates a stored
 *       entry for a retry).</li>
 * </ul>
 * Truncation rewrites the file into a temporary one that replaces it atomically: the kept lines (an entry cut from
 * the middle of a batch ends it), a marker with the highest seq ever assigned so that seqs are never reused, and the
 * usage records written after the cut.
 *
 * <p>The catalog reads session headers; {@code .parley-catalog-cache.json} in the directory caches them keyed by file
 * identity, size, and modification and status-change times. It is derived data: delete it at will, it is rebuilt.
 *
 * <p>Appends that arrive together for one session are committed together: the first caller writes the lines of every
 * append queued behind it in one write and one {@code fdatasync}, each append checked on its own (one that fails its
 * checks fails alone), and each caller returns once that sync is done. A lone caller writes at once. Sessions do not
 * wait for one another: each file has its own locks.
 *
 * <p>The directory is created by the first write, so that merely reading a scope leaves nothing behind. Thread-safe:
 * operations on one session file are serialized by its lock; operations on different files run in parallel. Not API:
 * reached through {@link dev.parley.files.JsonlStore}.
 */
public final class JsonlMessageLog implements MessageLog, SessionCatalog {
    private static final System.Logger LOG = System.getLogger(JsonlMessageLog.class.getName());
    /** The suffix of session files. */
    public static final String SUFFIX = ".jsonl";
    /**
     * The suffix of a session's tombstone ({@code <id>.jsonl.deleted}): one line, {@code {"type":"deleted","id":…,
     * "highWater":N}}, the highest seq a deleted session of that id was given, so that a session created again under
     * the id continues above it.
     */
    static final String TOMBSTONE_SUFFIX = SUFFIX + ".deleted";
    static final String CACHE = ".parley-catalog-cache.json";
    /** The cache file's format: 2 keys entries by {@link #stamp}; a cache of another version is ignored. */
    static final int CACHE_VERSION = 2;

    /** The most session files a log keeps open between operations. */
    static final int MAX_OPEN_FILES = 256;
    /** The most bytes one group commit writes; a single larger batch is written alone. */
    static final int MAX_GROUP_BYTES = 8 << 20;
    /** {@link #MAX_GROUP_BYTES}, lowered in tests. */
    static volatile long maxGroupBytes = MAX_GROUP_BYTES;
    /** The most bytes one append may write; a larger one fails alone. Lowered in tests. */
    static volatile long maxWriteBytes = Integer.MAX_VALUE - 16;
    /**
     * For tests: the session files whose group write is to fail at the {@code fdatasync}, as a failing disk fails it
     * ({@code null}: none).
     */
    static volatile java.util.function.@Nullable Predicate<Path> failSyncOf;

    private final Path dir;
    private final StoreOptions options;
    private final int chunkBytes;
    private final Stamper stamper;
    /**
     * The index of each session file this instance has read. An index is read and changed only under its file's
     * in-JVM lock ({@link FileLocks}), which every operation on the file holds.
     */
    private final Map<SessionId, SessionFile.Index> indexes = new ConcurrentHashMap<>();
    /** The descriptors kept open between operations, at most {@link #MAX_OPEN_FILES} (then the least used close). */
    private final Map<SessionId, Handle> handles = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong uses = new java.util.concurrent.atomic.AtomicLong();
    /** The appends waiting for each session's file: the group commit. */
    private final Map<SessionId, WriteQueue> queues = new ConcurrentHashMap<>();
    /** Guards {@link #catalog} and {@link #catalogDirty}. */
    private final Object catalogLock = new Object();
    /** The catalog views as last read by this instance (from the cache file, then kept current). */
    private @Nullable Map<SessionId, Cached> catalog;
    /** Whether {@link #catalog} differs from the cache file; it is written when the store is closed. */
    private boolean catalogDirty;
    private volatile boolean released;

    /** Sets a file's modification time: {@link Files#setLastModifiedTime}, replaced in tests to make it fail. */
    interface Stamper {
        void stamp(Path file, FileTime time) throws IOException;
    }

    /**
     * The log of the sessions in {@code dir}, an absolute directory that need not exist yet.
     *
     * @param options the clock that stamps sessions
     */
    public JsonlMessageLog(Path dir, StoreOptions options) {
        this(dir, options, SessionFile.CHUNK_BYTES, JsonlMessageLog::stampTimes);
    }

    /**
     * For tests: files read in blocks of {@code chunkBytes}, and modification times set by {@code stamper}.
     */
    JsonlMessageLog(Path dir, StoreOptions options, int chunkBytes, Stamper stamper) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.options = Objects.requireNonNull(options, "options");
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunkBytes must be positive");
        }
        this.chunkBytes = chunkBytes;
        this.stamper = Objects.requireNonNull(stamper, "stamper");
    }

    /** The directory of this log's session files. */
    public Path directory() {
        return dir;
    }

    /** The file of a session (which may not exist). */
    public Path fileOf(SessionId session) {
        return dir.resolve(session.value() + SUFFIX);
    }

    // ---- writes ----

    @Override
    public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage, false, null);
    }

    @Override
    public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                     List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage, true, expectedLast);
    }

    /** One caller's append, waiting in its session's queue until a group that holds it is durable. */
    private static final class Pending {
        final AgentId agent;
        final List<NewEntry> entries;
        final Usage usage;
        final boolean conditional;
        final @Nullable EntryId expectedLast;
        final Condition turn;
        /** Set by the leader that wrote (or refused) this append, under the queue's lock. */
        boolean done;
        @Nullable AppendResult result;
        @Nullable RuntimeException error;
        /** While its group is written: the plan, the lines and the entries they hold. */
        AppendCheck.@Nullable Plan plan;
        final List<byte[]> lines = new ArrayList<>();
        final List<Entry> written = new ArrayList<>();
        long bytes;
        /** Judged against entries of its group that were not yet stored: void if the group's write fails. */
        boolean dependent;
        /** Left out of its group (which was full): still queued for the next group. */
        boolean deferred;

        Pending(AgentId agent, List<NewEntry> entries, Usage usage, boolean conditional, @Nullable EntryId expectedLast,
                Condition turn) {
            this.agent = agent;
            this.entries = entries;
            this.usage = usage;
            this.conditional = conditional;
            this.expectedLast = expectedLast;
            this.turn = turn;
        }

        AppendResult answer() {
            if (error != null) {
                throw error;
            }
            return Objects.requireNonNull(result, "result");
        }
    }

    /** The appends waiting for one session's file; the first is the leader, which writes a group for all. */
    private static final class WriteQueue {
        final ReentrantLock lock = new ReentrantLock();
        final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    }

    /**
     * Group commit: the caller joins its session's queue; the caller at its head leads, taking every append queued
     * behind it (up to {@link #MAX_GROUP_BYTES}), checking each on its own against the stored entries and those
     * before it in the group, writing all that passed in one write and one {@code fdatasync}, and answering each. A
     * lone caller leads at once: nothing waits for company.
     */
    private AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage,
                                boolean conditional, @Nullable EntryId expectedLast) {
        ensureOpen();
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(usage, "usage");
        List<NewEntry> entries = List.copyOf(batch);
        if (!indexes.containsKey(session) && !Files.exists(fileOf(session))) {
            // A batch that fails its check must not even create the session: check it against no stored entries first.
            AppendCheck.plan(session, agent, entries, Map.of());
            if (conditional) {
                AppendCheck.requireLast(session, agent, expectedLast, null);
            }
        }
        WriteQueue queue = queues.computeIfAbsent(session, s -> new WriteQueue());
        Pending me;
        List<Pending> group = new ArrayList<>();
        queue.lock.lock();
        try {
            me = new Pending(agent, entries, usage, conditional, expectedLast, queue.lock.newCondition());
            queue.waiting.addLast(me);
            while (!me.done && queue.waiting.peekFirst() != me) {
                me.turn.awaitUninterruptibly();
            }
            if (me.done) {
                return me.answer();
            }
            group.addAll(queue.waiting); // capped by the lines' actual size once encoded; the rest stays queued
        } finally {
            queue.lock.unlock();
        }
        // The group is everyone's: this thread's interrupt (kept by the uninterruptible wait) must not fail the others'
        // appends, nor close the shared descriptor mid-write. It is restored once the group is answered.
        boolean interrupted = Thread.interrupted();
        for (Pending p : group) {
            p.deferred = false; // a member left out of an earlier group is this group's now
        }
        RuntimeException failure = null;
        try {
            writeGroup(session, group);
        } catch (RuntimeException e) {
            failure = e;
        } catch (Error e) {
            failure = new UnavailableException("cannot write " + fileOf(session) + ": " + e, e);
        }
        queue.lock.lock();
        try {
            for (Pending p : group) {
                if (p.deferred) {
                    continue; // left out of this group: it stays queued for the next
                }
                queue.waiting.remove(p);
                if (p.result == null && p.error == null) {
                    p.error = failure != null ? failure
                            : new IllegalStateException("an append of a group was left unanswered");
                }
                p.done = true;
                p.turn.signal();
            }
            Pending next = queue.waiting.peekFirst();
            if (next != null) {
                next.turn.signal();
            } else {
                // Forget an idle queue. A caller that took it from the map just before still leads it alone; it may
                // then run beside a leader of a new queue, and the file's own lock serializes the two.
                queues.remove(session, queue);
            }
        } finally {
            queue.lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return me.answer();
    }

    /**
     * Writes one group under the file's exclusive lock: each append is checked and encoded in turn (one that fails its
     * checks is answered with its error and writes nothing; the others go on), then every line of those that passed
     * is written at the committed end by gathering writes of the lines themselves and made durable by one
     * {@code fdatasync}; the index learns the new lines from what was written, without reading them back. The group
     * holds appends up to {@link #maxGroupBytes} of encoded lines (a single larger one alone); those that do not fit
     * are marked deferred and stay queued. If the write or the sync fails, the file is cut back to where it ended (so
     * no batch of a failed group can surface later), the index is dropped, and every append whose outcome was judged
     * against the group's entries, as well as every one written, fails with it.
     */
    private void writeGroup(SessionId session, List<Pending> group) {
        write(session, Mode.APPEND, null, (channel, index, op) -> {
            Map<EntryId, Entry> inGroup = new HashMap<>();
            Map<AgentId, Entry> lastInGroup = new HashMap<>();
            List<Pending> toWrite = new ArrayList<>(group.size());
            long seq = seqFloor(session, index);
            long groupBytes = 0;
            boolean full = false;
            for (Pending p : group) {
                p.plan = null;
                p.lines.clear();
                p.written.clear();
                p.bytes = 0;
                p.result = null;
                p.error = null;
                p.dependent = false;
                p.deferred = false;
            }
            try {
                for (Pending p : group) {
                    if (full) {
                        p.deferred = true;
                        continue;
                    }
                    p.dependent = !inGroup.isEmpty();
                    try {
                        // The batch's own ids are read back (a retry is compared with them); a parent only needs
                        // to be stored.
                        Set<EntryId> own = new HashSet<>();
                        p.entries.forEach(e -> own.add(e.id()));
                        Set<EntryId> storedIds = new HashSet<>();
                        for (EntryId id : AppendCheck.idsToLookUp(p.entries)) {
                            if (inGroup.containsKey(id) || index.spans.containsKey(id)) {
                                storedIds.add(id);
                            }
                        }
                        AppendCheck.Plan plan = AppendCheck.planWithStoredIds(session, p.agent, p.entries,
                                stored(session, channel, index, inGroup, own), storedIds);
                        if (plan.nothingToWrite() && !p.entries.isEmpty()) {
                            // A retry: every entry is stored, and so was its usage.
                            p.result = plan.result(List.of());
                            continue;
                        }
                        if (p.conditional) {
                            // Under the file's exclusive lock, with the index up to date and the group's earlier
                            // appends counted: nobody appends in between.
                            Entry last = lastInGroup.containsKey(p.agent) ? lastInGroup.get(p.agent)
                                    : index.lastByAgent.get(p.agent);
                            AppendCheck.requireLast(session, p.agent, p.expectedLast, last == null ? null : last.id());
                        }
                        boolean withUsage = !p.usage.equals(Usage.ZERO);
                        long next = seq;
                        List<NewEntry> news = plan.toWrite();
                        for (int i = 0; i < news.size(); i++) {
                            NewEntry e = news.get(i);
                            Entry entry = new Entry(++next, e.id(), e.parentId(), p.agent, e.timestamp(), e.payload(),
                                    e.source());
                            byte[] line = SessionFile.entryLine(entry, withUsage || i < news.size() - 1);
                            p.lines.add(line);
                            p.bytes += line.length;
                            p.written.add(entry);
                        }
                        if (withUsage) {
                            byte[] line = SessionFile.usageLine(p.agent, p.usage);
                            p.lines.add(line);
                            p.bytes += line.length;
                        }
                        if (p.bytes > maxWriteBytes) {
                            throw new InvalidInputException("an append of " + p.bytes
                                    + " bytes is too large for one write");
                        }
                        if (!toWrite.isEmpty() && groupBytes + p.bytes > maxGroupBytes) {
                            // The group is full: this append and those behind it wait for the next group.
                            p.lines.clear();
                            p.written.clear();
                            p.deferred = true;
                            full = true;
                            continue;
                        }
                        p.plan = plan;
                        if (p.lines.isEmpty()) {
                            // Nothing at all to write: an empty batch without usage.
                            p.result = plan.result(List.of());
                            continue;
                        }
                        seq = next;
                        groupBytes += p.bytes;
                        for (Entry e : p.written) {
                            inGroup.put(e.id(), e);
                            lastInGroup.put(p.agent, e);
                        }
                        toWrite.add(p);
                    } catch (RuntimeException e) {
                        p.error = e;
                        p.lines.clear();
                        p.written.clear();
                    }
                }
                if (!toWrite.isEmpty()) {
                    appendGroup(session, channel, index, toWrite, op);
                    for (Pending p : toWrite) {
                        p.result = Objects.requireNonNull(p.plan).result(List.copyOf(p.written));
                    }
                }
            } catch (IOException | RuntimeException | Error e) {
                // Nothing of the group is stored: an outcome judged against its entries (a retry recognised, a
                // conflict, a moved last entry) is void, and every such append fails with the group. (A real retry
                // failing is harmless: retrying it again is idempotent.)
                for (Pending p : group) {
                    if (!p.deferred && (p.dependent || toWrite.contains(p))) {
                        p.result = null;
                        p.error = null;
                    }
                }
                throw e;
            }
            return null;
        });
    }

    /** Writes the lines of {@code group} in one write and one {@code fdatasync}, then records them in the index. */
    private void appendGroup(SessionId session, FileChannel channel, SessionFile.Index index, List<Pending> group, Op op)
            throws IOException {
        long base = index.committedEnd;
        boolean newlineFirst = index.unterminated; // a last record whose newline was removed: end it first
        int count = newlineFirst ? 1 : 0;
        for (Pending p : group) {
            count += p.lines.size();
        }
        // A gathering write of the lines themselves: no combined copy.
        ByteBuffer[] buffers = new ByteBuffer[count];
        int k0 = 0;
        if (newlineFirst) {
            buffers[k0++] = ByteBuffer.wrap(new byte[] {'\n'});
        }
        for (Pending p : group) {
            for (byte[] line : p.lines) {
                buffers[k0++] = ByteBuffer.wrap(line);
            }
        }
        op.changed = true;
        try {
            writeFully(channel, buffers, base);
            java.util.function.Predicate<Path> failSync = failSyncOf;
            if (failSync != null && failSync.test(fileOf(session))) {
                throw new IOException("Input/output error (simulated fdatasync failure of " + fileOf(session) + ")");
            }
            channel.force(false);
        } catch (IOException | RuntimeException e) {
            // Reported as failed: cut the file back so that no line of this group surfaces later, and read it afresh.
            indexes.remove(session);
            try {
                channel.truncate(base);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        long at = base;
        if (newlineFirst) {
            at++;
            index.unterminated = false;
        }
        long line = index.committedLines;
        long lastStart = at;
        byte[] lastLine = index.lastLine;
        for (Pending p : group) {
            int k = 0;
            for (byte[] bytes : p.lines) {
                line++;
                if (k < p.written.size()) {
                    // Checked by the plan already: the location is never named.
                    SessionFile.commitEntry(index, p.written.get(k), new SessionFile.Span(at, bytes.length - 1, line),
                            "the append to " + session);
                } else {
                    index.usage.merge(p.agent, p.usage, Usage::plus);
                }
                k++;
                lastStart = at;
                lastLine = bytes;
                at += bytes.length;
            }
        }
        index.committedEnd = at;
        index.examined = at;
        index.committedLines = line;
        index.lastLineStart = lastStart;
        index.lastLine = lastLine;
    }

    /**
     * The stored entries among {@code ids}, by id: those written earlier in the same group, the agents' latest entries
     * from the index, the others read back from their lines (only a retry costs a read).
     */
    private Map<EntryId, Entry> stored(SessionId session, FileChannel channel, SessionFile.Index index,
                                       Map<EntryId, Entry> inGroup, Set<EntryId> ids) throws IOException {
        Map<EntryId, Entry> out = new HashMap<>();
        for (EntryId id : ids) {
            Entry pending = inGroup.get(id);
            if (pending != null) {
                out.put(id, pending);
                continue;
            }
            SessionFile.Span span = index.spans.get(id);
            if (span == null) {
                continue;
            }
            Entry known = null;
            for (Entry last : index.lastByAgent.values()) {
                if (last.id().equals(id)) {
                    known = last;
                }
            }
            out.put(id, known != null ? known : SessionFile.readEntry(fileOf(session), channel, span, id));
        }
        return out;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The file is rewritten — the kept lines, a truncate marker carrying the highest seq ever assigned, the usage
     * records written after the cut — into a temporary file that replaces it atomically: a crash leaves the old file
     * or the new one, never a half-cut one. An entry cut out of the middle of a batch ends the batch. Other instances
     * and processes see that the path names a new file and read it afresh.
     */
    @Override
    public void truncateAfter(SessionId session, EntryId entry) {
        ensureOpen();
        Path file = fileOf(session);
        write(session, Mode.EXISTING, null, (channel, index, op) -> {
            if (!index.spans.containsKey(entry)) {
                throw new NotFoundException("no entry " + entry + " in session " + session);
            }
            boolean[] cut = {false};
            long highWater = seqFloor(session, index);
            replace(file, out -> {
                OutputStream stream = new BufferedOutputStream(Channels.newOutputStream(out), 1 << 16);
                long[] number = {0};
                SessionFile.lines(channel, 0, index.committedEnd, chunkBytes, (bytes, offset, length, start, terminated) -> {
                    number[0]++;
                    String location = file + ":" + number[0];
                    JsonNode record = SessionFile.parse(bytes, offset, length, location);
                    String type = record.path("type").asText();
                    if (!cut[0]) {
                        if ("entry".equals(type) && entry.value().equals(record.path("id").asText())) {
                            ObjectNode ended = (ObjectNode) record;
                            ended.remove("more");
                            stream.write(Json.write(ended).getBytes(StandardCharsets.UTF_8));
                            stream.write('\n');
                            stream.write(SessionFile.truncateLine(entry, highWater));
                            cut[0] = true;
                        } else {
                            stream.write(bytes, offset, length);
                            stream.write('\n');
                        }
                    } else if ("usage".equals(type)) {
                        // Usage totals never decrease: the usage records written after the cut stay.
                        stream.write(bytes, offset, length);
                        stream.write('\n');
                    }
                });
                stream.flush();
                if (!cut[0]) {
                    throw new NotFoundException("no entry " + entry + " in session " + session);
                }
            });
            op.changed = true;
            indexes.remove(session);
            handles.remove(session); // of the replaced file: closed once the lock is released
            return null;
        });
    }

    /**
     * Replaces {@code file} durably with what {@code body} writes: a temporary file (removed if anything fails), fsync,
     * an atomic rename, the directory.
     */
    private void replace(Path file, AtomicFiles.Body body) throws IOException {
        Path tmp = AtomicFiles.temporaryBeside(file);
        try {
            AtomicFiles.writeNew(tmp, body, true);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            syncDirectory();
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    // ---- reads ----

    /**
     * {@inheritDoc}
     *
     * <p>The file is streamed in blocks (memory holds the entries, one block and the longest line), so a session file
     * of any size reads back.
     */
    @Override
    public List<Entry> load(SessionId session, @Nullable AgentId agent) {
        ensureOpen();
        List<Entry> all = read(session, (channel, size) -> {
            SessionFile.Index fresh = new SessionFile.Index();
            List<Entry> entries = new ArrayList<>();
            SessionFile.scan(fileOf(session), session, channel, size, fresh, entries, chunkBytes);
            warnTorn(session, fresh, size);
            indexes.put(session, fresh);
            return entries;
        }, List.of());
        if (agent == null) {
            return all;
        }
        List<Entry> mine = new ArrayList<>();
        for (Entry e : all) {
            if (e.agentId().equals(agent)) {
                mine.add(e);
            }
        }
        return mine;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads only the window's lines, found through the session's index (brought up to date first, reading what
     * was appended since): a reader paging through a long session, or an event stream catching up, does not read the
     * file over again for each window.
     */
    @Override
    public List<Entry> loadAfter(SessionId session, long afterSeq, int limit) {
        LogWindows.check(afterSeq, limit);
        ensureOpen();
        return read(session, (channel, size) -> {
            SessionFile.Index index = refresh(session, channel, size);
            long[] seqs = index.seqs;
            int count = index.order.size();
            int low = LogWindows.firstAfter(count, i -> seqs[i], afterSeq);
            int end = (int) Math.min(count, (long) low + limit);
            List<Entry> window = new ArrayList<>(end - low);
            for (int i = low; i < end; i++) {
                window.add(SessionFile.readEntry(fileOf(session), channel, index.order.get(i), seqs[i]));
            }
            return List.copyOf(window);
        }, List.of());
    }

    @Override
    public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        ensureOpen();
        return read(session, (channel, size) -> Optional.ofNullable(refresh(session, channel, size).lastByAgent.get(agent)),
                Optional.empty());
    }

    @Override
    public Usage loadUsage(SessionId session, AgentId agent) {
        ensureOpen();
        return read(session, (channel, size) -> refresh(session, channel, size).usage.getOrDefault(agent, Usage.ZERO),
                Usage.ZERO);
    }

    /**
     * Writes the catalog cache if it changed; the log stays usable (it belongs to its store, which
     * {@linkplain #release() releases} it, closing the session files it keeps open).
     */
    @Override
    public void close() {
        synchronized (catalogLock) {
            writeCache();
        }
    }

    /** Writes the catalog cache and refuses every later operation: the store was closed. Idempotent. */
    public void release() {
        synchronized (catalogLock) {
            if (!released) {
                writeCache();
                released = true;
            }
        }
        closeAll();
    }

    private void ensureOpen() {
        if (released) {
            throw new UnavailableException("the store of " + dir + " is closed", null);
        }
    }

    // ---- catalog ----

    @Override
    public SessionInfo create(NewSession session) {
        ensureOpen();
        write(session.id(), Mode.CREATE, session, (channel, index, op) -> null);
        return find(session.id()).orElseThrow();
    }

    @Override
    public Optional<SessionInfo> find(SessionId session) {
        ensureOpen();
        Path file = fileOf(session);
        return read(session, (channel, size) -> {
            SessionFile.Index index = refresh(session, channel, size);
            return index.header == null ? Optional.<SessionInfo>empty()
                    : Optional.of(SessionFile.info(index, modified(file)));
        }, Optional.empty());
    }

    @Override
    public SessionPage list(@Nullable String cursor, int limit) {
        ensureOpen();
        CatalogCursor.checkLimit(limit);
        CatalogCursor.decode(cursor);
        List<SessionInfo> all = new ArrayList<>(allSessions());
        all.sort(CatalogCursor.ORDER);
        return CatalogCursor.page(all, cursor, limit);
    }

    @Override
    public List<SessionInfo> findByOrigin(String origin) {
        ensureOpen();
        return allSessions().stream().filter(i -> origin.equals(i.origin()))
                .sorted(java.util.Comparator.comparing(SessionInfo::createdAt).thenComparing(SessionInfo::id))
                .toList();
    }

    @Override
    public List<SessionId> findByPrefix(String prefix, int max) {
        ensureOpen();
        if (max < 1) {
            throw new InvalidInputException("max must be positive");
        }
        return sessionFiles().stream().filter(id -> id.value().startsWith(prefix)).sorted().limit(max).toList();
    }

    @Override
    public boolean delete(SessionId session) {
        ensureOpen();
        return delete(session, true);
    }

    /** @param keepSeqs whether to write the tombstone (not for a scope's deletion, whose seqs start over) */
    private boolean delete(SessionId session, boolean keepSeqs) {
        Path file = fileOf(session);
        if (!Files.exists(file)) {
            return false;
        }
        try {
            Boolean existed = locked(session, false, true, (channel, size) -> {
                if (keepSeqs) {
                    writeTombstone(session, channel, size);
                }
                Files.delete(file);
                syncDirectory();
                indexes.remove(session);
                handles.remove(session); // closed once the lock is released
                return true;
            }, null);
            if (existed == null) {
                return false;
            }
            // Only this session's own sidecars: another session's id may start with this one's file name.
            java.util.regex.Pattern sidecar = java.util.regex.Pattern.compile(
                    java.util.regex.Pattern.quote(session.value() + SUFFIX) + "\\.torn-\\d+(-\\d+)?");
            try (Stream<Path> sidecars = Files.list(dir)) {
                for (Path p : sidecars.filter(p -> sidecar.matcher(p.getFileName().toString()).matches()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
            syncDirectory();
            return existed;
        } catch (IOException e) {
            throw new UnavailableException("cannot delete " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * Writes the session's tombstone, durably, before its file goes (under the file's exclusive lock): the highest seq
     * handed out, so that a session of this id created again is given none of its seqs. A damaged session (or
     * tombstone) is deleted all the same: its bound is the highest seq its readable lines name, plus one for each line
     * (a damaged line holds at most one seq more), and the highest the index of this process had read.
     */
    private void writeTombstone(SessionId session, FileChannel channel, long size) throws IOException {
        Path tombstone = tombstoneOf(session);
        SessionFile.Index cached = indexes.get(session);
        long inFile;
        try {
            inFile = refresh(session, channel, size).highWater;
        } catch (CorruptRecordException e) {
            inFile = Math.max(cached == null ? 0 : cached.highWater, SessionFile.seqBound(channel, size, chunkBytes));
        }
        long before;
        try {
            before = readTombstone(session);
        } catch (CorruptRecordException e) {
            before = SessionFile.highestSeqNamed(Files.readAllBytes(tombstone));
        }
        long highWater = Math.max(inFile, before);
        if (highWater > 0) {
            AtomicFiles.write(tombstone, SessionFile.tombstoneLine(session, highWater));
        } else {
            Files.deleteIfExists(tombstone);
        }
    }

    /**
     * Deletes every session of this log with its set-aside tails, and the catalog cache: the log's part of
     * {@link dev.parley.core.store.Store#deleteScope()}. Other files in the directory are left alone. The scope's
     * sessions are gone with their tombstones: a session created in it again starts its seqs over.
     *
     * @throws UnavailableException if a file cannot be deleted; what was deleted stays deleted
     */
    public void deleteAll() {
        ensureOpen();
        List<SessionId> all = new ArrayList<>();
        List<Path> tombstones = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                String id = name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : "";
                if (Ids.isValid(id)) {
                    all.add(new SessionId(id));
                } else if (name.endsWith(TOMBSTONE_SUFFIX)) {
                    tombstones.add(p);
                }
            }
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UnavailableException("cannot list " + dir + ": " + IoErrors.describe(e), e);
        }
        all.forEach(session -> delete(session, false)); // writes no tombstone
        // A deleted scope leaves no trace of its sessions, their tombstones included: a session created in it again
        // starts its seqs over.
        try {
            for (Path p : tombstones) {
                Files.deleteIfExists(p);
            }
            syncDirectory();
        } catch (IOException e) {
            throw new UnavailableException("cannot delete the tombstones in " + dir + ": " + IoErrors.describe(e), e);
        }
        synchronized (catalogLock) {
            try {
                Files.deleteIfExists(dir.resolve(CACHE));
            } catch (IOException e) {
                throw new UnavailableException("cannot delete " + dir.resolve(CACHE) + ": " + IoErrors.describe(e), e);
            }
            catalog = null;
            catalogDirty = false;
        }
    }

    // ---- internals ----

    /** What one write did, for what follows it once the lock is released. */
    private static final class Op {
        /** Whether the file changed (then its modification time is stamped). */
        boolean changed;
    }

    private interface WriteWork<T> {
        T run(FileChannel channel, SessionFile.Index index, Op op) throws IOException;
    }

    private interface ReadWork<T> {
        T run(FileChannel channel, long size) throws IOException;
    }

    /** What a write may do when the session's file does not exist. */
    private enum Mode {
        /** Create the file (with a default header) and go on: appends. */
        APPEND,
        /** Create the file with the given header; fail if the session already has one: catalog create. */
        CREATE,
        /** Fail with {@link NotFoundException}: truncation. */
        EXISTING
    }

    /**
     * Runs a write under the file's exclusive lock, on the file the path names when the lock is granted; creates the
     * file first if there is none (see {@link Mode}) and sets a torn tail aside.
     */
    private <T> T write(SessionId session, Mode mode, @Nullable NewSession create, WriteWork<T> work) {
        Path file = fileOf(session);
        Op op = new Op();
        try {
            for (int attempt = 0; ; attempt++) {
                if (mode == Mode.CREATE && attempt == 0 && Files.exists(file) && hasHeader(session)) {
                    throw new AlreadyExistsException("session " + session + " already exists");
                }
                Holder<T> done;
                try {
                    done = locked(session, false, true, (channel, size) -> {
                        SessionFile.Index index = refresh(session, channel, size);
                        if (index.hasTornTail(size)) {
                            setAside(session, channel, index, size, op);
                        }
                        if (index.header == null) {
                            // A file from before headers were written at creation: give it one now.
                            NewSession s = create != null ? create : NewSession.of(session);
                            appendDurably(session, channel, index, SessionFile.headerLine(new SessionFile.Header(
                                    session, s.createdAtOr(options.clock().instant()), s.title(), s.origin(),
                                    s.metadata())), op);
                        }
                        return new Holder<>(work.run(channel, index, op));
                        // Stamping the time opens and closes another descriptor of the file: only after the lock's
                        // release. A write that changed nothing (a recognised retry) leaves the activity time alone.
                    }, () -> {
                        if (op.changed) {
                            touch(session);
                        }
                    });
                } catch (NoSuchFileException e) {
                    // No file (or it was deleted between the look and the lock): create it, then start over.
                    if (mode == Mode.EXISTING) {
                        throw new NotFoundException("no session " + session);
                    }
                    boolean created = createFile(session, create != null ? create : NewSession.of(session));
                    op.changed |= created;
                    if (mode == Mode.CREATE && !created) {
                        throw new AlreadyExistsException("session " + session + " already exists");
                    }
                    done = null;
                }
                if (done != null) {
                    return done.value();
                }
                if (attempt >= 50) {
                    throw new UnavailableException(file + " keeps being replaced or deleted; could not write to it", null);
                }
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot write " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /** A result, so that a null result is told from "the file was replaced: try again". */
    private record Holder<T>(T value) {}

    private boolean hasHeader(SessionId session) {
        return read(session, (channel, size) -> refresh(session, channel, size).header != null, false);
    }

    /**
     * Creates the session's file with its header, if no file is there: the header is written and fsynced into a
     * temporary file that is then linked into place, so a session file is never seen without its header, and of two
     * creators exactly one wins.
     */
    private boolean createFile(SessionId session, NewSession s) throws IOException {
        Path file = fileOf(session);
        byte[] header = SessionFile.headerLine(new SessionFile.Header(session, s.createdAtOr(options.clock().instant()),
                s.title(), s.origin(), s.metadata()));
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            AtomicFiles.syncDirectory(dir.getParent());
        }
        Path tmp = AtomicFiles.temporaryBeside(file);
        try {
            AtomicFiles.writeNew(tmp, header, true);
            try {
                Files.createLink(file, tmp);
                syncDirectory();
                return true;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                return false; // another writer created it first: use theirs
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private <T> T read(SessionId session, ReadWork<T> work, T absent) {
        Path file = fileOf(session);
        try {
            for (int attempt = 0; attempt < 50; attempt++) {
                Holder<T> done = locked(session, true, false, (channel, size) -> new Holder<>(work.run(channel, size)),
                        null);
                if (done != null) {
                    return done.value();
                }
                if (!Files.exists(file)) {
                    return absent;
                }
            }
            throw new UnavailableException(file + " keeps being replaced; could not read it", null);
        } catch (NoSuchFileException e) {
            return absent;
        } catch (IOException e) {
            throw new UnavailableException("cannot read " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /** Work under a file lock. */
    private interface LockedWork<T> {
        /** @param size the file's size, read with its identity once the lock was granted */
        T run(FileChannel channel, long size) throws IOException;
    }

    /**
     * An open descriptor of a session file, kept between operations so that an operation costs no open and close. It
     * is used, opened and closed only under its path's in-JVM lock ({@link FileLocks}): closing a descriptor drops
     * every POSIX lock the process holds on the file, and under that lock no thread of this JVM holds one. While it is
     * open, the file's inode cannot be reused, so the identity read when it was opened names it exactly.
     */
    private static final class Handle {
        final FileChannel channel;
        final Object identity;
        final boolean writable;
        volatile long lastUse;

        Handle(FileChannel channel, Object identity, boolean writable) {
            this.channel = channel;
            this.identity = identity;
            this.writable = writable;
        }
    }

    /**
     * Runs {@code work} holding the lock of the file the session's path names, or returns null when that file was
     * replaced or deleted (the caller tries again). The descriptor is the one kept open for the session, or a new one;
     * the identity the path names once the lock is granted must be the descriptor's, or it is let go.
     *
     * @throws NoSuchFileException if there is no file to open
     */
    private <T> @Nullable T locked(SessionId session, boolean shared, boolean write, LockedWork<T> work,
                                   FileLocks.@Nullable Released afterRelease) throws IOException {
        Path file = fileOf(session);
        ReentrantLock local = FileLocks.lockInJvm(file);
        boolean opened = false;
        try {
            Handle handle = handles.get(session);
            if (handle != null && write && !handle.writable) {
                closeHandle(session, handle); // opened by a read: a write needs a writable descriptor
                handle = null;
            }
            if (handle == null) {
                Object before = identity(file);
                FileChannel channel = write ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                        : FileChannel.open(file, StandardOpenOption.READ);
                handle = new Handle(channel, before, write);
                if (!released) {
                    handles.put(session, handle);
                }
                opened = true;
            }
            handle.lastUse = uses.incrementAndGet();
            T result = null;
            boolean current;
            FileLock lock;
            try {
                lock = FileLocks.acquire(file, handle.channel, shared);
            } catch (IOException | RuntimeException e) {
                if (opened && handles.get(session) != handle) {
                    // Opened for this call alone (a released store) and never to be used again: close it now, under
                    // the in-JVM lock, rather than leave it to a cleaner that may close it while another descriptor
                    // of this process holds the file's lock (which the close would drop).
                    try {
                        handle.channel.close();
                    } catch (IOException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
                throw e;
            }
            try {
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(file, BasicFileAttributes.class);
                } catch (NoSuchFileException e) {
                    attributes = null;
                }
                Object now = attributes == null ? null : identity(attributes);
                current = handle.identity.equals(now);
                if (current) {
                    SessionFile.Index cached = indexes.get(session);
                    if (cached != null && !now.equals(cached.fileKey)) {
                        indexes.remove(session); // an index of a file the path no longer names
                        cached = null;
                    }
                    if (cached != null) {
                        // Read through this same descriptor, never closed since: what it read cannot have been replaced.
                        cached.continuous = cached.heldBy == handle;
                    }
                    result = work.run(handle.channel, attributes.size());
                    SessionFile.Index after = indexes.get(session);
                    if (after != null) {
                        after.fileKey = now;
                        after.heldBy = handle;
                    }
                }
            } finally {
                if (lock.isValid()) {
                    lock.release();
                }
            }
            if (!current) {
                closeHandle(session, handle); // replaced or deleted while the lock was awaited: let it go
                return null;
            }
            if (released || handles.get(session) != handle) {
                closeHandle(session, handle); // a closed store, or the work replaced or deleted the file
            }
            if (afterRelease != null) {
                afterRelease.run();
            }
            return result;
        } catch (IOException e) {
            Handle broken = handles.get(session);
            if (broken != null) {
                closeHandle(session, broken);
            }
            throw e;
        } finally {
            local.unlock();
            if (opened && handles.size() > MAX_OPEN_FILES) {
                evict(session);
            }
        }
    }

    /** Closes a kept descriptor and forgets it. Call it holding the path's in-JVM lock and no file lock. */
    private void closeHandle(SessionId session, Handle handle) {
        handles.remove(session, handle);
        try {
            handle.channel.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot close " + fileOf(session) + ": " + e);
        }
    }

    /**
     * Closes the least recently used descriptors down to three quarters of {@link #MAX_OPEN_FILES}, skipping those in
     * use (their in-JVM lock is taken).
     */
    private void evict(SessionId keep) {
        List<Map.Entry<SessionId, Handle>> all = new ArrayList<>(handles.entrySet());
        all.sort(java.util.Comparator.comparingLong(e -> e.getValue().lastUse));
        int excess = all.size() - MAX_OPEN_FILES * 3 / 4;
        for (Map.Entry<SessionId, Handle> e : all) {
            if (excess <= 0) {
                break;
            }
            if (e.getKey().equals(keep)) {
                continue;
            }
            ReentrantLock other = FileLocks.tryLockInJvm(fileOf(e.getKey()));
            if (other == null) {
                continue;
            }
            try {
                Handle h = handles.get(e.getKey());
                if (h != null) {
                    closeHandle(e.getKey(), h);
                    excess--;
                }
            } finally {
                other.unlock();
            }
        }
    }

    /** Closes every kept descriptor, each under its path's in-JVM lock: the store is being closed. */
    private void closeAll() {
        for (SessionId session : new ArrayList<>(handles.keySet())) {
            ReentrantLock local;
            try {
                local = FileLocks.lockInJvm(fileOf(session));
            } catch (UnavailableException e) {
                continue; // busy past the wait: the next operation or the end of the process closes it
            }
            try {
                Handle h = handles.get(session);
                if (h != null) {
                    closeHandle(session, h);
                }
            } finally {
                local.unlock();
            }
        }
    }

    /** What identifies the file a path names (device and inode where the platform has them). */
    private static Object identity(Path file) throws IOException {
        return identity(Files.readAttributes(file, BasicFileAttributes.class));
    }

    private static Object identity(BasicFileAttributes a) {
        return a.fileKey() != null ? a.fileKey() : a.creationTime();
    }

    /** Brings the cached index of a session up to date with the file, reading only what is new. */
    private SessionFile.Index refresh(SessionId session, FileChannel channel, long size) throws IOException {
        SessionFile.Index index = indexes.get(session);
        if (index != null && !(index.continuous && size == index.committedEnd) && !stillValid(index, channel, size)) {
            index = null;
        }
        if (index == null) {
            index = new SessionFile.Index();
        }
        if (size > index.examined) {
            try {
                SessionFile.scan(fileOf(session), session, channel, size, index, null, chunkBytes);
            } catch (IOException | RuntimeException e) {
                indexes.remove(session); // half read: read it afresh next time
                throw e;
            }
        }
        indexes.put(session, index);
        return index;
    }

    /**
     * Whether the file still holds what the index read (another process may have truncated it), and, if its last
     * record had lost its newline, whether what follows starts with one.
     */
    private static boolean stillValid(SessionFile.Index index, FileChannel channel, long size) throws IOException {
        if (size < index.committedEnd) {
            return false;
        }
        if (index.lastLineStart < 0) {
            return true;
        }
        boolean followed = index.unterminated && size > index.committedEnd;
        byte[] now = SessionFile.read(channel, index.lastLineStart,
                index.lastLineStart + index.lastLine.length + (followed ? 1 : 0));
        if (followed) {
            return now.length == index.lastLine.length + 1 && now[now.length - 1] == '\n'
                    && java.util.Arrays.equals(now, 0, index.lastLine.length, index.lastLine, 0, index.lastLine.length);
        }
        return java.util.Arrays.equals(now, index.lastLine);
    }

    /** Appends one record (a header given to a file from before headers) and reads it into the index. */
    private void appendDurably(SessionId session, FileChannel channel, SessionFile.Index index, byte[] bytes, Op op)
            throws IOException {
        op.changed = true;
        writeFully(channel, ByteBuffer.wrap(bytes), index.committedEnd);
        channel.force(false);
        refresh(session, channel, channel.size());
    }

    /** Writes every buffer whole from {@code position}, by gathering writes (under the file's exclusive lock). */
    private static void writeFully(FileChannel channel, ByteBuffer[] buffers, long position) throws IOException {
        channel.position(position);
        int from = 0;
        while (from < buffers.length) {
            if (!buffers[from].hasRemaining()) {
                from++;
                continue;
            }
            channel.write(buffers, from, buffers.length - from);
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    private void setAside(SessionId session, FileChannel channel, SessionFile.Index index, long size, Op op)
            throws IOException {
        Path sidecar = dir.resolve(session.value() + SUFFIX + ".torn-" + options.clock().millis());
        int n = 0;
        while (Files.exists(sidecar)) {
            sidecar = dir.resolve(session.value() + SUFFIX + ".torn-" + options.clock().millis() + "-" + (++n));
        }
        long from = index.committedEnd;
        AtomicFiles.writeNew(sidecar, out -> {
            long at = from;
            while (at < size) {
                long moved = channel.transferTo(at, size - at, out);
                if (moved <= 0) {
                    break;
                }
                at += moved;
            }
        }, true);
        op.changed = true;
        channel.truncate(index.committedEnd);
        channel.force(true);
        syncDirectory();
        LOG.log(System.Logger.Level.WARNING, "set aside " + (size - from) + " bytes of an unfinished append at the end"
                + " of " + fileOf(session) + " into " + sidecar.getFileName() + "; the next append starts on a fresh line");
    }

    private void warnTorn(SessionId session, SessionFile.Index index, long size) {
        if (index.hasTornTail(size)) {
            LOG.log(System.Logger.Level.WARNING, "ignoring " + (size - index.committedEnd)
                    + " bytes of an unfinished append at the end of " + fileOf(session));
        }
    }

    /**
     * Stamps the file with the store clock's time (the catalog's updated-at). Call it without holding the file's lock
     * (see {@link #write}). A failure is a warning, never the write's: the write is durable already, and failing it
     * now would make a caller retry what is stored.
     */
    private void touch(SessionId session) {
        try {
            stamper.stamp(fileOf(session), FileTime.from(options.clock().instant()));
        } catch (IOException | RuntimeException e) {
            // The file keeps the time the kernel gave it (the write's own), which the catalog reads instead.
            LOG.log(System.Logger.Level.WARNING, "cannot stamp " + fileOf(session) + " with the store clock's time"
                    + " (the write itself is durable): " + e.getMessage());
        }
    }

    /**
     * Sets the modification time, and the access time with it: given both, the JDK sets them in one call without
     * first reading the file's times back.
     */
    private static void stampTimes(Path file, FileTime time) throws IOException {
        Files.getFileAttributeView(file, java.nio.file.attribute.BasicFileAttributeView.class).setTimes(time, time, null);
    }

    private static Instant modified(Path file) throws IOException {
        return Files.getLastModifiedTime(file).toInstant();
    }

    private Path tombstoneOf(SessionId session) {
        return dir.resolve(session.value() + TOMBSTONE_SUFFIX);
    }

    /**
     * The highest seq handed out in the session so far, the seqs of deleted sessions of its id included: the file's
     * own, once it has entries (each was given above the tombstone), else its tombstone's, read once per index under
     * the file's exclusive lock. A tombstone is written before the deleted file goes, and a file of the id can only be
     * created after that, so every index of a file created since reads it.
     *
     * @throws CorruptRecordException if the session has no entry yet and its tombstone cannot be read as one
     */
    private long seqFloor(SessionId session, SessionFile.Index index) throws IOException {
        if (index.highWater > 0) {
            return index.highWater;
        }
        if (index.deletedHighWater < 0) {
            index.deletedHighWater = readTombstone(session);
        }
        return index.deletedHighWater;
    }

    /**
     * The highest seq the session's tombstone records, 0 when there is none.
     *
     * @throws CorruptRecordException if the tombstone cannot be read as one
     */
    private long readTombstone(SessionId session) throws IOException {
        Path tombstone = tombstoneOf(session);
        try {
            return SessionFile.parseTombstone(Files.readAllBytes(tombstone), session, tombstone);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    private void syncDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            throw new UnavailableException("cannot sync the directory " + dir + ": " + IoErrors.describe(e), e);
        }
    }

    private List<SessionId> sessionFiles() {
        try (Stream<Path> files = Files.list(dir)) {
            List<SessionId> out = new ArrayList<>();
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.endsWith(SUFFIX) && Files.isRegularFile(p)) {
                    String id = name.substring(0, name.length() - SUFFIX.length());
                    // An empty file is not a session (a crash of an older version between creating and writing it);
                    // nor is a directory that happens to be named like one.
                    if (Ids.isValid(id) && sizeOrZero(p) > 0) {
                        out.add(new SessionId(id));
                    }
                }
            }
            return out;
        } catch (NoSuchFileException e) {
            return List.of(); // nothing was written in this scope yet
        } catch (IOException e) {
            throw new UnavailableException("cannot list " + dir + ": " + IoErrors.describe(e), e);
        }
    }

    private static long sizeOrZero(Path file) throws IOException {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    /** A catalog view and the file state it was read from. */
    private record Cached(String stamp, SessionInfo info) {}

    /**
     * What changes whenever a file's content may have: identity, size, modification and status-change times to the
     * nanosecond (the status-change time is the kernel's and moves on every write, rename and stamp).
     */
    private static String stamp(Path file) throws IOException {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:dev,ino,size,lastModifiedTime,ctime");
            return a.get("dev") + ":" + a.get("ino") + ":" + a.get("size") + ":"
                    + ((FileTime) a.get("lastModifiedTime")).to(java.util.concurrent.TimeUnit.NANOSECONDS) + ":"
                    + ((FileTime) a.get("ctime")).to(java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(file,
                    java.nio.file.attribute.BasicFileAttributes.class);
            return a.fileKey() + ":" + a.size() + ":" + a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    /** Every session's catalog view, from the cache where the file is unchanged. */
    private List<SessionInfo> allSessions() {
        synchronized (catalogLock) {
            return allSessionsLocked();
        }
    }

    private List<SessionInfo> allSessionsLocked() {
        if (catalog == null) {
            catalog = readCache();
        }
        Map<SessionId, Cached> seen = new HashMap<>();
        for (SessionId id : sessionFiles()) {
            Path file = fileOf(id);
            String stamp;
            try {
                stamp = stamp(file);
            } catch (NoSuchFileException e) {
                continue;
            } catch (IOException e) {
                throw new UnavailableException("cannot stat " + file + ": " + IoErrors.describe(e), e);
            }
            Cached hit = catalog.get(id);
            if (hit == null || !hit.stamp().equals(stamp)) {
                SessionInfo info;
                try {
                    info = find(id).orElse(null);
                } catch (CorruptRecordException | UnavailableException e) {
                    // One damaged, foreign or unreadable file must not hide every other session; reading it still
                    // fails, with its own error.
                    LOG.log(System.Logger.Level.WARNING, "not listing " + file + ": " + e.getMessage());
                    continue;
                }
                if (info == null) {
                    continue;
                }
                hit = new Cached(stamp, info);
                catalogDirty = true;
            }
            seen.put(id, hit);
        }
        if (seen.size() != catalog.size()) {
            catalogDirty = true;
        }
        catalog = seen;
        return seen.values().stream().map(Cached::info).toList();
    }

    /** Reads the catalog cache file; anything unreadable in it is ignored (it is derived data). */
    private Map<SessionId, Cached> readCache() {
        Path cache = dir.resolve(CACHE);
        Map<SessionId, Cached> out = new HashMap<>();
        try {
            JsonNode root = Json.parse(Files.readString(cache));
            if (root.path("version").asInt() == CACHE_VERSION && root.path("sessions").isObject()) {
                Iterator<Map.Entry<String, JsonNode>> it = root.get("sessions").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!Ids.isValid(e.getKey())) {
                        continue;
                    }
                    SessionId id = new SessionId(e.getKey());
                    SessionInfo info = fromCache(id, e.getValue());
                    if (info != null) {
                        out.put(id, new Cached(e.getValue().path("stamp").asText(""), info));
                    }
                }
            }
        } catch (NoSuchFileException e) {
            // no cache yet
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "ignoring an unreadable catalog cache " + cache + ": " + e);
        }
        return out;
    }

    /** Writes the catalog cache file, atomically and without fsync: losing it loses nothing. */
    private void writeCache() {
        if (catalog == null || !catalogDirty || !Files.isDirectory(dir)) {
            return;
        }
        ObjectNode sessions = Json.object();
        catalog.forEach((id, c) -> sessions.set(id.value(), toCache(c.info(), c.stamp())));
        ObjectNode root = Json.object();
        root.put("version", CACHE_VERSION);
        root.set("sessions", sessions);
        Path cache = dir.resolve(CACHE);
        Path tmp = dir.resolve(CACHE + ".tmp-" + ProcessHandle.current().pid() + "-" + java.util.UUID.randomUUID());
        try {
            // Removed again if writing it fails (a full disk): no empty temporary file is left behind.
            AtomicFiles.writeNew(tmp, Json.write(root).getBytes(StandardCharsets.UTF_8), false);
            try {
                Files.move(tmp, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, cache, StandardCopyOption.REPLACE_EXISTING);
            }
            catalogDirty = false;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // nothing more to do: it is a hidden temporary file, never read
            }
            // The cache is an optimisation; failing to write it loses nothing.
            LOG.log(System.Logger.Level.DEBUG, "cannot write the catalog cache " + cache + ": " + e);
        }
    }

    private static ObjectNode toCache(SessionInfo info, String stamp) {
        ObjectNode o = Json.object();
        o.put("stamp", stamp);
        o.put("createdAt", Instants.format(info.createdAt()));
        o.put("updatedAt", Instants.format(info.updatedAt()));
        if (info.title() != null) {
            o.put("title", info.title());
        }
        if (info.origin() != null) {
            o.put("origin", info.origin());
        }
        o.put("entries", info.entryCount());
        o.put("messages", info.messageCount());
        o.set("metadata", EntryCodec.encodeRawMap(info.metadata()));
        return o;
    }

    private static @Nullable SessionInfo fromCache(SessionId id, JsonNode o) {
        try {
            Instant created = Instants.parseOrNull(o.path("createdAt").asText());
            Instant updated = Instants.parseOrNull(o.path("updatedAt").asText());
            if (created == null || updated == null) {
                return null;
            }
            Map<String, RawJson> metadata = EntryCodec.decodeRawMap(o.path("metadata"), CACHE);
            return new SessionInfo(id, created, updated, o.hasNonNull("title") ? o.get("title").asText() : null,
                    o.hasNonNull("origin") ? o.get("origin").asText() : null, o.path("entries").asLong(),
                    o.path("messages").asLong(), metadata);
        } catch (CorruptRecordException | InvalidInputException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "jsonl:" + dir;
    }
}
