package dev.parley.jdbc.internal;

import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.store.SchemaVersions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * The schema versions of a JDBC store, as Flyway records them in {@value #HISTORY_TABLE}: reading the installed
 * version, refusing a newer one, and applying the backend's migrations. Not API.
 */
public final class Migrations {
    /** Flyway's history table for Parley's migrations, on every database. */
    public static final String HISTORY_TABLE = "parley_schema_history";
    /** Flyway reports each step at INFO through java.util.logging; a migration is not news. Held strongly. */
    private static final Logger FLYWAY_LOG = Logger.getLogger("org.flywaydb");

    static {
        FLYWAY_LOG.setLevel(Level.WARNING);
    }

    private Migrations() {}

    /**
     * The newest successfully applied version ({@link SchemaVersions#newest}), or 0 when there is no history.
     *
     * @param historyExists a query answering one row whose first column is true when the history table exists
     */
    public static int installedVersion(Connection c, String historyExists) throws SQLException {
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery(historyExists)) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    return 0;
                }
            }
            List<String> versions = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT version FROM " + HISTORY_TABLE
                    + " WHERE success AND version IS NOT NULL")) {
                while (rs.next()) {
                    versions.add(rs.getString(1));
                }
            }
            return SchemaVersions.newest(versions);
        }
    }

    /** @throws UnsupportedException if {@code installed} is newer than {@code current}, naming the fix */
    public static void refuseNewer(int installed, int current, String where) {
        if (installed > current) {
            throw new UnsupportedException(where + " has Parley schema version " + installed
                    + ", newer than this Parley understands (" + current + "); upgrade Parley to open it");
        }
    }

    /** How many times a migration that failed is tried again before the failure is reported. */
    static final int ATTEMPTS = 8;

    /**
     * A backend's migrations: the SQL migrations Flyway finds at a class-path location, and the migrations made of
     * scripts every database shares ({@link ScriptMigration}).
     *
     * @param location the Flyway location of the SQL migrations ({@code classpath:dev/parley/sqlite/schema/versions})
     */
    public record Plan(String location, List<ScriptMigration> scripts) {
        public Plan {
            Objects.requireNonNull(location, "location");
            scripts = List.copyOf(scripts);
        }

        /** Flyway configured for these migrations on {@code dataSource}, with Parley's history table. */
        public FluentConfiguration configure(DataSource dataSource) {
            return Flyway.configure(Migrations.class.getClassLoader())
                    .dataSource(dataSource)
                    .locations(location)
                    .javaMigrations(scripts.toArray(new JavaMigration[0]))
                    .table(HISTORY_TABLE)
                    .failOnMissingLocations(true);
        }
    }

    /**
     * Flyway's message on one line: its title and the driver's message (the reason: a full disk, a refused
     * connection), without the lines of dashes, SQL state and error code of its banner.
     */
    static String problem(FlywayException e) {
        StringBuilder out = new StringBuilder();
        for (String line : String.valueOf(e.getMessage()).split("\n")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("---") || t.startsWith("SQL State") || t.startsWith("Error Code")) {
                continue;
            }
            if (t.startsWith("Message") && t.contains(":")) {
                t = t.substring(t.indexOf(':') + 1).strip();
            }
            if (out.indexOf(t) < 0) {
                out.append(out.length() == 0 ? "" : "; ").append(t);
            }
        }
        return out.toString();
    }

    /**
     * Applies the migrations of {@code plan} that the database lacks. A failed attempt is tried again, after a short
     * random pause, up to {@value #ATTEMPTS} times in all: another process opening the same new database at
     * the same moment makes one of the two fail (a table or the history created meanwhile, a baseline taken
     * meanwhile), and the next attempt finds the work done. A migration killed part-way is finished the same way:
     * each migration is one transaction, and the history says which committed.
     *
     * @param baseline whether a database that holds other tables but no history may be migrated (a shared
     *     PostgreSQL schema); false where such a database is refused before
     * @throws UnavailableException if the last attempt fails
     */
    public static void migrate(DataSource dataSource, Plan plan, boolean baseline, String where) {
        for (int attempt = 1; ; attempt++) {
            try {
                plan.configure(dataSource)
                        .baselineOnMigrate(baseline)
                        .baselineVersion("0")
                        .load()
                        .migrate();
                return;
            } catch (FlywayException e) {
                if (attempt >= ATTEMPTS) {
                    throw new UnavailableException("cannot migrate the schema of " + where + ": " + problem(e), e);
                }
            }
            try {
                Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(20, 100L * attempt));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UnavailableException("interrupted while migrating the schema of " + where, e);
            }
        }
    }
}
