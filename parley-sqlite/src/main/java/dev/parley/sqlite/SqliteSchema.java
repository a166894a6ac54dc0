package dev.parley.sqlite;

import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The database schema, versioned by Flyway migrations under {@code dev/parley/sqlite/migration}. Opening a store
 * applies missing migrations; a database written by a newer Parley is refused rather than guessed at.
 */
final class SqliteSchema {
    /** The highest migration version this code ships. A test checks it against the migration files. */
    static final int CURRENT_VERSION = 2;
    static final String HISTORY_TABLE = "parley_schema_history";
    static final String LOCATION = "classpath:dev/parley/sqlite/migration";
    /** Flyway reports each step at INFO through java.util.logging; a migration is not news. Held strongly. */
    private static final java.util.logging.Logger FLYWAY_LOG = java.util.logging.Logger.getLogger("org.flywaydb");

    static {
        FLYWAY_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    private SqliteSchema() {}

    /**
     * Brings the database to {@link #CURRENT_VERSION}.
     *
     * @throws UnsupportedException if the database's schema is newer than this code
     * @throws UnavailableException if the migration fails
     */
    static void migrate(DataSource dataSource, String where) {
        int installed = installedVersion(dataSource, where);
        if (installed == CURRENT_VERSION) {
            return; // the common case: skip Flyway's start-up cost
        }
        if (installed == 0) {
            refuseForeign(dataSource, where);
        }
        if (installed > CURRENT_VERSION) {
            throw new UnsupportedException(where + " has schema version " + installed
                    + ", newer than this Parley understands (" + CURRENT_VERSION + "); upgrade Parley to open it");
        }
        try {
            Flyway.configure(SqliteSchema.class.getClassLoader())
                    .dataSource(dataSource)
                    .locations(LOCATION)
                    .table(HISTORY_TABLE)
                    .failOnMissingLocations(true)
                    .load()
                    .migrate();
        } catch (FlywayException e) {
            throw new UnavailableException("cannot migrate the schema of " + where + ": " + e.getMessage(), e);
        }
    }

    /** The highest successfully applied migration version, or 0 for a database without Parley's schema. */
    static int installedVersion(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '"
                    + HISTORY_TABLE + "'")) {
                if (!rs.next() || rs.getInt(1) == 0) {
                    return 0;
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT version FROM " + HISTORY_TABLE
                    + " WHERE success = 1 AND version IS NOT NULL")) {
                return newest(rs);
            }
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, "read the schema version");
        }
    }

    private static int newest(ResultSet rs) throws SQLException {
        java.util.List<String> versions = new java.util.ArrayList<>();
        while (rs.next()) {
            versions.add(rs.getString(1));
        }
        return dev.parley.core.store.SchemaVersions.newest(versions);
    }

    /** A database that holds other tables and no Parley history belongs to another application: leave it alone. */
    private static void refuseForeign(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'"
                     + " AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 5")) {
            java.util.List<String> tables = new java.util.ArrayList<>();
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
            if (!tables.isEmpty()) {
                throw new UnsupportedException(where + " is a SQLite database of another application (tables " + tables
                        + "); Parley does not write into it: give a new file");
            }
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, "read the tables");
        }
    }
}
