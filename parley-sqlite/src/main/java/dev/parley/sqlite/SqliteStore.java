package dev.parley.sqlite;

import dev.parley.core.InvalidInputException;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.internal.JdbcStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Objects;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

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
 *       each caller answered once its entries are durable (docs/09).</li>
 *   <li><b>Scope.</b> Every row carries the store's scope; {@link #withScope(String)} gives a view of another scope
 *       on the same connection. Files written by Parley before scopes (schema v2) are migrated on open, their
 *       contents into the scope {@value Store#DEFAULT_SCOPE}.</li>
 *   <li><b>Schema.</b> Opening applies the missing migrations; a file written by a newer Parley, or a SQLite database
 *       of another application, is refused with a {@link dev.parley.core.UnsupportedException} and left
 *       untouched.</li>
 *   <li><b>Cost.</b> An append inserts one row per new entry and updates one catalog row; nothing stored is
 *       rewritten, so its cost does not grow with the session.</li>
 * </ul>
 *
 * <p>Thread-safe: operations of the store and all its views are serialized on one connection. Closing the store
 * closes the connection; afterwards every operation fails with an {@link UnavailableException}.
 */
public final class SqliteStore extends JdbcStore {
    /** How long a writer waits for another process's write lock, in milliseconds. */
    public static final int BUSY_TIMEOUT_MILLIS = 10_000;

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
     * @throws InvalidInputException if the path is a directory
     * @throws UnavailableException if the file cannot be opened or migrated
     * @throws dev.parley.core.UnsupportedException if the file was written by a newer Parley, or is another
     *     application's database
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
            throw new UnavailableException("cannot create the directory of " + absolute + ": " + e.getMessage(), e);
        }
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
            return new SqliteStore(absolute, scope, scopePinned, new SqliteDialect(where, dataSource.getConnection()),
                    options);
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "open the database");
        }
    }

    /** The database file, as an absolute path. */
    public Path file() {
        return file;
    }

    @Override
    protected Store view(String scope) {
        return new SqliteStore(this, scope);
    }
}
