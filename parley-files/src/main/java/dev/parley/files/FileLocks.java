package dev.parley.files;

import dev.parley.core.UnavailableException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Locks on files, across threads and processes. A {@link FileLock} is held by the whole JVM, and two overlapping
 * locks in one JVM fail, so each path also has one in-JVM lock that threads take first.
 */
final class FileLocks {
    /** How long to wait for another process's lock before failing with a retriable error, in milliseconds. */
    static final long WAIT_MILLIS = 10_000;

    private static final ConcurrentHashMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

    private FileLocks() {}

    /** Work done while holding a lock. */
    interface Locked<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code work} holding the path's in-JVM lock and a file lock on {@code channel} (shared or exclusive).
     *
     * @throws UnavailableException if the lock is not granted within {@link #WAIT_MILLIS}
     */
    static <T> T with(Path path, FileChannel channel, boolean shared, Locked<T> work) throws IOException {
        ReentrantLock local = IN_JVM.computeIfAbsent(key(path), p -> new ReentrantLock());
        try {
            if (!local.tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new UnavailableException(path + " is locked by another thread", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while waiting for the lock of " + path, e);
        }
        try {
            FileLock lock = acquire(path, channel, shared);
            try {
                return work.run();
            } finally {
                if (lock.isValid()) {
                    lock.release();
                }
            }
        } finally {
            local.unlock();
        }
    }

    /**
     * One key per file, however it is reached: the real path of its directory (symbolic links resolved), so that two
     * stores opened through a link and its target share the in-JVM lock instead of failing with an overlapping lock.
     */
    private static Path key(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        try {
            return parent == null ? absolute : parent.toRealPath().resolve(absolute.getFileName());
        } catch (IOException e) {
            return absolute;
        }
    }

    private static FileLock acquire(Path path, FileChannel channel, boolean shared) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        long sleep = 1;
        while (true) {
            FileLock lock = channel.tryLock(0, Long.MAX_VALUE, shared);
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() > deadline) {
                throw new UnavailableException(path + " is locked by another process (waited " + WAIT_MILLIS + " ms)", null);
            }
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UnavailableException("interrupted while waiting for the lock of " + path, e);
            }
            sleep = Math.min(sleep * 2, 50);
        }
    }
}
