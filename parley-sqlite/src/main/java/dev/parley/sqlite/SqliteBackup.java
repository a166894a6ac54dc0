package dev.parley.sqlite;

import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.IoErrors;
import dev.parley.core.NotFoundException;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Backup and restore of a SQLite store. The backup runs SQLite's online backup API in one step: the whole database is
 * copied inside one read transaction, which in WAL mode does not hold writers up, so the copy is the database as of
 * one commit — every transaction (a batch, a record update) whole or absent, and every one committed before the backup
 * began present. The copy is written beside its destination and renamed into place once it is complete and fsynced.
 */
final class SqliteBackup {
    private SqliteBackup() {}

    static void backup(Path file, Path to) {
        Path source = file.toAbsolutePath();
        Path target = to.toAbsolutePath();
        if (!Files.isRegularFile(source)) {
            throw new NotFoundException("no store at sqlite:" + source);
        }
        if (Files.exists(target)) {
            throw new AlreadyExistsException(target + " exists already; the backup goes to a new file");
        }
        SqliteSchema.inspect(source, "sqlite:" + source); // another application's file is refused, untouched
        Path partial = partial(target);
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(SqliteStore.BUSY_TIMEOUT_MILLIS);
        try {
            createParent(target);
            try (Connection c = config.createConnection("jdbc:sqlite:" + source)) {
                // pagesPerStep -1: every page in one step, in one read transaction: a copy as of one commit.
                int rc = ((SQLiteConnection) c).getDatabase().backup("main", partial.toString(), null, 100, 100, -1);
                if (rc != SQLiteErrorCode.SQLITE_OK.code) {
                    // The copy is incomplete (a full disk, a store busy beyond the retries): never report it done.
                    SQLiteErrorCode code = SQLiteErrorCode.getErrorCode(rc);
                    throw new SQLiteException("the backup stopped with " + code + " (" + code.message + ")", code);
                }
            }
            finish(partial, target);
        } catch (SQLException e) {
            deleteQuietly(partial);
            throw SqliteDialect.map(e, "sqlite:" + source, "back up to " + target);
        } catch (IOException e) {
            deleteQuietly(partial);
            throw new UnavailableException("cannot write the backup " + target + ": " + IoErrors.describe(e), e);
        }
    }

    static void restore(Path from, Path file) {
        Path source = from.toAbsolutePath();
        Path target = file.toAbsolutePath();
        if (Files.isDirectory(source)) {
            throw new InvalidInputException(source + " is a directory, and a sqlite: store's backup is a file (a"
                    + " directory is a jsonl: store's backup, restored into a jsonl: store)");
        }
        if (!Files.isRegularFile(source)) {
            throw new NotFoundException("no backup at " + source);
        }
        if (Files.exists(target)) {
            throw new AlreadyExistsException("sqlite:" + target + " exists already; restore into a new file");
        }
        requireSqliteHeader(source);
        Path partial = partial(target);
        try {
            createParent(target);
            Files.copy(source, partial);
            finish(partial, target);
        } catch (IOException e) {
            deleteQuietly(partial);
            throw new UnavailableException("cannot restore " + source + " to " + target + ": "
                    + IoErrors.describe(e), e);
        }
        try {
            Stores.open("sqlite:" + target).close(); // it opens: Parley's schema, current or migrated
        } catch (CorruptRecordException | InvalidInputException e) {
            // Not a store this Parley opens: leave nothing behind, so that the next try is not "exists already". (A
            // busy or unavailable store is left as it is: the copy may be sound, and another process may have it.)
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                deleteQuietly(target.resolveSibling(target.getFileName() + suffix));
            }
            throw e;
        }
    }

    /** @throws InvalidInputException naming the file if it does not start as a SQLite database does */
    private static void requireSqliteHeader(Path source) {
        Boolean sqlite;
        try {
            sqlite = SqliteSchema.startsAsSqlite(source);
        } catch (IOException e) {
            throw new UnavailableException("cannot read the backup " + source + ": " + IoErrors.describe(e), e);
        }
        if (!Boolean.TRUE.equals(sqlite)) {
            throw new InvalidInputException(source + " is not a SQLite backup (it does not start with SQLite's file"
                    + " header); a jsonl: store's backup is a directory, restored into a jsonl: store");
        }
    }

    private static Path partial(Path target) {
        return target.resolveSibling("." + target.getFileName() + ".partial-" + ProcessHandle.current().pid());
    }

    private static void createParent(Path target) throws IOException {
        if (target.getParent() != null) {
            Files.createDirectories(target.getParent());
        }
    }

    /** Fsyncs the finished copy, renames it into place and fsyncs the directory. */
    private static void finish(Path partial, Path target) throws IOException {
        try (FileChannel ch = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // best effort: the failure being reported matters more
        }
    }
}
