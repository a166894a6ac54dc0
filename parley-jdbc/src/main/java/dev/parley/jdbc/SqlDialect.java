package dev.parley.jdbc;

import dev.parley.core.ParleyException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
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
 * <p>Implementations are thread-safe.
 */
public interface SqlDialect {

    /** Work on a borrowed connection. */
    @FunctionalInterface
    interface ConnectionWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Where the database is, for messages: the store URI with secrets masked (e.g. {@code sqlite:/var/parley.db}). */
    String where();

    /**
     * Lends a connection for the duration of {@code work}, in auto-commit mode; the caller may open a transaction on
     * it and must end it before returning. SQLite lends its one connection to one caller at a time; PostgreSQL lends
     * a pooled one.
     *
     * @throws SQLException if no connection can be had, or the work failed
     */
    <T> T withConnection(ConnectionWork<T> work) throws SQLException;

    /**
     * The clause that locks the rows a {@code SELECT} reads until the transaction ends: {@code " FOR UPDATE"}, or
     * {@code ""} where a write transaction already excludes every other writer.
     */
    String forUpdate();

    /** The placeholder of a parameter bound to a JSON column, with the cast the database needs ({@code ?::json}). */
    String jsonParameter();

    /**
     * The predicate that {@code column} is one of the strings bound, as one parameter, by {@link #bindStrings}, e.g.
     * {@code entry_id = ANY (?)}.
     */
    String isAnyOf(String column);

    /** Binds the strings that {@link #isAnyOf} compares with. */
    void bindStrings(Connection connection, PreparedStatement st, int index, Collection<String> values)
            throws SQLException;

    /** Binds an instant (millisecond precision) to a time column. */
    void setInstant(PreparedStatement st, int index, Instant instant) throws SQLException;

    /** Reads an instant bound by {@link #setInstant}; never null (time columns are {@code NOT NULL}). */
    Instant getInstant(ResultSet rs, int column) throws SQLException;

    /** Binds an exact decimal, or SQL NULL. */
    void setDecimal(PreparedStatement st, int index, @Nullable BigDecimal value) throws SQLException;

    /**
     * Reads a decimal bound by {@link #setDecimal}.
     *
     * @throws NumberFormatException if the stored value is not a decimal
     */
    @Nullable BigDecimal getDecimal(ResultSet rs, int column) throws SQLException;

    /**
     * The stored form of free text bound to a text column (a title, an origin, a workspace id, a summary). Must be
     * injective and keep equality, so a filter on the column compares stored forms. Identity where the database
     * stores every string as is.
     */
    @Nullable String escape(@Nullable String text);

    /**
     * The text a stored form came from.
     *
     * @throws IllegalArgumentException if {@code stored} is not a form {@link #escape} writes
     */
    @Nullable String unescape(@Nullable String stored);

    /** Whether the failure is a violated unique or primary-key constraint. */
    boolean isUniqueViolation(SQLException e);

    /**
     * Parley's error for a failed statement: {@link dev.parley.core.UnavailableException} (retriable) for locks,
     * lost connections and resource exhaustion, {@link dev.parley.core.CorruptRecordException} for a damaged
     * database. The SQL exception is the cause.
     *
     * @param doing what was being done, for the message ("append to session s1")
     */
    ParleyException map(SQLException e, String doing);

    /** The prefix of the archive locators this database's archives hand out (e.g. {@code sqlite-archive:}). */
    String archiveLocatorPrefix();

    /** Releases the connections. Called once, when the store is closed. */
    void close();
}
