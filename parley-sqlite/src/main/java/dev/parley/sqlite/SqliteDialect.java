package dev.parley.sqlite;

import dev.parley.core.CorruptRecordException;
import dev.parley.core.IoErrors;
import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import dev.parley.jdbc.SqlDialect;
import dev.parley.json.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import org.apache.commons.dbcp2.DelegatingPreparedStatement;
import org.apache.commons.dbcp2.PoolingConnection;
import org.apache.commons.pool2.impl.GenericKeyedObjectPool;
import org.apache.commons.pool2.impl.GenericKeyedObjectPoolConfig;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * SQLite's side of the shared JDBC store: one connection, lent to one caller at a time, whose transactions begin
 * with {@code BEGIN IMMEDIATE} (the connection is configured so), which takes the database's write lock — other
 * processes' writers wait for it up to the busy timeout. So no row lock is needed. Times are epoch milliseconds,
 * decimals their plain text, and text is stored as is (SQLite keeps NUL).
 */
final class SqliteDialect extends SqlDialect {
    static final String LOCATOR_PREFIX = "sqlite-archive:";
    private static final Set<SQLiteErrorCode> DAMAGED = Set.copyOf(EnumSet.of(SQLiteErrorCode.SQLITE_CORRUPT,
            SQLiteErrorCode.SQLITE_NOTADB, SQLiteErrorCode.SQLITE_CORRUPT_INDEX, SQLiteErrorCode.SQLITE_CORRUPT_VTAB));
    private static final Set<SQLiteErrorCode> LOCKED = Set.copyOf(EnumSet.of(SQLiteErrorCode.SQLITE_BUSY,
            SQLiteErrorCode.SQLITE_LOCKED, SQLiteErrorCode.SQLITE_BUSY_RECOVERY, SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT));
    /**
     * A new entry's seq: one above the highest stored and the highest ever deleted (schema v5's floor, which a trigger
     * keeps), so that no seq is reused without AUTOINCREMENT's counter row, which an insert would rewrite.
     */
    private static final String NEXT_SEQ = "(SELECT max(coalesce((SELECT max(seq) FROM parley_log_entries), 0),"
            + " (SELECT seq FROM parley_log_seq_floor)) + 1)";
    private static final Spelling SPELLING = new Spelling("", "?", "%s IN (SELECT value FROM json_each(?))",
            LOCATOR_PREFIX, NEXT_SEQ);

    /** The most prepared statements the connection keeps compiled: more than the store's distinct SQL texts. */
    private static final int STATEMENT_CACHE_SIZE = 128;

    private final Connection connection;
    private final @Nullable String readOnly;
    private final Path file;
    /** The identity (device and inode, where the platform has one) of the file the connection opened. */
    private final @Nullable Object fileKey;

    SqliteDialect(String where, Path file, Connection connection) throws SQLException {
        this(where, file, connection, null);
    }

    /**
     * @param file the database file the connection opened
     * @param readOnly why the connection was opened for reading only, or null when it writes: a write then fails with
     *     an error that says so
     * @throws SQLException if the file cannot be read as the connection opened it
     */
    SqliteDialect(String where, Path file, Connection connection, @Nullable String readOnly) throws SQLException {
        super(where, SPELLING);
        this.connection = cachingStatements(connection);
        this.readOnly = readOnly;
        this.file = file;
        try {
            this.fileKey = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            throw new SQLException("cannot read the attributes of " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * {@inheritDoc} The one connection is lent in auto-commit mode: if a failed rollback left it in manual-commit mode,
     * it is rolled back first ({@link #rollback}), so that what it may hold is neither read nor committed with the
     * work; if that fails too, the work does not run. When the work has run, the database file must still be at its
     * path ({@link #requireFileInPlace}): what it read or committed is otherwise reported as failed.
     */
    @Override
    public synchronized <T> T withConnection(ConnectionWork<T> work) throws SQLException {
        if (!connection.getAutoCommit()) {
            rollback(connection);
        }
        T result = work.run(connection);
        requireFileInPlace();
        return result;
    }

    /**
     * Refuses to answer from a database file that was deleted, or replaced by another file (a rename over it), while
     * the connection had it open. SQLite goes on reading and writing the file it opened, so a commit succeeds — into a
     * file that is gone once the connection closes, and that no other process sees. Checked after each piece of work
     * (one {@code stat} of the path), so a write is never acknowledged from such a file; it also fails every read, and
     * with it a health check. A file moved back into place is used again.
     *
     * @throws UnavailableException naming the path if the file there is not the one opened, or is not there
     */
    private void requireFileInPlace() {
        Object now;
        try {
            now = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            throw fileGone("deleted or moved away", e);
        } catch (IOException e) {
            throw new UnavailableException(where() + ": cannot check that the database file is still in place: "
                    + IoErrors.describe(e), e);
        }
        if (fileKey != null && !fileKey.equals(now)) {
            throw fileGone("replaced by another file", null);
        }
    }

    private UnavailableException fileGone(String how, @Nullable Exception cause) {
        return new UnavailableException(where() + ": the database file was " + how + " while this store had it open;"
                + " SQLite goes on with the file it opened, which is no longer at that path, so nothing this store reads"
                + " or writes now is acknowledged. Close the store. Move or replace a database file only together with"
                + " its -wal and -shm files, and only while no process has it open: a -wal file left beside another"
                + " database file is applied to it when it is opened", cause);
    }

    @Override
    public void bindStrings(Connection c, PreparedStatement st, int index, Collection<String> values)
            throws SQLException {
        st.setString(index, Json.write(Json.mapper().valueToTree(values)));
    }

    @Override
    public void setInstant(PreparedStatement st, int index, Instant instant) throws SQLException {
        st.setLong(index, instant.toEpochMilli());
    }

    @Override
    public Instant getInstant(ResultSet rs, int column) throws SQLException {
        return Instant.ofEpochMilli(rs.getLong(column));
    }

    @Override
    public void setDecimal(PreparedStatement st, int index, @Nullable BigDecimal value) throws SQLException {
        st.setString(index, value == null ? null : value.toPlainString());
    }

    @Override
    public @Nullable BigDecimal getDecimal(ResultSet rs, int column) throws SQLException {
        String text = rs.getString(column);
        return text == null ? null : new BigDecimal(text);
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        SQLiteErrorCode code = codeOf(e);
        return code == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE || code == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY;
    }

    /**
     * SQLite's result code of a failure, or null: the exception's own, or its nearest cause's (the statement cache
     * wraps a failure to prepare).
     */
    private static @Nullable SQLiteErrorCode codeOf(SQLException e) {
        SQLiteException cause = sqliteCause(e);
        return cause == null ? null : cause.getResultCode();
    }

    private static @Nullable SQLiteException sqliteCause(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLiteException s) {
                return s;
            }
        }
        return null;
    }

    @Override
    public ParleyException map(SQLException e, String doing) {
        SQLiteErrorCode code = codeOf(e);
        if (readOnly != null && code != null && code.name().startsWith("SQLITE_READONLY")) {
            return new UnavailableException(where() + " is open for reading only, because " + readOnly
                    + "; could not " + doing, e);
        }
        return map(e, where(), doing);
    }

    /** Parley's error for a SQLite failure; the SQL exception is the cause. */
    static ParleyException map(SQLException e, String where, String doing) {
        SQLiteException cause = sqliteCause(e);
        SQLiteErrorCode code = cause == null ? null : cause.getResultCode();
        if (code != null && DAMAGED.contains(code)) {
            return new CorruptRecordException(where, "the database file is damaged (" + code + ") while trying to "
                    + doing, e);
        }
        if (code != null && LOCKED.contains(code)) {
            return new UnavailableException(where + " is locked by another writer: another process held its write lock"
                    + " for more than " + SqliteStore.BUSY_TIMEOUT_MILLIS / 1000 + " s (a large import, or a process"
                    + " stopped in the middle of a write); could not " + doing + ". Nothing was written: retry when"
                    + " that process has finished", e);
        }
        return new UnavailableException("could not " + doing + " in " + where + ": "
                + (cause != null ? cause : e).getMessage(), e);
    }

    /**
     * Rolls back by a plain {@code ROLLBACK} and then leaves manual-commit mode. Not the driver's
     * {@code rollback()}, which begins the next transaction at once ({@code BEGIN IMMEDIATE}, waiting up to the busy
     * timeout for another process's write lock) and fails when no transaction is open — which SQLite makes so itself
     * after some failures (an I/O error, a full disk), and the driver after a {@code BEGIN} that failed once it had
     * recorded manual-commit mode. A {@code ROLLBACK} that finds nothing open is what was wanted. The driver records
     * auto-commit mode before it sends the {@code COMMIT} that then finds nothing to commit.
     *
     * @throws SQLException if the {@code ROLLBACK} failed otherwise: a transaction may be open, and the connection
     *     stays in manual-commit mode
     */
    @Override
    public void rollback(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("ROLLBACK");
        } catch (SQLException e) {
            if (!noTransaction(e)) {
                throw e;
            }
        }
        try {
            c.setAutoCommit(true);
        } catch (SQLException e) {
            if (!noTransaction(e)) {
                throw e;
            }
        }
    }

    /** Whether SQLite refused a {@code ROLLBACK} or {@code COMMIT} because no transaction is open. */
    private static boolean noTransaction(SQLException e) {
        SQLiteException cause = sqliteCause(e);
        return cause != null && cause.getResultCode() == SQLiteErrorCode.SQLITE_ERROR && cause.getMessage() != null
                && cause.getMessage().contains("no transaction is active");
    }

    /**
     * The connection with a cache of its prepared statements: SQLite compiles a statement's text on every prepare
     * (about a sixth of an append's time, measured), and the store prepares the same few texts over and over. A
     * statement closed by its user returns to the cache, its parameters cleared; closing the connection closes them.
     */
    private static Connection cachingStatements(Connection connection) {
        PoolingConnection pooling = new PoolingConnection(connection);
        GenericKeyedObjectPoolConfig<DelegatingPreparedStatement> config = new GenericKeyedObjectPoolConfig<>();
        config.setMaxTotalPerKey(8); // the same text open more than once: nested reads
        config.setMaxTotal(STATEMENT_CACHE_SIZE);
        config.setBlockWhenExhausted(false);
        config.setJmxEnabled(false); // on by default: every store would register an MBean that keeps it reachable
        pooling.setStatementPool(new GenericKeyedObjectPool<>(pooling, config));
        return pooling;
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw map(e, where(), "close the database");
        }
    }
}
