package dev.parley.postgres;

import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.jdbc.internal.Migrations;
import dev.parley.jdbc.internal.ScriptMigration;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Parley's tables in a PostgreSQL database, versioned by Flyway migrations (SQL files under
 * {@code dev/parley/postgres/schema/versions} and the table scripts every database shares) and recorded in
 * {@value #HISTORY_TABLE}. A host may let a store apply them on
 * start ({@link PostgresStore.Builder#migrate(boolean)}) or run {@link #migrate} itself, e.g. from a deployment job
 * with a more privileged role; either way a database whose schema is newer than the code is refused.
 *
 * <p>Several replicas may migrate at once: Flyway serializes them with a PostgreSQL advisory lock.
 */
public final class PostgresSchema {
    /** The highest migration version this code ships. A test checks it against the migration files. */
    public static final int CURRENT_VERSION = 3;
    /** Flyway's history table for Parley's migrations. */
    public static final String HISTORY_TABLE = Migrations.HISTORY_TABLE;
    private static final String HISTORY_EXISTS = "SELECT to_regclass('" + HISTORY_TABLE + "') IS NOT NULL";
    /**
     * The SQL migrations' location. Not {@code dev/parley/postgres/migration}, where v1 and v2 were SQL files until
     * the tables were shared: a build tree of that time keeps them among its compiled resources, and Flyway would find
     * them twice.
     */
    static final String LOCATION = "classpath:dev/parley/postgres/schema/versions";
    /**
     * PostgreSQL's spelling of the shared table scripts: ids in {@code COLLATE "C"}, which makes their order byte
     * order on every server locale; JSON as {@code json}, not {@code jsonb}, which would normalise the exact text away
     * and refuses the escape of NUL. Text columns hold no NUL: Parley escapes it ({@link PgText}).
     */
    private static final Map<String, String> SPELLING = Map.of("text", "text", "id", "text COLLATE \"C\"", "time",
            "timestamptz", "json", "json", "count", "bigint", "seq", "bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
            "decimal", "numeric", "bool", "boolean");
    /**
     * v1 (the message log) and v2 (session records and archives) are the shared scripts, recorded as the SQL files
     * {@code V1__message_log.sql} and {@code V2__session_records.sql} that they replaced (their checksums below); v3
     * is a SQL file at {@link #LOCATION}.
     */
    static final Migrations.Plan PLAN = new Migrations.Plan(LOCATION, List.of(
            new ScriptMigration("1", "message log", SPELLING, PostgresSchema.class.getClassLoader(),
                    "dev/parley/jdbc/schema/log-tables.sql").recordedAs(-1_296_330_626),
            new ScriptMigration("2", "session records", SPELLING, PostgresSchema.class.getClassLoader(),
                    "dev/parley/jdbc/schema/record-tables.sql").recordedAs(886_231_828)));

    private PostgresSchema() {}

    /**
     * Brings the database's Parley tables to {@link #CURRENT_VERSION}, in the connection's current schema.
     *
     * @param dataSource the database to migrate, reached through its connections; not closed
     * @throws UnsupportedException if the database's schema is newer than this code, or it is not UTF-8
     * @throws UnavailableException if the database cannot be reached or a migration fails
     */
    public static void migrate(DataSource dataSource) {
        String where = describe(dataSource);
        checkEncoding(dataSource, where);
        int installed = installedVersion(dataSource, where);
        if (installed == CURRENT_VERSION) {
            return;
        }
        Migrations.refuseNewer(installed, CURRENT_VERSION, where);
        Migrations.migrate(dataSource, PLAN, true, where);
    }

    /**
     * Checks, without changing anything, that the database has exactly the schema this code needs.
     *
     * @param dataSource the database to check, reached through its connections; not closed
     * @throws UnsupportedException if the schema is newer than this code, or the database is not UTF-8
     * @throws UnavailableException if it is older or absent (run the migrations), or the database cannot be reached
     */
    public static void validate(DataSource dataSource) {
        String where = describe(dataSource);
        checkEncoding(dataSource, where);
        int installed = installedVersion(dataSource, where);
        Migrations.refuseNewer(installed, CURRENT_VERSION, where);
        if (installed < CURRENT_VERSION) {
            throw new UnavailableException(where + " has Parley schema version " + installed + "; this code needs "
                    + CURRENT_VERSION + ": run the migrations (PostgresSchema.migrate, or open the store with migration"
                    + " enabled)", null);
        }
    }

    /**
     * The highest successfully applied migration version, or 0 when Parley's tables are absent.
     *
     * @param dataSource the database to read, reached through its connections; not closed
     * @return the newest version recorded as applied in {@value #HISTORY_TABLE}, a point release rounded up
     *     ({@link dev.parley.core.store.SchemaVersions#newest}); 0 when the connection finds no such table
     * @throws UnavailableException if the database cannot be reached or read
     */
    public static int installedVersion(DataSource dataSource) {
        return installedVersion(dataSource, describe(dataSource));
    }

    private static int installedVersion(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection()) {
            return Migrations.installedVersion(c, HISTORY_EXISTS);
        } catch (SQLException e) {
            throw PostgresErrors.map(e, where, "read the schema version");
        }
    }

    /** Catalog order compares ids by UTF-8 bytes, which {@code COLLATE "C"} gives only in a UTF-8 database. */
    private static void checkEncoding(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SHOW server_encoding")) {
            String encoding = rs.next() ? rs.getString(1) : "?";
            if (!encoding.equalsIgnoreCase("UTF8")) {
                throw new UnsupportedException(where + " has server encoding " + encoding
                        + "; Parley needs a UTF8 database (CREATE DATABASE … ENCODING 'UTF8')");
            }
        } catch (SQLException e) {
            throw PostgresErrors.map(e, where, "read the server encoding");
        }
    }

    static String describe(DataSource dataSource) {
        if (dataSource instanceof com.zaxxer.hikari.HikariDataSource h && h.getJdbcUrl() != null) {
            return "postgres:" + PostgresStoreProvider.redact(h.getJdbcUrl());
        }
        return "postgres:" + dataSource.getClass().getSimpleName();
    }
}
