package dev.parley.files.internal;

import dev.parley.core.UnavailableException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Locks on files, across threads and processes. A {@link FileLock} is a POSIX record lock held by the whole JVM, and
 * the operating system drops every such lock a process holds on a file as soon as the process closes <em>any</em>
 * descriptor of that file. So each path has one in-JVM lock that threads take first, and every descriptor of the
 * file — the locked channel itself, and anything else that opens the file, such as stamping its modification time —
 * is opened and closed only while that in-JVM lock is held: no thread of this JVM can then drop another's lock.
 */
final class FileLocks {
    /** How long to wait for another process's lock before failing with a retriable error, in milliseconds. */
    static final long WAIT_MILLIS = 10_000;

    private static final ConcurrentHashMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();
    /**
     * The real path of each directory seen, so that a lock costs no path resolution (a directory of a store is not
     * expected to be re-pointed while the store is open).
     */
    private static final ConcurrentHashMap<Path, Path> REAL_DIRECTORIES = new ConcurrentHashMap<>();
    private static final int MAX_REMEMBERED_DIRECTORIES = 4096;

    private FileLocks() {}

    /** Opens the channel to lock (after the in-JVM lock is taken). */
    interface Opener {
        FileChannel open() throws IOException;
    }

    /** Work done while holding a lock. */
    interface Locked<T> {
        T run(FileChannel channel) throws IOException;
    }

    /** Work done after the file lock is released, still under the in-JVM lock, before the channel is closed. */
    interface Released {
        void run() throws IOException;
    }

    /**
     * Takes the path's in-JVM lock, opens the channel, takes a file lock on it (shared or exclusive), runs {@code work},
     * releases the file lock, runs {@code released} (if any), closes the channel and releases the in-JVM lock.
     *
     * @throws UnavailableException if a lock is not granted within {@link #WAIT_MILLIS}
     * @throws IOException as the opener or the work throw it (a missing file: {@link java.nio.file.NoSuchFileException})
     */
    static <T> T with(Path path, boolean shared, Opener opener, Locked<T> work, Released released) throws IOException {
        ReentrantLock local = lockInJvm(path);
        try (FileChannel channel = opener.open()) {
            T result;
            FileLock lock = acquire(path, channel, shared);
            try {
                result = work.run(channel);
            } finally {
                if (lock.isValid()) {
                    lock.release();
                }
            }
            if (released != null) {
                released.run();
            }
            return result;
        } finally {
            local.unlock();
        }
    }

    /**
     * Takes the path's in-JVM lock, for a caller that keeps descriptors of the file open between operations: it must
     * open, lock ({@link #acquire}) and close them only while holding this lock, and unlock it when done.
     *
     * @throws UnavailableException if the lock is not granted within {@link #WAIT_MILLIS}
     */
    static ReentrantLock lockInJvm(Path path) {
        ReentrantLock local = IN_JVM.computeIfAbsent(key(path), p -> new ReentrantLock());
        try {
            if (!local.tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new UnavailableException(path + " is locked by another thread", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnavailableException("interrupted while waiting for the lock of " + path, e);
        }
        return local;
    }

    /** The path's in-JVM lock if it is free now (the caller unlocks it), or null. */
    static @Nullable ReentrantLock tryLockInJvm(Path path) {
        ReentrantLock local = IN_JVM.computeIfAbsent(key(path), p -> new ReentrantLock());
        return local.tryLock() ? local : null;
    }

    /** {@link #with(Path, boolean, Opener, Locked, Released)} with nothing to do after the release. */
    static <T> T with(Path path, boolean shared, Opener opener, Locked<T> work) throws IOException {
        return with(path, shared, opener, work, null);
    }

    /**
     * One key per file, however it is reached: the real path of its directory (symbolic links resolved), so that two
     * stores opened through a link and its target share the in-JVM lock instead of failing with an overlapping lock.
     */
    private static Path key(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        if (parent == null) {
            return absolute;
        }
        Path real = REAL_DIRECTORIES.get(parent);
        if (real == null) {
            try {
                real = parent.toRealPath();
            } catch (IOException e) {
                return absolute;
            }
            if (REAL_DIRECTORIES.size() < MAX_REMEMBERED_DIRECTORIES) {
                REAL_DIRECTORIES.put(parent, real);
            }
        }
        return real.resolve(absolute.getFileName());
    }

    /**
     * Takes a file lock on the whole file (shared or exclusive), waiting at most {@link #WAIT_MILLIS} for another
     * process. Call it holding the path's in-JVM lock.
     *
     * @throws UnavailableException if the lock is not granted in time
     */
    static FileLock acquire(Path path, FileChannel channel, boolean shared) throws IOException {
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
