package dev.parley.remote.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.UnavailableException;
import dev.parley.json.Json;
import dev.parley.json.wire.Wire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The replay journal: the writes that fell back, in the order they were acknowledged, each as the request to send
 * again, in a JSONL file; and the marks that settle them ({@code done} once the server acknowledged the replay,
 * {@code cancel} when the fallback write failed and nothing was acknowledged). Each line is fsynced before the call
 * that wrote it returns. A write the server refused at replay (it went on differently) is moved to the conflicts file
 * beside the journal ({@code …conflicts.jsonl}) and reported; it is never merged. When nothing is pending, the
 * journal is emptied.
 *
 * <p>Every change and every replay runs under {@link #locked}: a lock per file in this JVM and an exclusive file lock
 * ({@code …lock}) across processes that share the journal. Thread-safe.
 */
public final class Journal {
    private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final Path conflicts;
    private final Path lockFile;

    /** A pending write: its id, its scope (null for the token's) and its request. */
    public record Op(String id, @Nullable String scope, String label, Request request) {}

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
            append(file, o);
            return null;
        });
        return id;
    }

    /** Settles a write whose fallback failed: it was never acknowledged and is not replayed. */
    public void cancel(String id) {
        mark("cancel", id);
    }

    /** Settles a write the server acknowledged at replay. Call under {@link #locked}. */
    public void done(String id) {
        mark("done", id);
    }

    /** Moves a write the server refused at replay to the conflicts file and settles it. Call under {@link #locked}. */
    public void conflict(Op op, String detail) {
        ObjectNode o = Json.object();
        o.put("id", op.id());
        o.put("scope", op.scope());
        o.put("label", op.label());
        o.put("detail", detail);
        o.set("request", op.request().toJson());
        append(conflicts, o);
        mark("conflict", op.id());
    }

    private void mark(String kind, String id) {
        ObjectNode o = Json.object();
        o.put(kind, id);
        locked(() -> {
            append(file, o);
            return null;
        });
    }

    /** The pending writes, in order. Call under {@link #locked}. */
    public List<Op> pending() {
        List<JsonNode> lines = read(file);
        Set<String> settled = new HashSet<>();
        for (JsonNode l : lines) {
            for (String kind : List.of("done", "cancel", "conflict")) {
                if (l.has(kind)) {
                    settled.add(l.get(kind).asText());
                }
            }
        }
        List<Op> out = new ArrayList<>();
        for (JsonNode l : lines) {
            if (l.has("request") && !settled.contains(l.get("id").asText())) {
                out.add(new Op(l.get("id").asText(), l.path("scope").isTextual() ? l.get("scope").asText() : null,
                        l.path("label").asText(), Request.fromJson(l.get("request"))));
            }
        }
        return out;
    }

    /** Empties the journal when nothing is pending. Call under {@link #locked}. */
    public void compact() {
        if (pending().isEmpty() && hasPending()) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(0);
                ch.force(true);
            } catch (IOException e) {
                throw new UnavailableException("cannot empty the replay journal " + file + ": " + e.getMessage(), e);
            }
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

    private static void append(Path path, JsonNode line) {
        byte[] bytes = (Wire.write(line) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(path.getParent());
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                long end = ch.size();
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
                ch.force(false);
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot write the replay journal " + path + ": " + e.getMessage(), e);
        }
    }
}
