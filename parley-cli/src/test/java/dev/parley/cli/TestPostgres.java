package dev.parley.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** One embedded PostgreSQL server per test JVM (started on first use), a new database for each caller. */
final class TestPostgres {
    private static EmbeddedPostgres server;

    private TestPostgres() {}

    private static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.close();
                } catch (IOException ignored) {
                    // the JVM is ending
                }
            }));
        }
        return server;
    }

    /** The JDBC URL of a new, empty UTF-8 database (it has a query string: append parameters with {@code &}). */
    static String newDatabase() {
        String name = "parley_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = server().getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database", e);
        }
        return server().getJdbcUrl("postgres", name);
    }
}
