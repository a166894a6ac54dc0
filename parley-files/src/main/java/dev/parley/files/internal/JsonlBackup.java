package dev.parley.files.internal;

import dev.parley.core.AlreadyExistsException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Backup and restore of a {@code jsonl:} store directory, while writers keep working. Each session file is copied
 * under its shared lock, so no append is half-way through it: every batch acknowledged before the backup began is
 * there, and no batch is there in part (a torn tail a crash left is copied as it is and read as the store reads it:
 * ignored). Each scope's records are copied under the catalog's writer lock, each archive directory under its
 * manifest's lock. Temporary files, lock files and the catalog cache are left out (they are made again). The copy is
 * written to a directory beside the destination, fsynced, and renamed into place when complete. Not API.
 */
public final class JsonlBackup {
    private JsonlBackup() {}

    public static void backup(Path storeDir, Path to) {
        Path source = storeDir.toAbsolutePath();
        Path target = to.toAbsolutePath();
        if (!Files.isDirectory(source)) {
            throw new NotFoundException("no store at jsonl:" + source);
        }
        if (Files.exists(target)) {
            throw new AlreadyExistsException(target + " exists already; the backup goes to a new directory");
        }
        Path partial = target.resolveSibling("." + target.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try {
            copyTree(source, partial);
            finish(partial, target);
        } catch (IOException | RuntimeException e) {
            deleteTree(partial);
            if (e instanceof RuntimeException r && !(e instanceof java.io.UncheckedIOException)) {
                throw r;
            }
            throw new UnavailableException("cannot back up jsonl:" + source + " to " + target + ": " + e.getMessage(), e);
        }
    }

    public static void restore(Path from, Path storeDir) {
        Path source = from.toAbsolutePath();
        Path target = storeDir.toAbsolutePath();
        if (Files.isRegularFile(source)) {
            throw new InvalidInputException(source + " is a file, and a jsonl: store's backup is a directory (a file is"
                    + " a sqlite: store's backup, restored into a sqlite: store)");
        }
        if (!Files.isDirectory(source)) {
            throw new NotFoundException("no backup at " + source);
        }
        if (Files.exists(target) && !isEmptyDirectory(target)) {
            throw new AlreadyExistsException("jsonl:" + target + " holds files already; restore into a new directory");
        }
        Path partial = target.resolveSibling("." + target.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try {
            copyTree(source, partial);
            Files.deleteIfExists(target);
            finish(partial, target);
        } catch (IOException | RuntimeException e) {
            deleteTree(partial);
            throw new UnavailableException("cannot restore " + source + " to jsonl:" + target + ": " + e.getMessage(), e);
        }
        Stores.open("jsonl:" + target).close();
    }

    private static boolean isEmptyDirectory(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** Copies one directory: its lock-guarded files under their locks, then the rest, then the subdirectories. */
    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        List<Path> files = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> list = Files.list(from)) {
            for (Path p : list.sorted().toList()) {
                if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    dirs.add(p);
                } else if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) && kept(p)) {
                    files.add(p);
                }
            }
        }
        Path catalogLock = from.resolve(FileRepositories.CATALOG + ".lock");
        Path manifestLock = from.resolve("manifest.json.lock");
        if (Files.exists(from.resolve(FileRepositories.CATALOG))) {
            // A scope's records: the catalog and the bodies it names, as of one moment; archives under their own lock.
            FileRepositories.locked(catalogLock, () -> {
                copyFiles(files, to);
                for (Path d : dirs) {
                    copyRecordBodies(d, to.resolve(d.getFileName().toString()));
                }
                return null;
            });
            return;
        }
        if (Files.exists(from.resolve("manifest.json")) || Files.exists(manifestLock)) {
            FileRepositories.locked(manifestLock, () -> {
                copyFiles(files, to);
                return null;
            });
        } else {
            copyFiles(files, to);
        }
        for (Path d : dirs) {
            copyTree(d, to.resolve(d.getFileName().toString()));
        }
    }

    /** Below a records scope: bodies are immutable; archive directories are copied under their manifest lock. */
    private static void copyRecordBodies(Path from, Path to) throws IOException {
        if (from.getFileName().toString().equals("archives")) {
            copyTree(from, to);
            return;
        }
        Files.createDirectories(to);
        List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(from)) {
            for (Path p : list.sorted().toList()) {
                if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    copyRecordBodies(p, to.resolve(p.getFileName().toString()));
                } else if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) && kept(p)) {
                    files.add(p);
                }
            }
        }
        copyFiles(files, to);
    }

    private static void copyFiles(List<Path> files, Path to) throws IOException {
        for (Path f : files) {
            Path target = to.resolve(f.getFileName().toString());
            if (f.getFileName().toString().endsWith(JsonlMessageLog.SUFFIX)) {
                // Under the session file's shared lock: no append is half-way through it.
                FileLocks.with(f, true, () -> FileChannel.open(f, StandardOpenOption.READ), channel -> {
                    try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE)) {
                        long size = channel.size();
                        long at = 0;
                        while (at < size) {
                            at += channel.transferTo(at, size - at, out);
                        }
                        out.force(true);
                    }
                    return null;
                });
            } else {
                Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
                try (FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
                    out.force(true);
                }
            }
        }
    }

    /** Temporary files, lock files and the catalog cache are not copied. */
    private static boolean kept(Path p) {
        String name = p.getFileName().toString();
        return !name.endsWith(".tmp") && !name.contains(".tmp-") && !name.endsWith(".lock")
                && !name.contains(".partial-") && !name.equals(JsonlMessageLog.CACHE)
                && !(name.startsWith(".") && name.endsWith(".tmp"));
    }

    private static void finish(Path partial, Path target) throws IOException {
        try (Stream<Path> all = Files.walk(partial)) {
            for (Path d : all.filter(Files::isDirectory).toList()) {
                try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
                    ch.force(true);
                }
            }
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        AtomicFiles.syncDirectory(target.getParent());
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // best effort: the failure being reported matters more
        }
    }
}
