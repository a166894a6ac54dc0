package dev.parley.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Durable file replacement (write a temporary file, fsync it, rename it over the target, fsync the directory), and
 * new files that never outlive a failed write: a file created here is removed again if writing it fails, so a full
 * disk leaves no empty temporary file or sidecar behind.
 */
public final class AtomicFiles {
    /**
     * For tests: the new files whose write is to fail right after the file is created, as a full disk fails it
     * ({@code null}: none).
     */
    static volatile @Nullable Predicate<Path> failWriteOf;

    private AtomicFiles() {}

    /** What fills a new file. */
    interface Body {
        void write(FileChannel out) throws IOException;
    }

    /** Replaces (or creates) {@code target} with {@code bytes}, atomically and durably. */
    static void write(Path target, byte[] bytes) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = temporaryBeside(target);
        try {
            writeNew(tmp, bytes, true);
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            syncDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A fresh name for a temporary file in {@code target}'s directory: hidden, naming the process, ending in .tmp. */
    static Path temporaryBeside(Path target) {
        return target.toAbsolutePath().resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid()
                + "." + UUID.randomUUID() + ".tmp");
    }

    /** {@link #writeNew(Path, Body, boolean)} of {@code bytes}. */
    static void writeNew(Path file, byte[] bytes, boolean durable) throws IOException {
        writeNew(file, out -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            long at = 0;
            while (buffer.hasRemaining()) {
                at += out.write(buffer, at);
            }
        }, durable);
    }

    /**
     * Creates {@code file}, which must not exist, and fills it by {@code body}, then fsyncs it if {@code durable}. If
     * anything fails after the file was created, the file is deleted before the failure is thrown.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     * @throws IOException as creating, writing or syncing fails
     */
    static void writeNew(Path file, Body body, boolean durable) throws IOException {
        FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            try (out) {
                Predicate<Path> fail = failWriteOf;
                if (fail != null && fail.test(file)) {
                    throw new IOException("No space left on device (simulated for " + file.getFileName() + ")");
                }
                body.write(out);
                if (durable) {
                    out.force(true);
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Makes a directory's entries (created, renamed, deleted files) durable. */
    public static void syncDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }
}
