package dev.parley.sqlite;

import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.IoErrors;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.internal.JdbcStore;
import dev.parley.jdbc.internal.Migrations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The embedded default store: the message log, its catalog, the session records and the archives in one SQLite
 * database file — WAL journal, {@code synchronous=FULL} (an acknowledged write survives a crash of the process and a
 * power loss), foreign keys on. Open it with {@code Stores.open("sqlite:PATH")} or {@link #open(Path, StoreOptions)}.
 *
 * <ul>
 *   <li><b>Transactions.</b> Every write is one {@code BEGIN IMMEDIATE} transaction: all of it or nothing. Several
 *       processes may open the same file; their writers take turns, each waiting up to
 *       {@value #BUSY_TIMEOUT_MILLIS} ms for the write lock, then failing with a retriable
 *       {@link UnavailableException} that wrote nothing. Appends that arrive together from several threads are
 *       group-committed: one transaction and one fsync for all of them, each batch still all or nothing on its own,
 *       each caller answered once its entries are durable (docs/11-group-commit.md).</li>
 *   <li><b>Scope.</b> Every row carries the store's scope; {@link #withScope(String)} gives a view of another scope
 *       on the same connection. Files written by Parley before scopes (schema v2) are migrated on open, their
 *       contents into the scope {@value Store#DEFAULT_SCOPE}.</li>
 *   <li><b>Schema.</b> Opening applies the missing migrations; a file written by a newer Parley, or a SQLite database
 *       of another application, is refused with a {@link dev.parley.core.UnsupportedException} and left
 *       untouched.</li>
 *   <li><b>Read-only.</b> An existing file that cannot be written (read-only media, a read-only file or directory,
 *       a full disk) is opened for reading: every read works, and every write fails with an
 *       {@link UnavailableException} that says the store is read-only and why.</li>
 *   <li><b>The file stays in place.</b> A database file deleted, or replaced by another file, while the store has it
 *       open fails every later operation with an {@link UnavailableException} naming the path (SQLite would go on
 *       with the file it opened, and a write committed there would be lost when the store closes); the store must be
 *       closed. Move, replace or restore a database file only together with its {@code -wal} and {@code -shm}
 *       files, and while no process has it open.</li>
 *   <li><b>Cost.</b> An append inserts one row per new entry and updates one catalog row; nothing stored is
 *       rewritten, so its cost does not grow with the session.</li>
 * </ul>
 *
 * <p>Thread-safe: operations of the store and all its views are serialized on one connection. Closing the store
 * closes the connection; afterwards every operation fails with an {@link UnavailableException}.
 */
public final class SqliteStore extends JdbcStore {
    /**
     * How long a writer waits for another process's write lock, in milliseconds: long enough for the largest batch
     * another process commits at once (a session of an import, which took over 10 s in a trial), so that writers take
     * turns rather than fail.
     */
    public static final int BUSY_TIMEOUT_MILLIS = 120_000;

    private final Path file;

    private SqliteStore(Path file, String scope, boolean scopePinned, SqliteDialect dialect, StoreOptions options) {
        super("sqlite:" + file, scope, scopePinned, dialect, options);
        this.file = file;
    }

    private SqliteStore(SqliteStore root, String scope) {
        super(root, scope);
        this.file = root.file;
    }

    /**
     * Opens (creating it and its directories if needed) the database at {@code file}, brings its schema up to date,
     * and binds the store to {@code options}' scope, or {@value Store#DEFAULT_SCOPE}.
     *
     * @param file the database file; a relative path is resolved against the working directory
     * @param options the clock, id generator and scope of the store; a null scope binds {@value Store#DEFAULT_SCOPE}
     * @return the open store; read-only when an existing file cannot be written (see the class comment)
     * @throws InvalidInputException if the path is a directory
     * @throws UnavailableException if the file cannot be opened or migrated
     * @throws dev.parley.core.UnsupportedException if the file was written by a newer Parley, or is another
     *     application's database, or can only be read and has an older schema (migrating it needs a write)
     * @throws CorruptRecordException if an existing, non-empty file does not start with SQLite's file header; the
     *     file is left unchanged
     */
    public static SqliteStore open(Path file, StoreOptions options) {
        Objects.requireNonNull(options, "options");
        return open(file, options.scope() == null ? DEFAULT_SCOPE : options.scope(), false, options);
    }

    static SqliteStore open(Path file, String scope, boolean scopePinned, StoreOptions options) {
        Objects.requireNonNull(file, "file");
        Path absolute = file.toAbsolutePath();
        String where = "sqlite:" + absolute;
        if (Files.isDirectory(absolute)) {
            throw new InvalidInputException(where + " is a directory, not a database file (a directory of JSONL"
                    + " session files opens as jsonl:" + absolute + ")");
        }
        try {
            Path dir = absolute.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot create the directory of " + absolute + ": "
                    + IoErrors.describe(e), e);
        }
        boolean exists = Files.isRegularFile(absolute);
        if (exists) {
            requireSqliteFile(absolute, where);
        } else if (absolute.getParent() != null && !Files.isWritable(absolute.getParent())) {
            // SQLite would say only SQLITE_CANTOPEN, "Unable to open the database file"
            throw new UnavailableException("cannot create " + where + ": permission denied: this process may not"
                    + " create files in " + absolute.getParent(), null);
        }
        String readOnly = exists ? whyReadOnly(absolute) : null;
        if (readOnly == null) {
            try {
                return openWritable(absolute, scope, scopePinned, options, where, UnaryOperator.identity());
            } catch (UnavailableException e) {
                SQLiteErrorCode code = sqliteCode(e);
                if (!exists || code == null || !CANNOT_WRITE.contains(code)) {
                    throw e;
                }
                readOnly = "it cannot be written now (" + code + ": " + e.getMessage() + ")";
            }
        }
        return openReadOnly(absolute, scope, scopePinned, options, where, readOnly);
    }

    /** What SQLite answers when a file cannot be written: read-only media or file, a full disk, an I/O error. */
    private static final Set<SQLiteErrorCode> CANNOT_WRITE = EnumSet.of(SQLiteErrorCode.SQLITE_READONLY,
            SQLiteErrorCode.SQLITE_READONLY_CANTINIT, SQLiteErrorCode.SQLITE_READONLY_CANTLOCK,
            SQLiteErrorCode.SQLITE_READONLY_DBMOVED, SQLiteErrorCode.SQLITE_READONLY_DIRECTORY,
            SQLiteErrorCode.SQLITE_READONLY_RECOVERY, SQLiteErrorCode.SQLITE_READONLY_ROLLBACK,
            SQLiteErrorCode.SQLITE_FULL, SQLiteErrorCode.SQLITE_CANTOPEN, SQLiteErrorCode.SQLITE_IOERR,
            SQLiteErrorCode.SQLITE_IOERR_WRITE, SQLiteErrorCode.SQLITE_IOERR_FSYNC, SQLiteErrorCode.SQLITE_IOERR_TRUNCATE,
            SQLiteErrorCode.SQLITE_IOERR_SHMOPEN, SQLiteErrorCode.SQLITE_IOERR_SHMSIZE);

    private static SQLiteErrorCode sqliteCode(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException s) {
                return s.getResultCode();
            }
        }
        return null;
    }

    /**
     * Refuses a file with content that is not a SQLite database, before SQLite or a migration tries it (which would
     * report it as damaged, or, where it cannot be written, as a schema to migrate).
     *
     * @throws CorruptRecordException naming the file if it does not start with SQLite's file header
     */
    private static void requireSqliteFile(Path file, String where) {
        Boolean sqlite;
        try {
            sqlite = SqliteSchema.startsAsSqlite(file);
        } catch (IOException e) {
            throw new UnavailableException("cannot read " + where + ": " + IoErrors.describe(e), e);
        }
        if (Boolean.FALSE.equals(sqlite)) {
            throw new CorruptRecordException(where, "the file is not a SQLite database (it does not start with"
                    + " SQLite's file header); nothing was changed");
        }
    }

    /** Why an existing database file can only be read, or null when it and its directory can be written. */
    private static String whyReadOnly(Path file) {
        if (!Files.isWritable(file)) {
            return "the file cannot be written (a read-only file, or a read-only file system)";
        }
        Path dir = file.getParent();
        if (dir != null && !Files.isWritable(dir)) {
            return "its directory is read-only (SQLite cannot create its journal files there)";
        }
        return null;
    }

    /**
     * Opens a new or writable file, as {@link #open(Path, StoreOptions)} does, on a connection that {@code watch}
     * wraps: for tests that count what the store sends to SQLite.
     */
    static SqliteStore openWatched(Path file, StoreOptions options, UnaryOperator<Connection> watch) {
        Path absolute = file.toAbsolutePath();
        return openWritable(absolute, DEFAULT_SCOPE, false, options, "sqlite:" + absolute, watch);
    }

    private static SqliteStore openWritable(Path absolute, String scope, boolean scopePinned, StoreOptions options,
                                            String where, UnaryOperator<Connection> watch) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + absolute);
        SqliteSchema.migrate(absolute, dataSource, where);
        try {
            return new SqliteStore(absolute, scope, scopePinned,
                    new SqliteDialect(where, absolute, watch.apply(dataSource.getConnection())), options);
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "open the database");
        }
    }

    /**
     * Opens an existing database that cannot be written (read-only media, file or directory, a full disk) for reading
     * only: reads work, every write fails with an {@link UnavailableException} that says why. Where SQLite could not
     * create its shared-memory file (a read-only directory) and no write-ahead log holds unmerged commits, the file is
     * opened as immutable; a log that holds commits is read through SQLite's own read-only WAL support.
     *
     * @throws UnsupportedException if the schema is not current (it cannot be migrated without writing)
     */
    private static SqliteStore openReadOnly(Path absolute, String scope, boolean scopePinned, StoreOptions options,
                                            String where, String why) {
        SqliteSchema.ReadOnly opened = SqliteSchema.inspectReadOnly(absolute, where);
        int installed = opened.installed();
        if (installed != SqliteSchema.CURRENT_VERSION) {
            Migrations.refuseNewer(installed, SqliteSchema.CURRENT_VERSION, where);
            throw new UnsupportedException(where + " can only be read (" + why + "), and its schema (version "
                    + installed + ") must first be brought to version " + SqliteSchema.CURRENT_VERSION
                    + " by opening it where it can be written");
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        try {
            return new SqliteStore(absolute, scope, scopePinned, new SqliteDialect(where, absolute,
                    config.createConnection(opened.url()), why), options);
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "open the database for reading");
        }
    }

    /**
     * The database file, as an absolute path.
     *
     * @return the absolute path of the database file; the same for every scope's view of the store
     */
    public Path file() {
        return file;
    }

    @Override
    protected Store view(String scope) {
        return new SqliteStore(this, scope);
    }
}
