package dev.parley.files.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Usage;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.StrictObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * not leave a batch open). Anything after it is a torn tail: an append that never finished, hence never
 * acknowledged.
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
        long lastLineStart = -1;
        byte[] lastLine = new byte[0];
        int committedLines;
        long highWater;
        long entries;
        long messages;
        /** Where each committed entry's line is, so that a retried append can read the stored entry back. */
        final Map<EntryId, Span> spans = new HashMap<>();
        final Map<AgentId, Entry> lastByAgent = new HashMap<>();
        final Map<AgentId, Usage> usage = new LinkedHashMap<>();

        boolean hasTornTail(long size) {
            return size > committedEnd;
        }
    }

    /**
     * Where one entry's line is in the file: its first byte, its length without the newline, and its line number.
     */
    record Span(long start, int length, int line) {}

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

    private static byte[] line(ObjectNode o) {
        byte[] json = Json.write(o).getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(json, json.length + 1);
        out[json.length] = '\n';
        return out;
    }

    /** Reads {@code [from, size)} of the channel. */
    static byte[] read(FileChannel channel, long from, long size) throws IOException {
        long length = size - from;
        if (length > Integer.MAX_VALUE - 16) {
            throw new IOException("session file region too large to read at once: " + length + " bytes");
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

    /**
     * Reads the records of {@code data} (the file's bytes from {@code index.examined}) into the index, and the
     * committed entries into {@code entriesOut} when it is not null.
     *
     * @throws CorruptRecordException naming file and line for a complete line that is not a valid record
     */
    static void scan(Path path, SessionId expected, byte[] data, Index index, @Nullable List<Entry> entriesOut) {
        long base = index.examined;
        int line = index.committedLines;
        List<Entry> pending = new ArrayList<>();
        List<Span> pendingSpans = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < data.length; i++) {
            if (data[i] != '\n') {
                continue;
            }
            line++;
            String location = path + ":" + line;
            String text = new String(data, start, i - start, StandardCharsets.UTF_8);
            JsonNode node = EntryCodec.parseRecord(text, location);
            StrictObject record = StrictObject.of(node, location);
            String type = record.string("type");
            long lineStart = base + start;
            boolean closesRecord = true;
            if (index.header == null) {
                if (!type.equals("session")) {
                    throw new CorruptRecordException(location, "the first line is not a session header");
                }
                index.header = parseHeader(record, expected);
            } else {
                switch (type) {
                    case "entry" -> {
                        boolean more = record.bool("more", false);
                        Entry entry = decodeEntry(record, location);
                        if (entry.seq() <= index.highWater || !pending.isEmpty() && entry.seq() <= pending.get(pending.size() - 1).seq()) {
                            throw new CorruptRecordException(location, "seq " + entry.seq() + " does not increase");
                        }
                        pending.add(entry);
                        pendingSpans.add(new Span(lineStart, i - start, line));
                        if (more) {
                            closesRecord = false;
                        } else {
                            commitBatch(index, pending, pendingSpans, entriesOut, location);
                        }
                    }
                    case "usage" -> {
                        // A usage line stands alone or closes the batch whose cost it records: both are committed here.
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
                        index.highWater = Math.max(index.highWater, record.longValue("highWater"));
                    }
                    default -> throw new CorruptRecordException(location, "unknown record type '" + type + "'");
                }
            }
            if (closesRecord) {
                index.committedEnd = base + i + 1;
                index.committedLines = line;
                index.lastLineStart = lineStart;
                index.lastLine = Arrays.copyOfRange(data, start, i + 1);
            }
            start = i + 1;
        }
        // An open batch at the end is not committed: the next scan starts at the end of the last committed record.
        index.examined = index.committedEnd;
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

    /** An entry record's entry: the record less its {@code type} and {@code more}, decoded strictly. */
    static Entry decodeEntry(StrictObject record, String location) {
        ObjectNode body = record.node().deepCopy();
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
        byte[] bytes = read(channel, span.start(), span.start() + span.length());
        String location = path + ":" + span.line();
        StrictObject record = StrictObject.of(EntryCodec.parseRecord(new String(bytes, StandardCharsets.UTF_8),
                location), location);
        Entry entry = "entry".equals(record.string("type")) ? decodeEntry(record, location) : null;
        if (entry == null || !entry.id().equals(expected)) {
            throw new CorruptRecordException(location, "the line indexed for entry " + expected + " holds another record");
        }
        return entry;
    }

    private static void requireNoOpenBatch(List<Entry> pending, String location) {
        if (!pending.isEmpty()) {
            throw new CorruptRecordException(location, "a batch is left open before this record");
        }
    }

    private static void commitEntry(Index index, Entry e, Span span, String location) {
        if (index.spans.containsKey(e.id())) {
            throw new CorruptRecordException(location, "entry id " + e.id() + " appears twice");
        }
        if (e.parentId() != null && !index.spans.containsKey(e.parentId())) {
            throw new CorruptRecordException(location, "parent " + e.parentId() + " is not an earlier entry");
        }
        index.spans.put(e.id(), span);
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
