package dev.parley.files.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Usage;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.StrictObject;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The layout of one session file and the index built by reading it.
 *
 * <p>Every line is one JSON record with a {@code type}:
 * <ul>
 *   <li>{@code session} — the header, always line 1: {@code id}, {@code version}, {@code createdAt}, and the
 *       optional {@code title}, {@code origin}, {@code metadata};</li>
 *   <li>{@code entry} — one entry in canonical JSON ({@link EntryCodec}); every line of a batch but the last carries
 *       {@code "more":true}, so a batch cut short by a crash is recognisable and ignored whole;</li>
 *   <li>{@code usage} — usage to add to an agent's total: {@code agent}, {@code usage}. It stands alone (an append
 *       of usage only) or is the last line of a batch, whose entry lines then all carry {@code "more":true}: the
 *       entries and what they cost are committed by the same line, or neither is. (Files written before usage joined
 *       its batch hold only standalone usage lines; they read the same.)</li>
 *   <li>{@code truncate} — written after a truncation: {@code after} (the kept entry) and {@code highWater}, the
 *       highest seq ever assigned, so that seqs are never reused.</li>
 * </ul>
 * The <em>committed</em> part of a file ends after its last complete record (a line ending in a newline that does
 * not leave a batch open; the file's last line also without its newline, if it is a whole JSON object — a write cut
 * short cannot leave one, but a hand edit can). Anything after it is a torn tail: an append that never finished,
 * hence never acknowledged. Files are read in blocks, never whole, so their size is not bounded by an array's.
 */
final class SessionFile {
    static final int VERSION = 1;
    private static final Set<String> HEADER_KEYS = Set.of("type", "version", "id", "createdAt", "title", "origin",
            "metadata");

    /** The header line's content. */
    record Header(SessionId id, Instant createdAt, @Nullable String title, @Nullable String origin,
                  Map<String, RawJson> metadata) {}

    /** What reading a file (or its new part) established. */
    static final class Index {
        /** The identity of the file this index describes ({@link java.nio.file.attribute.BasicFileAttributes#fileKey}). */
        @Nullable Object fileKey;
        @Nullable Header header;
        long examined;
        long committedEnd;
        /** The kept descriptor through which this index was last brought up to date (see {@code JsonlMessageLog}). */
        @Nullable Object heldBy;
        /**
         * Whether the file is read through that same descriptor, never closed since: then the file is the one the index
         * read (its inode cannot have been reused), and what it read is unchanged, since a file is only appended to
         * or replaced.
         */
        boolean continuous;
        /** Whether the last committed record lacks its newline (removed by hand): the next write adds it first. */
        boolean unterminated;
        long lastLineStart = -1;
        byte[] lastLine = new byte[0];
        long committedLines;
        long highWater;
        /**
         * The highest seq of the deleted sessions of this id ({@code JsonlMessageLog}'s tombstone), read by the first
         * write to a file with no entry yet; -1 until then. The first seq is assigned above it.
         */
        long deletedHighWater = -1;
        long entries;
        long messages;
        /** Where each committed entry's line is, so that a retried append can read the stored entry back. */
        final Map<EntryId, Span> spans = new HashMap<>();
        /**
         * Every committed entry's line in file order, which is ascending seq order, and in {@link #seqs} the seq of
         * each: the windows of loadAfter (a long and a reference per entry; the spans are those of {@link #spans}).
         */
        final List<Span> order = new ArrayList<>();
        long[] seqs = new long[16];
        final Map<AgentId, Entry> lastByAgent = new HashMap<>();
        final Map<AgentId, Usage> usage = new LinkedHashMap<>();

        boolean hasTornTail(long size) {
            return size > committedEnd;
        }
    }

    /**
     * Where one entry's line is in the file: its first byte, its length without the newline, and its line number.
     */
    record Span(long start, int length, long line) {}

    private SessionFile() {}

    static byte[] headerLine(Header h) {
        ObjectNode o = Json.object();
        o.put("type", "session");
        o.put("version", VERSION);
        o.put("id", h.id().value());
        o.put("createdAt", Instants.format(h.createdAt()));
        if (h.title() != null) {
            o.put("title", h.title());
        }
        if (h.origin() != null) {
            o.put("origin", h.origin());
        }
        if (!h.metadata().isEmpty()) {
            o.set("metadata", EntryCodec.encodeRawMap(h.metadata()));
        }
        return line(o);
    }

    static byte[] entryLine(Entry e, boolean more) {
        ObjectNode body = EntryCodec.encode(e);
        ObjectNode o = Json.object();
        o.put("type", "entry");
        o.setAll(body);
        if (more) {
            o.put("more", true);
        }
        return line(o);
    }

    static byte[] usageLine(AgentId agent, Usage usage) {
        ObjectNode o = Json.object();
        o.put("type", "usage");
        o.put("agent", agent.value());
        o.set("usage", EntryCodec.encodeUsage(usage));
        return line(o);
    }

    static byte[] truncateLine(EntryId after, long highWater) {
        ObjectNode o = Json.object();
        o.put("type", "truncate");
        o.put("after", after.value());
        o.put("highWater", highWater);
        return line(o);
    }

    /** A session's tombstone ({@code JsonlMessageLog.TOMBSTONE_SUFFIX}): the highest seq it was given. */
    static byte[] tombstoneLine(SessionId session, long highWater) {
        ObjectNode o = Json.object();
        o.put("type", "deleted");
        o.put("id", session.value());
        o.put("highWater", highWater);
        return line(o);
    }

    /**
     * The highest seq a tombstone records.
     *
     * @throws CorruptRecordException if {@code bytes} are not the tombstone of {@code session}
     */
    static long parseTombstone(byte[] bytes, SessionId session, Path path) {
        String location = path + ":1";
        JsonNode node = parse(bytes, 0, bytes.length, location);
        JsonNode highWater = node.path("highWater");
        if (!"deleted".equals(node.path("type").asText()) || !session.value().equals(node.path("id").asText())
                || !highWater.isIntegralNumber() || !highWater.canConvertToLong() || highWater.longValue() < 0) {
            throw new CorruptRecordException(location, "not the tombstone of session " + session + ": expected"
                    + " {\"type\":\"deleted\",\"id\":\"" + session + "\",\"highWater\":N}");
        }
        return highWater.longValue();
    }

    private static final java.util.regex.Pattern SEQ_NAMED =
            java.util.regex.Pattern.compile("\"(?:seq|highWater)\"\\s*:\\s*(\\d{1,18})");

    /**
     * A bound of the seqs a damaged file was given, read without parsing its lines: the highest number any line names
     * as a {@code "seq"} or a {@code "highWater"}, plus one for each line, since a damaged line holds at most one seq
     * more than those before it (a number in a message's text may raise the bound, which is harmless). Only a damaged
     * {@code truncate} record whose every later line is damaged too can hide a higher seq.
     */
    static long seqBound(FileChannel channel, long size, int chunkBytes) throws IOException {
        long[] highest = {0};
        long[] lines = {0};
        lines(channel, 0, size, chunkBytes, (bytes, offset, length, start, terminated) -> {
            lines[0]++;
            highest[0] = Math.max(highest[0], highestSeqNamed(new String(bytes, offset, length,
                    StandardCharsets.ISO_8859_1)));
        });
        return highest[0] + lines[0];
    }

    /** The highest number {@code bytes} name as a {@code "seq"} or a {@code "highWater"} (a damaged tombstone's). */
    static long highestSeqNamed(byte[] bytes) {
        return highestSeqNamed(new String(bytes, StandardCharsets.ISO_8859_1));
    }

    private static long highestSeqNamed(String text) {
        long highest = 0;
        java.util.regex.Matcher m = SEQ_NAMED.matcher(text);
        while (m.find()) {
            highest = Math.max(highest, Long.parseLong(m.group(1)));
        }
        return highest;
    }

    private static byte[] line(ObjectNode o) {
        byte[] json = Json.write(o).getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(json, json.length + 1);
        out[json.length] = '\n';
        return out;
    }

    /** The default size of the blocks a session file is read in, in bytes. */
    static final int CHUNK_BYTES = 1 << 20;
    /** The longest line read, in bytes (a Java array's limit). */
    static final int MAX_LINE_BYTES = Integer.MAX_VALUE - 16;

    /**
     * Reads {@code [from, to)} of the channel: a small region (one line, at most {@link #MAX_LINE_BYTES}).
     *
     * @throws IOException if the region is longer than an array can hold, or as reading fails
     */
    static byte[] read(FileChannel channel, long from, long to) throws IOException {
        long length = to - from;
        if (length > MAX_LINE_BYTES) {
            throw new IOException("a region of " + length + " bytes at offset " + from + " is longer than one read");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) length);
        long position = from;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position);
            if (n < 0) {
                break;
            }
            position += n;
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    /** What is done with each line of a file. */
    interface LineVisitor {
        /**
         * One line: {@code length} bytes of {@code bytes} from {@code offset}, without its newline, starting at byte
         * {@code start} of the file. {@code terminated} is false only for the last line, when the file does not end
         * in a newline. The bytes are valid only during the call.
         */
        void line(byte[] bytes, int offset, int length, long start, boolean terminated) throws IOException;
    }

    /**
     * Streams the lines of {@code [from, to)} of the channel in blocks of {@code chunkBytes}: memory stays bounded by
     * the block and the longest line, whatever the file's size.
     *
     * @throws IOException if a line is longer than {@link #MAX_LINE_BYTES}, or as reading fails
     */
    static void lines(FileChannel channel, long from, long to, int chunkBytes, LineVisitor visitor) throws IOException {
        lines(channel, from, to, chunkBytes, visitor, false);
    }

    /**
     * {@link #lines(FileChannel, long, long, int, LineVisitor)}; if {@code keep}, every block and every line that spans
     * blocks is a fresh array, so the visitor may keep the bytes it is given.
     */
    static void lines(FileChannel channel, long from, long to, int chunkBytes, LineVisitor visitor, boolean keep)
            throws IOException {
        int blockBytes = (int) Math.max(1, Math.min(chunkBytes, to - from));
        byte[] block = new byte[blockBytes];
        byte[] carry = new byte[0];
        int carried = 0;
        long carryStart = from;
        long position = from;
        while (position < to) {
            if (keep && position > from) {
                block = new byte[blockBytes];
            }
            ByteBuffer buffer = ByteBuffer.wrap(block, 0, (int) Math.min(block.length, to - position));
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    break;
                }
            }
            int n = buffer.position();
            if (n == 0) {
                break; // the file is shorter than it was: what was read is all there is
            }
            int start = 0;
            for (int i = indexOfNewline(block, 0, n); i >= 0; i = indexOfNewline(block, i + 1, n)) {
                if (carried > 0) {
                    carry = append(carry, carried, block, start, i - start, carryStart);
                    carried += i - start;
                    visitor.line(carry, 0, carried, carryStart, true);
                    carried = 0;
                    if (keep) {
                        carry = new byte[0];
                    }
                } else {
                    visitor.line(block, start, i - start, position + start, true);
                }
                start = i + 1;
            }
            if (start < n) {
                if (carried == 0) {
                    carryStart = position + start;
                }
                carry = append(carry, carried, block, start, n - start, carryStart);
                carried += n - start;
            }
            position += n;
        }
        if (carried > 0) {
            visitor.line(carry, 0, carried, carryStart, false);
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The index of the first newline in {@code bytes[from, to)}, or -1; eight bytes at a time. */
    static int indexOfNewline(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(bytes, i) ^ 0x0A0A0A0A0A0A0A0AL;
            long zeros = (v - 0x0101010101010101L) & ~v & 0x8080808080808080L;
            if (zeros != 0) {
                // The lowest flagged byte is exact (a borrow only flags bytes above a real zero).
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** {@code carry} (holding {@code carried} bytes) with {@code length} bytes of {@code from} added, grown if need be. */
    private static byte[] append(byte[] carry, int carried, byte[] from, int offset, int length, long lineStart)
            throws IOException {
        long needed = (long) carried + length;
        if (needed > MAX_LINE_BYTES) {
            throw new IOException("the line at byte " + lineStart + " is longer than " + MAX_LINE_BYTES + " bytes");
        }
        byte[] out = carry;
        if (needed > carry.length) {
            out = Arrays.copyOf(carry, (int) Math.min(MAX_LINE_BYTES, Math.max(needed, 2L * carry.length)));
        }
        System.arraycopy(from, offset, out, carried, length);
        return out;
    }

    /** Parses one line's bytes as a JSON value, failing with a {@link CorruptRecordException} naming it. */
    static JsonNode parse(byte[] bytes, int offset, int length, String location) {
        try {
            return Json.parse(bytes, offset, length);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new CorruptRecordException(location, Json.unreadable(e), e);
        }
    }

    /** The line's JSON value, or null if it is not one. */
    static @Nullable JsonNode tryParse(byte[] bytes, int offset, int length) {
        try {
            return Json.parse(bytes, offset, length);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /** Below this many bytes to read, a scan decodes on the calling thread alone. */
    static final int PARALLEL_MIN_BYTES = 1 << 20;
    /** The bytes of lines handed to another thread to decode at once. */
    private static final int SEGMENT_BYTES = 256 << 10;

    /**
     * Reads the records of the channel from {@code index.examined} to {@code size} into the index, and the committed
     * entries into {@code entriesOut} when it is not null. A last line without its newline is a complete record if it
     * is a whole JSON object (a write cut short cannot leave one: the object's closing brace is the last byte before
     * the newline); otherwise it is the start of a torn tail. More than {@link #PARALLEL_MIN_BYTES} are decoded in
     * segments by helpers of {@link ForkJoinPool#commonPool()} and the calling thread (which decodes any segment no
     * helper has started when it needs it), and applied in file order on the calling thread: errors and results are
     * those of a reading in order.
     *
     * @throws CorruptRecordException naming file and line for a complete line that is not a valid record
     */
    static void scan(Path path, SessionId expected, FileChannel channel, long size, Index index,
                     @Nullable List<Entry> entriesOut, int chunkBytes) throws IOException {
        long from = index.examined;
        if (index.unterminated && from < size) {
            // The last record lacked its newline and a writer has since added it (the caller checked that byte).
            from++;
            index.unterminated = false;
            index.committedEnd = from;
            index.examined = from;
        }
        Scan scan = new Scan(path, expected, index, entriesOut);
        if (size - from >= PARALLEL_MIN_BYTES) {
            ParallelScan parallel = new ParallelScan(scan);
            scan.keepsBytes = true;
            lines(channel, from, size, chunkBytes, parallel, true);
            parallel.finish();
            scan.keepLastLine();
        } else {
            lines(channel, from, size, chunkBytes, scan);
        }
        // An open batch at the end is not committed: the next scan starts at the end of the last committed record.
        index.examined = index.committedEnd;
    }

    /** One line decoded, apart from the state of the file around it. */
    private static final class Decoded {
        final byte[] bytes;
        final int offset;
        final int length;
        final long start;
        final boolean terminated;
        @Nullable StrictObject record;
        @Nullable String type;
        @Nullable Entry entry;
        boolean more;
        @Nullable RuntimeException error;

        Decoded(byte[] bytes, int offset, int length, long start, boolean terminated) {
            this.bytes = bytes;
            this.offset = offset;
            this.length = length;
            this.start = start;
            this.terminated = terminated;
        }

        /**
         * Parses the line and decodes an entry record (what needs no other line); a failure is kept, to be thrown
         * when the line's turn comes. Returns false for a last line without its newline that is not a whole JSON
         * object: a torn tail.
         */
        boolean decode(String location) {
            try {
                JsonNode node;
                if (terminated) {
                    EntryLineEnvelope envelope = new EntryLineEnvelope();
                    Entry streamed = EntryCodec.tryDecode(bytes, offset, length, envelope);
                    if (streamed != null && envelope.entry) {
                        type = "entry";
                        more = envelope.more;
                        entry = streamed;
                        return true;
                    }
                    node = parse(bytes, offset, length, location);
                } else {
                    node = tryParse(bytes, offset, length);
                    if (node == null || !node.isObject()) {
                        return false;
                    }
                }
                record = StrictObject.of(node, location);
                type = record.string("type");
                if (type.equals("entry")) {
                    more = record.bool("more", false);
                    entry = decodeEntry(record, location);
                    record = null; // not needed to apply an entry: let the tree go while the segment waits
                }
            } catch (RuntimeException e) {
                error = e;
            }
            return true;
        }
    }

    /**
     * The fields an entry line adds around its entry, for {@link EntryCodec#tryDecode}: {@code "type":"entry"} and an
     * optional {@code more}. Anything else (another type, a repeated field) declines the line, which is then read
     * through the tree.
     */
    private static final class EntryLineEnvelope implements EntryCodec.EnvelopeReader {
        boolean entry;
        boolean more;
        private boolean moreRead;

        @Override
        public boolean read(String name, JsonParser p) throws IOException {
            JsonToken t = p.currentToken();
            if (name.equals("type") && !entry) {
                entry = t == JsonToken.VALUE_STRING && p.getText().equals("entry");
                return entry;
            }
            if (name.equals("more") && !moreRead) {
                moreRead = true;
                more = t == JsonToken.VALUE_TRUE;
                return more || t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_NULL;
            }
            return false;
        }
    }

    /** The state of one {@link #scan}: the batch read so far and not yet committed. */
    private static final class Scan implements LineVisitor {
        private final Path path;
        private final SessionId expected;
        private final Index index;
        private final @Nullable List<Entry> entriesOut;
        private final List<Entry> pending = new ArrayList<>();
        private final List<Span> pendingSpans = new ArrayList<>();
        private long line;
        /** Whether the bytes of the lines stay valid after their visit (each block a fresh array). */
        boolean keepsBytes;
        private @Nullable Decoded lastRecord;

        Scan(Path path, SessionId expected, Index index, @Nullable List<Entry> entriesOut) {
            this.path = path;
            this.expected = expected;
            this.index = index;
            this.entriesOut = entriesOut;
            this.line = index.committedLines;
        }

        String location(long number) {
            return path + ":" + number;
        }

        @Override
        public void line(byte[] data, int offset, int length, long lineStart, boolean terminated) {
            Decoded d = new Decoded(data, offset, length, lineStart, terminated);
            if (d.decode(location(line + 1))) {
                apply(d);
            }
        }

        /** Applies the next line of the file, decoded. */
        void apply(Decoded d) {
            line++;
            String location = location(line);
            if (d.error != null) {
                throw d.error;
            }
            String type = Objects.requireNonNull(d.type);
            boolean closesRecord = true;
            if (index.header == null) {
                if (!type.equals("session")) {
                    throw new CorruptRecordException(location, "the first line is not a session header");
                }
                index.header = parseHeader(Objects.requireNonNull(d.record), expected);
            } else {
                switch (type) {
                    case "entry" -> {
                        Entry entry = Objects.requireNonNull(d.entry);
                        if (entry.seq() <= index.highWater
                                || !pending.isEmpty() && entry.seq() <= pending.get(pending.size() - 1).seq()) {
                            throw new CorruptRecordException(location, "seq " + entry.seq() + " does not increase");
                        }
                        pending.add(entry);
                        pendingSpans.add(new Span(d.start, d.length, line));
                        if (d.more) {
                            closesRecord = false;
                        } else {
                            commitBatch(index, pending, pendingSpans, entriesOut, location);
                        }
                    }
                    case "usage" -> {
                        // A usage line stands alone or closes the batch whose cost it records: both are committed here.
                        StrictObject record = Objects.requireNonNull(d.record);
                        Usage usage = EntryCodec.decodeUsage(record.required("usage"), location);
                        AgentId agent = agent(record.string("agent"), location);
                        if (record.bool("more", false)) {
                            throw new CorruptRecordException(location, "a usage line must end its batch");
                        }
                        commitBatch(index, pending, pendingSpans, entriesOut, location);
                        index.usage.merge(agent, usage, Usage::plus);
                    }
                    case "truncate" -> {
                        requireNoOpenBatch(pending, location);
                        index.highWater = Math.max(index.highWater,
                                Objects.requireNonNull(d.record).longValue("highWater"));
                    }
                    default -> throw new CorruptRecordException(location, "unknown record type '" + type + "'");
                }
            }
            if (closesRecord) {
                index.committedEnd = d.start + d.length + (d.terminated ? 1 : 0);
                index.unterminated = !d.terminated;
                index.committedLines = line;
                index.lastLineStart = d.start;
                lastRecord = d;
                if (!keepsBytes) {
                    keepLastLine();
                }
            }
        }

        /**
         * Copies the last committed record's line into the index. A scan whose line bytes stay valid after the visit
         * ({@link #keepsBytes}) copies it once, at the end, instead of at every record.
         */
        void keepLastLine() {
            Decoded d = lastRecord;
            if (d == null) {
                return;
            }
            index.lastLine = Arrays.copyOfRange(d.bytes, d.offset, d.offset + d.length + (d.terminated ? 1 : 0));
            if (d.terminated) {
                index.lastLine[d.length] = '\n';
            }
            lastRecord = null;
        }
    }

    /**
     * Lines to decode together, by whichever thread claims them first: a helper of the common pool, or the reading
     * thread when it needs them (so it never waits for a segment no helper has started).
     */
    private static final class Segment implements Runnable {
        private final Scan scan;
        final List<Decoded> lines;
        private final long firstLine;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch done = new CountDownLatch(1);
        private @Nullable Throwable failure;

        Segment(Scan scan, List<Decoded> lines, long firstLine) {
            this.scan = scan;
            this.lines = lines;
            this.firstLine = firstLine;
        }

        @Override
        public void run() {
            if (!claimed.compareAndSet(false, true)) {
                return;
            }
            try {
                for (int i = 0; i < lines.size(); i++) {
                    lines.get(i).decode(scan.location(firstLine + i));
                }
            } catch (Throwable t) {
                failure = t; // Decoded keeps a record's own errors; this is anything else
            } finally {
                done.countDown();
            }
        }

        boolean isDone() {
            return done.getCount() == 0;
        }

        /** Claims the segment (or, if a helper has it, waits for it) and returns it decoded. */
        List<Decoded> decoded() {
            run();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UnavailableException("interrupted while reading a session file", e);
            }
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof Error err) {
                throw err;
            }
            return lines;
        }

        /** Makes sure no helper decodes it any more (after a failure). */
        void abandon() {
            claimed.set(true);
        }
    }

    /**
     * A {@link Scan} whose lines are decoded in segments by the common pool's helpers and the reading thread, and
     * applied in file order on the reading thread.
     */
    private static final class ParallelScan implements LineVisitor {
        private final Scan scan;
        private final ArrayDeque<Segment> inFlight = new ArrayDeque<>();
        private final int helpers = Math.max(1, ForkJoinPool.getCommonPoolParallelism());
        private int used;
        private List<Decoded> lines = new ArrayList<>();
        private long firstLine;

        ParallelScan(Scan scan) {
            this.scan = scan;
            this.firstLine = scan.line + 1;
        }

        @Override
        public void line(byte[] data, int offset, int length, long lineStart, boolean terminated) {
            if (!terminated) {
                // The last line, without its newline: whether it is a record depends on it whole; decide here, in order.
                finish();
                scan.line(data, offset, length, lineStart, false);
                return;
            }
            // The bytes are kept as they are: the scan reads into fresh arrays (see lines(..., keep)).
            lines.add(new Decoded(data, offset, length, lineStart, true));
            used += length;
            if (used >= SEGMENT_BYTES) {
                submit();
            }
        }

        private void submit() {
            Segment segment = new Segment(scan, lines, firstLine);
            firstLine += lines.size();
            used = 0;
            lines = new ArrayList<>();
            inFlight.add(segment);
            ForkJoinPool.commonPool().execute(segment);
            // Bounded: beyond a few segments ahead, the reading thread decodes (or waits for) the oldest itself.
            while (inFlight.size() > 2 * helpers || !inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
                applyAll(inFlight.pollFirst());
            }
        }

        /** Decodes and applies every line handed over so far. */
        void finish() {
            if (!lines.isEmpty()) {
                submit();
            }
            while (!inFlight.isEmpty()) {
                applyAll(inFlight.pollFirst());
            }
        }

        private void applyAll(Segment segment) {
            try {
                for (Decoded d : segment.decoded()) {
                    scan.apply(d);
                }
            } catch (RuntimeException | Error e) {
                for (Segment other : inFlight) {
                    other.abandon();
                }
                inFlight.clear();
                throw e;
            }
        }
    }

    private static void commitBatch(Index index, List<Entry> pending, List<Span> spans, @Nullable List<Entry> entriesOut,
                                    String location) {
        for (int k = 0; k < pending.size(); k++) {
            Entry e = pending.get(k);
            commitEntry(index, e, spans.get(k), location);
            if (entriesOut != null) {
                entriesOut.add(e);
            }
        }
        pending.clear();
        spans.clear();
    }

    /**
     * An entry record's entry: the record less its {@code type} and {@code more}, decoded strictly. The record's node
     * is changed (both keys are removed from it): pass a node parsed for this call.
     */
    static Entry decodeEntry(StrictObject record, String location) {
        ObjectNode body = record.node();
        body.remove("type");
        body.remove("more");
        return EntryCodec.decode(body, location);
    }

    /**
     * Reads back the committed entry at {@code span} of the file open on {@code channel}.
     *
     * @throws CorruptRecordException if the line there is not that entry's record (the file changed under the index)
     */
    static Entry readEntry(Path path, FileChannel channel, Span span, EntryId expected) throws IOException {
        Entry entry = readEntryAt(path, channel, span);
        if (entry == null || !entry.id().equals(expected)) {
            throw new CorruptRecordException(path + ":" + span.line(), "the line indexed for entry " + expected
                    + " holds another record");
        }
        return entry;
    }

    /**
     * Reads back the committed entry of seq {@code expectedSeq} at {@code span}.
     *
     * @throws CorruptRecordException if the line there is not that entry's record (the file changed under the index)
     */
    static Entry readEntry(Path path, FileChannel channel, Span span, long expectedSeq) throws IOException {
        Entry entry = readEntryAt(path, channel, span);
        if (entry == null || entry.seq() != expectedSeq) {
            throw new CorruptRecordException(path + ":" + span.line(), "the line indexed for seq " + expectedSeq
                    + " holds another record");
        }
        return entry;
    }

    private static @Nullable Entry readEntryAt(Path path, FileChannel channel, Span span) throws IOException {
        byte[] bytes = read(channel, span.start(), span.start() + span.length());
        String location = path + ":" + span.line();
        StrictObject record = StrictObject.of(parse(bytes, 0, bytes.length, location), location);
        return "entry".equals(record.string("type")) ? decodeEntry(record, location) : null;
    }

    private static void requireNoOpenBatch(List<Entry> pending, String location) {
        if (!pending.isEmpty()) {
            throw new CorruptRecordException(location, "a batch is left open before this record");
        }
    }

    static void commitEntry(Index index, Entry e, Span span, String location) {
        if (index.spans.containsKey(e.id())) {
            throw new CorruptRecordException(location, "entry id " + e.id() + " appears twice");
        }
        if (e.parentId() != null && !index.spans.containsKey(e.parentId())) {
            throw new CorruptRecordException(location, "parent " + e.parentId() + " is not an earlier entry");
        }
        index.spans.put(e.id(), span);
        if (index.order.size() == index.seqs.length) {
            index.seqs = java.util.Arrays.copyOf(index.seqs, index.seqs.length * 2);
        }
        index.seqs[index.order.size()] = e.seq();
        index.order.add(span);
        index.lastByAgent.put(e.agentId(), e);
        index.highWater = Math.max(index.highWater, e.seq());
        index.entries++;
        if (e.payload() instanceof Message) {
            index.messages++;
        }
    }

    private static AgentId agent(String value, String location) {
        try {
            return new AgentId(value);
        } catch (InvalidInputException e) {
            throw new CorruptRecordException(location, e.getMessage(), e);
        }
    }

    private static Header parseHeader(StrictObject o, SessionId expected) {
        o.allowOnly(HEADER_KEYS);
        long version = o.longValue("version");
        if (version != VERSION) {
            throw o.fail("unsupported session file version " + version + " (this Parley reads " + VERSION + ")");
        }
        String id = o.string("id");
        if (!id.equals(expected.value())) {
            throw o.fail("the header names session " + id + " but the file is named for " + expected);
        }
        Map<String, RawJson> metadata = o.has("metadata")
                ? EntryCodec.decodeRawMap(o.required("metadata"), o.location() + " metadata") : Map.of();
        return new Header(expected, o.instant("createdAt"), o.optionalString("title"), o.optionalString("origin"),
                metadata);
    }

    /** The catalog view of an indexed file. */
    static SessionInfo info(Index index, Instant updatedAt) {
        Header h = index.header;
        if (h == null) {
            throw new IllegalStateException("no header indexed");
        }
        Instant updated = updatedAt.isBefore(h.createdAt()) ? h.createdAt() : updatedAt;
        return new SessionInfo(h.id(), h.createdAt(), updated, h.title(), h.origin(), index.entries, index.messages,
                h.metadata());
    }
}
