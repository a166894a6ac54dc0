package dev.parley.sqlite;

import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.jdbc.internal.Migrations;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The database schema, versioned by Flyway migrations under {@code dev/parley/sqlite/migration}. Opening a store
 * applies missing migrations; a database written by a newer Parley is refused rather than guessed at, and a database
 * of another application is left alone.
 */
final class SqliteSchema {
    /** The highest migration version this code ships. A test checks it against the migration files. */
    static final int CURRENT_VERSION = 3;
    static final String LOCATION = "classpath:dev/parley/sqlite/migration";
    private static final String HISTORY_EXISTS = "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table'"
            + " AND name = '" + Migrations.HISTORY_TABLE + "'";

    private SqliteSchema() {}

    /**
     * Brings the database to {@link #CURRENT_VERSION}.
     *
     * @throws UnsupportedException if the database's schema is newer than this code, or it is another
     *     application's database
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
        Migrations.refuseNewer(installed, CURRENT_VERSION, where);
        Migrations.migrate(dataSource, LOCATION, false, where);
    }

    /** The highest successfully applied migration version, or 0 for a database without Parley's schema. */
    static int installedVersion(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection()) {
            return Migrations.installedVersion(c, HISTORY_EXISTS);
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "read the schema version");
        }
    }

    /** A database that holds other tables and no Parley history belongs to another application: leave it alone. */
    private static void refuseForeign(DataSource dataSource, String where) {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'"
                     + " AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 5")) {
            List<String> tables = new ArrayList<>();
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
            if (!tables.isEmpty()) {
                throw new UnsupportedException(where + " is a SQLite database of another application (tables " + tables
                        + "); Parley does not write into it: give a new file");
            }
        } catch (SQLException e) {
            throw SqliteDialect.map(e, where, "read the tables");
        }
    }
}
