package dev.parley.jdbc;

import dev.parley.core.ParleyException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What differs between the databases Parley's one JDBC store runs on; everything else — the SQL of the message log,
 * its catalog, the session records and the archives, and their transactions — is shared
 * ({@code dev.parley.jdbc.internal}). The tables are the same on every database: {@code parley_log_sessions},
 * {@code parley_log_entries}, {@code parley_log_usage}, {@code parley_chat_sessions},
 * {@code parley_chat_archive_heads} and {@code parley_chat_archives}, with the scope in every key.
 *
 * <p>A dialect owns the database's connections: {@link #withConnection} lends one, and a write transaction on it
 * must keep every other writer of the same rows out until it ends — SQLite by taking the database's write lock when
 * the transaction begins ({@code BEGIN IMMEDIATE}), PostgreSQL by the row locks that {@link #forUpdate()} adds.
 *
 * <p>The SQL spellings that differ are given to the constructor; the behaviour that differs is implemented.
 * Implementations are thread-safe.
 */
public abstract class SqlDialect {

    /** Work on a borrowed connection. */
    @FunctionalInterface
    public interface ConnectionWork<T> {
        /**
         * Does the work. The connection is lent in auto-commit mode, for this call only: the work must end any
         * transaction it opens and must not close the connection or keep it.
         *
         * @param connection the lent connection
         * @return what {@link SqlDialect#withConnection} returns
         * @throws SQLException if the database fails; it propagates out of {@code withConnection}
         */
        T run(Connection connection) throws SQLException;
    }

    /**
     * The SQL spellings of a database.
     *
     * @param forUpdate the clause that locks the rows a {@code SELECT} reads until the transaction ends
     *     ({@code " FOR UPDATE"}), or {@code ""} where a write transaction already excludes every other writer
     * @param jsonParameter the placeholder of a parameter bound to a JSON column, with the cast the database needs
     *     ({@code ?::json})
     * @param isAnyOf the predicate that a column ({@code %s}) is one of the strings bound, as one parameter, by
     *     {@link #bindStrings} (e.g. {@code %s = ANY (?)})
     * @param archiveLocatorPrefix the prefix of the archive locators this database's archives hand out
     *     ({@code sqlite-archive:})
     * @param nextSeq the value of {@code parley_log_entries.seq} in an {@code INSERT}: above every seq the table ever
     *     held, so that none is reused ({@code DEFAULT}, for an identity column, whose values may skip some)
     */
    public record Spelling(String forUpdate, String jsonParameter, String isAnyOf, String archiveLocatorPrefix,
                           String nextSeq) {
        /**
         * Checks the parts; their SQL is taken as given.
         *
         * @param forUpdate the clause that locks the rows a {@code SELECT} reads, or {@code ""}
         * @param jsonParameter the placeholder of a parameter bound to a JSON column
         * @param isAnyOf the predicate that a column ({@code %s}) is one of the strings bound as one parameter
         * @param archiveLocatorPrefix the prefix of the archive locators
         * @param nextSeq the value of {@code parley_log_entries.seq} in an {@code INSERT}
         * @throws NullPointerException if any part is null
         */
        public Spelling {
            Objects.requireNonNull(forUpdate, "forUpdate");
            Objects.requireNonNull(jsonParameter, "jsonParameter");
            Objects.requireNonNull(isAnyOf, "isAnyOf");
            Objects.requireNonNull(archiveLocatorPrefix, "archiveLocatorPrefix");
            Objects.requireNonNull(nextSeq, "nextSeq");
        }

        /**
         * The spellings of a database whose {@code seq} is an identity column: {@link #nextSeq} is {@code DEFAULT}.
         *
         * @param forUpdate the clause that locks the rows a {@code SELECT} reads, or {@code ""}
         * @param jsonParameter the placeholder of a parameter bound to a JSON column
         * @param isAnyOf the predicate that a column ({@code %s}) is one of the strings bound as one parameter
         * @param archiveLocatorPrefix the prefix of the archive locators
         * @throws NullPointerException if any part is null
         */
        public Spelling(String forUpdate, String jsonParameter, String isAnyOf, String archiveLocatorPrefix) {
            this(forUpdate, jsonParameter, isAnyOf, archiveLocatorPrefix, "DEFAULT");
        }
    }

    private final String where;
    private final Spelling spelling;

    /**
     * @param where where the database is, for messages: the store URI with secrets masked
     *     (e.g. {@code sqlite:/var/parley.db})
     * @param spelling the database's SQL spellings
     */
    protected SqlDialect(String where, Spelling spelling) {
        this.where = Objects.requireNonNull(where, "where");
        this.spelling = Objects.requireNonNull(spelling, "spelling");
    }

    /**
     * Where the database is, for messages.
     *
     * @return the {@code where} given to the constructor: the store URI with secrets masked
     */
    public final String where() {
        return where;
    }

    /**
     * See {@link Spelling#forUpdate()}.
     *
     * @return the clause to append to a {@code SELECT} that locks its rows, or {@code ""}
     */
    public final String forUpdate() {
        return spelling.forUpdate();
    }

    /**
     * See {@link Spelling#jsonParameter()}.
     *
     * @return the placeholder of a parameter bound to a JSON column
     */
    public final String jsonParameter() {
        return spelling.jsonParameter();
    }

    /**
     * The predicate that {@code column} is one of the strings {@link #bindStrings} binds.
     *
     * @param column the column to test, as SQL; put in place of the spelling's {@code %s} as is
     * @return the predicate, with one parameter, to be bound by {@link #bindStrings}
     */
    public final String isAnyOf(String column) {
        return String.format(Locale.ROOT, spelling.isAnyOf(), column);
    }

    /**
     * See {@link Spelling#nextSeq()}.
     *
     * @return the SQL of a new entry's {@code seq} in an {@code INSERT}
     */
    public final String nextSeq() {
        return spelling.nextSeq();
    }

    /**
     * See {@link Spelling#archiveLocatorPrefix()}.
     *
     * @return the prefix of the archive locators this database's archives hand out
     */
    public final String archiveLocatorPrefix() {
        return spelling.archiveLocatorPrefix();
    }

    /**
     * Lends a connection for the duration of {@code work}, in auto-commit mode; the caller may open a transaction on
     * it and must end it before returning. SQLite lends its one connection to one caller at a time; PostgreSQL lends
     * a pooled one.
     *
     * @param <T> the type of the work's result
     * @param work the work to run on the lent connection
     * @return what {@code work} returned
     * @throws SQLException if no connection can be had, or the work failed
     */
    public abstract <T> T withConnection(ConnectionWork<T> work) throws SQLException;

    /**
     * Rolls back the transaction open on a lent connection, if any, and returns the connection to auto-commit mode.
     * By default {@code rollback()}, then {@code setAutoCommit(true)}.
     *
     * @param connection a connection lent by {@link #withConnection}, in manual-commit mode
     * @throws SQLException if the rollback failed: a transaction may still be open, and the connection is left in
     *     manual-commit mode, since leaving it would commit what is open (the next transaction on the connection
     *     calls this again first); or if the return to auto-commit mode failed
     */
    public void rollback(Connection connection) throws SQLException {
        connection.rollback();
        connection.setAutoCommit(true);
    }

    /**
     * How many group commits of appends may run at once: the store keeps this many independent group-commit lanes,
     * each with its own queue, leader and transaction, and sends an append to the lane its session hashes to. The
     * appends of one session share a lane, so no two groups of one store contend for one session's rows; an append
     * that waits (for a row lock another process holds) holds up only the sessions of its lane. Each lane's group
     * holds one connection while it runs: a dialect that answers more than 1 must lend concurrent callers of
     * {@link #withConnection} distinct connections.
     *
     * <p>Read once, when the store is opened; at least 1. By default 1 — one group at a time — which is what SQLite
     * keeps: its write lock lets one writer in at a time anyway. A database that commits transactions in parallel
     * answers more, but fewer than its connections, so that reads and the writes outside group commit still get one
     * (PostgreSQL: half the pool, at most 4).
     *
     * @return the number of lanes, at least 1; with fewer the store fails to open
     */
    public int groupCommitLanes() {
        return 1;
    }

    /**
     * Whether each statement is a round trip to a server: then a group commit runs its units without savepoints first
     * (each savepoint would be two more round trips) and again in savepoints only when one fails. By default false:
     * SQLite runs in the process, where a savepoint costs next to nothing.
     *
     * @return true if every statement is a round trip to a database server
     */
    public boolean statementsCostRoundTrips() {
        return false;
    }

    /**
     * Whether the driver sends the statements of one {@code PreparedStatement}, separated by {@code ;}, to the database
     * at once — one round trip — and the database runs them in order, each seeing what those before it wrote and
     * locked, with its results (an update count or a result set) read in turn through
     * {@link java.sql.Statement#getMoreResults()}. Then the store sends an append's statements together and checks
     * what they read afterwards (rolling back when the check fails); otherwise it sends them one by one. By default
     * false: SQLite's driver runs only the first statement of such a text (and has no round trips to save).
     *
     * @return true if a text of several statements is sent at once and run in order, as described
     */
    public boolean sendsStatementsAtOnce() {
        return false;
    }

    /**
     * Binds the strings that {@link #isAnyOf} compares with.
     *
     * @param connection the connection {@code st} was prepared on (PostgreSQL creates the array on it)
     * @param st the statement whose SQL holds the predicate of {@link #isAnyOf}
     * @param index the 1-based index of the predicate's parameter
     * @param values the strings the column is compared with
     * @throws SQLException if the driver cannot bind them
     */
    public abstract void bindStrings(Connection connection, PreparedStatement st, int index, Collection<String> values)
            throws SQLException;

    /**
     * Binds an instant to a time column, at the precision the database keeps: SQLite's dialect whole milliseconds,
     * PostgreSQL's microseconds ({@code timestamptz}).
     *
     * @param st the statement
     * @param index the 1-based index of the parameter
     * @param instant the instant
     * @throws SQLException if the driver cannot bind it
     */
    public abstract void setInstant(PreparedStatement st, int index, Instant instant) throws SQLException;

    /**
     * Reads an instant bound by {@link #setInstant}; never null (time columns are {@code NOT NULL}).
     *
     * @param rs the result set, on the row to read
     * @param column the 1-based index of the time column
     * @return the stored instant
     * @throws SQLException if the driver cannot read it
     */
    public abstract Instant getInstant(ResultSet rs, int column) throws SQLException;

    /**
     * Binds an exact decimal, or SQL NULL.
     *
     * @param st the statement
     * @param index the 1-based index of the parameter
     * @param value the decimal, or null for SQL NULL
     * @throws SQLException if the driver cannot bind it
     */
    public abstract void setDecimal(PreparedStatement st, int index, @Nullable BigDecimal value) throws SQLException;

    /**
     * Reads a decimal bound by {@link #setDecimal}.
     *
     * @param rs the result set, on the row to read
     * @param column the 1-based index of the decimal column
     * @return the stored decimal, or null when the column is SQL NULL
     * @throws SQLException if the driver cannot read it
     * @throws NumberFormatException if the stored value is not a decimal
     */
    public abstract @Nullable BigDecimal getDecimal(ResultSet rs, int column) throws SQLException;

    /**
     * The stored form of free text bound to a text column (a title, an origin, a workspace id, a summary). Must be
     * injective and keep equality, so a filter on the column compares stored forms. By default the identity, for
     * databases that store every string as is.
     *
     * @param text the text to store, or null
     * @return its stored form; null for null
     */
    public @Nullable String escape(@Nullable String text) {
        return text;
    }

    /**
     * The text a stored form came from; by default the identity.
     *
     * @param stored the stored form, as read from the column, or null
     * @return the text {@link #escape} was given for it; null for null
     * @throws IllegalArgumentException if {@code stored} is not a form {@link #escape} writes
     */
    public @Nullable String unescape(@Nullable String stored) {
        return stored;
    }

    /**
     * Whether the failure is a violated unique or primary-key constraint.
     *
     * @param e the failure of a statement
     * @return true if it is a violated unique or primary-key constraint
     */
    public abstract boolean isUniqueViolation(SQLException e);

    /**
     * Parley's error for a failed statement: {@link dev.parley.core.UnavailableException} (retriable) for locks,
     * lost connections and resource exhaustion, {@link dev.parley.core.CorruptRecordException} for a damaged
     * database. The SQL exception is the cause.
     *
     * @param e the failure; it becomes the cause of the error returned
     * @param doing what was being done, for the message ("append to session s1")
     * @return the error, for the caller to throw; never null
     */
    public abstract ParleyException map(SQLException e, String doing);

    /** Releases the connections. Called once, when the store is closed. */
    public abstract void close();
}
