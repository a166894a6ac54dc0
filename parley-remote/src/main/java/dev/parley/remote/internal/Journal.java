package dev.parley.remote.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.UnavailableException;
import dev.parley.json.Json;
import dev.parley.json.wire.Wire;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The replay journal: the writes that fell back, in the order they were acknowledged, each as the request to send
 * again, in a JSONL file; and the marks that settle them ({@code done} once the server acknowledged the replay,
 * {@code cancel} when the fallback write failed and nothing was acknowledged). A write's line is fsynced before the
 * call that wrote it returns, and so is every mark but one kind (below). A write the server refused at replay (it went
 * on differently) is moved to the conflicts file beside the journal ({@code …conflicts.jsonl}) and reported; it is
 * never merged. When nothing is pending, the journal is emptied.
 *
 * <p>Every change and every replay runs under {@link #locked}: a lock per file in this JVM and an exclusive file lock
 * ({@code …lock}) across processes that share the journal. Thread-safe.
 *
 * <p>A journal begun by this version starts with a generation line ({@code {"journal":"<uuid>"}}), written with its
 * first record; emptying the journal ends the generation. While the file still starts with the generation this
 * instance read, {@link #pending} reads only the lines added since its last call (by any process), and keeps of each
 * pending write only its id and place in the file: its request is read when it is replayed ({@link #op}). So a call
 * during a long outage reads one new line, not the whole journal, and holds no request bodies in memory. A file
 * without the line (begun by an earlier version) is read whole each time, as before.
 *
 * <p>The {@code done} mark of a replayed append that carries entries ({@link Op#idempotent}) is written without an
 * fsync of its own; every {@value #FLUSH_EVERY}th such mark, and {@link #flush}, make them durable. A crash of the
 * machine that loses some makes the next replay send those appends again, which the server recognises and stores
 * nothing for — unless a writer removed them meanwhile ({@code truncateAfter}, a deletion), which they then come
 * back into, as a replayed {@code truncateAfter} itself can (docs/08). {@link Node} flushes before it replays any
 * other kind of write and when a replay ends, so an append is never sent again after a later write of this journal
 * that it could undo.
 */
public final class Journal {
    private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final Path conflicts;
    private final Path lockFile;

    /** A pending write: its id, its scope (null for the token's) and its request. */
    public record Op(String id, @Nullable String scope, String label, Request request) {
        /**
         * Whether sending it again after the server applied it changes nothing: an append that carries entries (the
         * server recognises a batch it holds by their ids). A usage-only append would be counted twice, a
         * {@code truncateAfter} or a delete would remove what came after it.
         */
        public boolean idempotent() {
            JsonNode body = request.body();
            return "append".equals(label) && body != null && body.path("entries").size() > 0;
        }
    }

    /** A pending write's line in the journal: its id, and where it is (valid while its generation lasts). */
    public record Line(String id, long offset, int length) {}

    /** The most {@code done} marks written without an fsync. */
    static final int FLUSH_EVERY = 64;
    /** The generation line's one field. */
    private static final String GENERATION_FIELD = "journal";
    /** The longest generation line: {@code {"journal":"<36-char uuid>"}} and its newline, with room to spare. */
    private static final int GENERATION_LINE_MAX = 128;

    // What this instance has read of the file, touched only under the file's lock (shared by every instance on it).
    /** The generation the file started with when last read, or null: the next read starts from the beginning. */
    private @Nullable String generation;
    /** Bytes read so far: whole lines. */
    private long readTo;
    /** The writes recorded and not yet settled in what was read, in order. */
    private final LinkedHashMap<String, Line> unsettled = new LinkedHashMap<>();
    /** Marks written to the journal by this instance without an fsync since its last one. */
    private int unsynced;
    /** Lines parsed so far, for tests: a read that starts over shows as a jump. */
    private long linesParsed;

    public Journal(Path file) {
        this.file = file.toAbsolutePath();
        this.conflicts = this.file.resolveSibling(this.file.getFileName() + ".conflicts.jsonl");
        this.lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
    }

    public Path file() {
        return file;
    }

    public Path conflictsFile() {
        return conflicts;
    }

    /** Whether the journal may hold pending writes (it is not empty); a cheap check, no lock. */
    public boolean hasPending() {
        try {
            return Files.size(file) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs {@code body} holding this JVM's lock and the file lock. */
    public <T> T locked(Supplier<T> body) {
        ReentrantLock lock = LOCKS.computeIfAbsent(file, f -> new ReentrantLock());
        lock.lock();
        try {
            if (lock.getHoldCount() > 1) {
                return body.get();
            }
            Files.createDirectories(file.getParent());
            try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                return body.get();
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot lock the replay journal " + lockFile + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records a write that is about to be carried out on the fallback store; durable when this returns.
     *
     * @return its id, for {@link #cancel}
     */
    public String record(@Nullable String scope, String label, Request request) {
        String id = UUID.randomUUID().toString();
        ObjectNode o = Json.object();
        o.put("id", id);
        o.put("scope", scope);
        o.put("label", label);
        o.set("request", request.toJson());
        locked(() -> {
            appendToJournal(o, true);
            return null;
        });
        return id;
    }

    /** Settles a write whose fallback failed: it was never acknowledged and is not replayed. */
    public void cancel(String id) {
        mark("cancel", id, true);
    }

    /**
     * Settles a write the server acknowledged at replay: durable when this returns, unless {@code op} is
     * {@linkplain Op#idempotent idempotent} (then at the next {@link #flush} or fsync of the journal). Call under
     * {@link #locked}.
     */
    public void done(Op op) {
        mark("done", op.id(), !op.idempotent() || unsynced + 1 >= FLUSH_EVERY);
    }

    /** Makes every mark written so far durable. Call under {@link #locked}. */
    public void flush() {
        if (unsynced == 0) {
            return;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(false);
            unsynced = 0;
        } catch (IOException e) {
            throw new UnavailableException("cannot write the replay journal " + file + ": " + e.getMessage(), e);
        }
    }

    /** Moves a write the server refused at replay to the conflicts file and settles it. Call under {@link #locked}. */
    public void conflict(Op op, String detail) {
        ObjectNode o = Json.object();
        o.put("id", op.id());
        o.put("scope", op.scope());
        o.put("label", op.label());
        o.put("detail", detail);
        o.set("request", op.request().toJson());
        append(conflicts, o, true);
        mark("conflict", op.id(), true);
    }

    private void mark(String kind, String id, boolean durable) {
        ObjectNode o = Json.object();
        o.put(kind, id);
        locked(() -> {
            appendToJournal(o, durable);
            return null;
        });
    }

    /** The pending writes, in order, as their lines; {@link #op} reads each. Call under {@link #locked}. */
    public List<Line> pending() {
        refresh();
        return List.copyOf(unsettled.values());
    }

    /** How many writes are pending. Call under {@link #locked}. */
    public int pendingCount() {
        refresh();
        return unsettled.size();
    }

    /**
     * The write a line of {@link #pending} records, read from the journal. Call under {@link #locked}, in the same
     * hold as the {@link #pending} call that gave the line.
     *
     * @throws UnavailableException if the journal cannot be read, or no longer holds the line there
     */
    public Op op(Line line) {
        ByteBuffer bytes = ByteBuffer.allocate(line.length());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (bytes.hasRemaining() && ch.read(bytes, line.offset() + bytes.position()) >= 0) {
                // to the line's end
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot read the replay journal " + file + ": " + e.getMessage(), e);
        }
        try {
            JsonNode l = Wire.parse(new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8),
                    "a journal line");
            if (!line.id().equals(l.path("id").asText(null)) || !l.has("request")) {
                throw new IllegalStateException("another line is there");
            }
            return new Op(line.id(), l.path("scope").isTextual() ? l.get("scope").asText() : null,
                    l.path("label").asText(), Request.fromJson(l.get("request")));
        } catch (RuntimeException e) {
            forget();
            throw new UnavailableException("the replay journal " + file + " changed under its lock: the write " + line.id()
                    + " is no longer at byte " + line.offset() + " (" + e.getMessage() + "); it is read again next time",
                    e);
        }
    }

    /** Marks this instance wrote since the journal's last fsync (for tests). */
    int unsyncedMarks() {
        return unsynced;
    }

    /** Lines this instance has parsed since it was made (for tests). */
    long linesParsed() {
        return linesParsed;
    }

    /**
     * Brings {@link #unsettled} up to the file: reads the lines added since the last read while the file starts with
     * the generation read then, or the whole file when it does not (emptied since, and perhaps begun again, by any
     * process; or begun by an earlier version, without a generation line).
     */
    private void refresh() {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            String current = generationOf(ch, size);
            if (generation == null || size < readTo || !generation.equals(current)) {
                forget();
                generation = current; // null for a file without one: read whole again next time
            }
            InputStream in = new BufferedInputStream(Channels.newInputStream(ch.position(readTo)), 1 << 16);
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long lineStart = readTo;
            for (long at = readTo; at < size; at++) { // to the size seen: lines appended meanwhile are read next time
                int b = in.read();
                if (b < 0) {
                    break;
                }
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                apply(line.toString(StandardCharsets.UTF_8), lineStart, (int) (at - lineStart));
                line.reset();
                lineStart = at + 1;
                readTo = lineStart; // a torn last line (no newline yet) is left: its write was never acknowledged
            }
        } catch (NoSuchFileException e) {
            forget(); // no journal: nothing pending
        } catch (IOException e) {
            forget();
            throw new UnavailableException("cannot read the replay journal " + file + ": " + e.getMessage(), e);
        }
    }

    /** Takes one whole line read at {@code offset} into {@link #unsettled}; the generation line is neither kind. */
    private void apply(String line, long offset, int length) {
        if (line.isBlank()) {
            return;
        }
        JsonNode l;
        try {
            l = Wire.parse(line, "a journal line");
        } catch (RuntimeException e) {
            return; // a torn line, completed by the newline written before the next: never acknowledged
        }
        linesParsed++;
        if (l.has("request") && l.path("id").isTextual()) {
            String id = l.get("id").asText();
            unsettled.put(id, new Line(id, offset, length));
        } else {
            for (String kind : List.of("done", "cancel", "conflict")) {
                if (l.has(kind)) {
                    unsettled.remove(l.get(kind).asText());
                }
            }
        }
    }

    /** The generation named by the file's first line, or null when it names none. */
    private static @Nullable String generationOf(FileChannel ch, long size) throws IOException {
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, GENERATION_LINE_MAX));
        while (head.hasRemaining() && ch.read(head, head.position()) >= 0) {
            // the first line, or as much of the file as there is
        }
        String text = new String(head.array(), 0, head.position(), StandardCharsets.UTF_8);
        int newline = text.indexOf('\n');
        if (newline < 0) {
            return null;
        }
        try {
            JsonNode first = Wire.parse(text.substring(0, newline), "a journal line");
            return first.path(GENERATION_FIELD).isTextual() ? first.get(GENERATION_FIELD).asText() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void forget() {
        generation = null;
        readTo = 0;
        unsettled.clear();
    }

    /** Empties the journal when nothing is pending. Call under {@link #locked}. */
    public void compact() {
        if (pending().isEmpty() && hasPending()) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(0);
                ch.force(true);
                unsynced = 0;
            } catch (IOException e) {
                throw new UnavailableException("cannot empty the replay journal " + file + ": " + e.getMessage(), e);
            }
            forget();
        }
    }

    /** The writes the server refused at replay, as recorded. */
    public List<JsonNode> conflicts() {
        return read(conflicts);
    }

    private static List<JsonNode> read(Path path) {
        if (!Files.exists(path)) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    out.add(Wire.parse(line, "a journal line"));
                } catch (RuntimeException e) {
                    // a torn last line: its write was never acknowledged
                }
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot read the replay journal " + path + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Appends {@code line} to the journal, after a new generation line when the journal is empty; fsynced when
     * {@code durable} (with every mark written before it).
     */
    private void appendToJournal(JsonNode line, boolean durable) {
        append(file, Journal::newGenerationLine, Wire.write(line) + "\n", durable);
        unsynced = durable ? 0 : unsynced + 1;
    }

    private static String newGenerationLine() {
        ObjectNode begun = Json.object();
        begun.put(GENERATION_FIELD, UUID.randomUUID().toString());
        return Wire.write(begun) + "\n";
    }

    private static void append(Path path, JsonNode line, boolean durable) {
        append(path, null, Wire.write(line) + "\n", durable);
    }

    /**
     * Appends {@code lines} to {@code path} (after a newline, if a torn line ends it), and {@code firstIfEmpty} before
     * them when the file is empty; fsynced when {@code durable}.
     */
    private static void append(Path path, @Nullable Supplier<String> firstIfEmpty, String lines, boolean durable) {
        try {
            Files.createDirectories(path.getParent());
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                long end = ch.size();
                byte[] bytes = (end == 0 && firstIfEmpty != null ? firstIfEmpty.get() + lines : lines)
                        .getBytes(StandardCharsets.UTF_8);
                if (end > 0) {
                    ByteBuffer last = ByteBuffer.allocate(1);
                    ch.read(last, end - 1);
                    if (last.get(0) != '\n') {
                        ch.write(ByteBuffer.wrap(new byte[] {'\n'}), end);
                        end++;
                    }
                }
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    end += ch.write(buf, end);
                }
                if (durable) {
                    ch.force(false);
                }
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot write the replay journal " + path + ": " + e.getMessage(), e);
        }
    }
}
