package dev.parley.sqlite;

import dev.parley.core.IoErrors;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.jdbc.internal.Migrations;
import dev.parley.jdbc.internal.ScriptMigration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;

/**
 * The database schema, versioned by Flyway migrations ({@link #PLAN}). Opening a store
 * applies missing migrations; a database written by a newer Parley is refused rather than guessed at, and a database
 * of another application is left alone.
 */
final class SqliteSchema {
    /** The highest migration version this code ships. A test checks it against the migration files. */
    static final int CURRENT_VERSION = 5;
    /**
     * The SQL migrations' location. Not {@code dev/parley/sqlite/migration}, where v3 was a SQL file until the tables
     * were shared: a build tree of that time keeps the file among its compiled resources, and Flyway would find v3
     * twice.
     */
    static final String LOCATION = "classpath:dev/parley/sqlite/schema/versions";
    private static final String HISTORY_EXISTS = "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table'"
            + " AND name = '" + Migrations.HISTORY_TABLE + "'";
    /** SQLite's spelling of the shared table scripts: ids compare by their bytes (BINARY, the default collation). */
    private static final Map<String, String> SPELLING = Map.of("text", "TEXT", "id", "TEXT", "time", "INTEGER",
            "json", "TEXT", "count", "INTEGER", "seq", "INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT", "decimal", "TEXT",
            "bool", "INTEGER");
    /**
     * v1, v2, v4 and v5 are SQL files at {@link #LOCATION}; v3 (the tables of every database, scoped, and what v1 and v2
     * stored moved into them) is the shared scripts, recorded as the SQL file {@code V3__scoped_tables.sql} that it
     * replaced (its checksum below).
     */
    static final Migrations.Plan PLAN = new Migrations.Plan(LOCATION, List.of(new ScriptMigration("3",
            "scoped tables", SPELLING, SqliteSchema.class.getClassLoader(), "dev/parley/jdbc/schema/log-tables.sql",
            "dev/parley/jdbc/schema/record-tables.sql", "dev/parley/sqlite/schema/v3-from-v2.sql")
            .recordedAs(198_996_442)));

    private SqliteSchema() {}

    /** The 16 bytes every SQLite database file starts with. */
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * Whether the file starts as a SQLite database does; null when it is empty (a new database, or one whose
     * first commits are still in its write-ahead log).
     *
     * @throws java.io.IOException if it cannot be read
     */
    static @org.jspecify.annotations.Nullable Boolean startsAsSqlite(Path file) throws java.io.IOException {
        byte[] head = new byte[SQLITE_HEADER.length];
        int n;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        return n == 0 ? null : n == head.length && java.util.Arrays.equals(head, SQLITE_HEADER);
    }

    /**
     * Brings the database at {@code file} to {@link #CURRENT_VERSION}. An existing file is first inspected through a
     * read-only connection that sets nothing, so a file that is refused is left byte for byte as it was (not even
     * switched to WAL). Parley's own objects without a finished history (a first open killed part-way, or one racing
     * another) are not foreign: the migration is finished. Concurrent first opens are retried until the schema is
     * current ({@link Migrations#migrate}).
     *
     * @throws UnsupportedException if the database's schema is newer than this code, or it is another
     *     application's database: it holds an object (table, view, index, trigger) that is not Parley's, or sets
     *     {@code user_version} or {@code application_id}, and has no Parley history
     * @throws UnavailableException if the migration fails
     */
    static void migrate(Path file, DataSource dataSource, String where) {
        if (sizeOf(file) > 0) {
            int installed = inspect(file, where);
            if (installed == CURRENT_VERSION) {
                return; // the common case: skip Flyway's start-up cost
            }
            Migrations.refuseNewer(installed, CURRENT_VERSION, where);
        }
        Migrations.migrate(dataSource, PLAN, false, where);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UnavailableException("cannot read " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * The installed version of an existing file, read without changing it.
     *
     * @throws UnsupportedException if it is another application's database
     */
    static int inspect(Path file, String where) {
        return inspect("jdbc:sqlite:" + file, where);
    }

    private static int inspect(String url, String where) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(SqliteStore.BUSY_TIMEOUT_MILLIS);
        try (Connection c = config.createConnection(url); Statement st = c.createStatement()) {
            int installed = Migrations.installedVersion(c, HISTORY_EXISTS);
            if (installed > 0) {
                return installed;
            }
            List<String> foreign = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT type || ' ' || name FROM sqlite_master"
                    + " WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'parley\\_%' ESCAPE '\\'"
                    + " ORDER BY name LIMIT 5")) {
                while (rs.next()) {
                    foreign.add(rs.getString(1));
                }
            }
            for (String pragma : List.of("user_version", "application_id")) {
                try (ResultSet rs = st.executeQuery("PRAGMA " + pragma)) {
                    if (rs.next() && rs.getLong(1) != 0) {
                        foreign.add(pragma + " " + rs.getLong(1));
                    }
                }
            }
            if (!foreign.isEmpty()) {
                throw new UnsupportedException(where + " is a SQLite database of another application (" + foreign
                        + "); Parley does not write into it: give a new file");
            }
            return 0;
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "read the schema version");
        }
    }

    /** How a database that cannot be written is read: the JDBC URL that opened it, and its installed version. */
    record ReadOnly(String url, int installed) {}

    /**
     * Opens an existing database that cannot be written, read-only, and reads its installed version. SQLite reads a
     * WAL database read-only only where it can find or create its shared-memory file; where it cannot (a read-only
     * directory or file system) and no write-ahead log holds commits, the file is read as immutable, which needs
     * neither.
     *
     * @throws UnsupportedException if it is another application's database
     * @throws UnavailableException if it cannot be read
     */
    static ReadOnly inspectReadOnly(Path file, String where) {
        String readOnly = "jdbc:sqlite:file:" + uriPath(file) + "?mode=ro";
        try {
            return new ReadOnly(readOnly, inspect(readOnly, where));
        } catch (UnavailableException e) {
            Path wal = Path.of(file + "-wal");
            if (sizeOf(wal) > 0) {
                throw e;
            }
            String immutable = "jdbc:sqlite:file:" + uriPath(file) + "?immutable=1";
            return new ReadOnly(immutable, inspect(immutable, where));
        }
    }

    /** A path as the path of a SQLite URI filename: the characters a URI gives meaning to escaped. */
    private static String uriPath(Path file) {
        return file.toAbsolutePath().toString().replace("%", "%25").replace("?", "%3f").replace("#", "%23");
    }

    /** The highest successfully applied migration version, or 0 for a database without Parley's schema. */
    static int installedVersion(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection()) {
            return Migrations.installedVersion(c, HISTORY_EXISTS);
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "read the schema version");
        }
    }
}
