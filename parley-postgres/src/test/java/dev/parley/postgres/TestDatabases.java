package dev.parley.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The PostgreSQL servers the tests run against: one embedded server per test JVM (started on first use, durable
 * settings: {@code fsync=on}, {@code synchronous_commit=on}), each test class in a database of its own; and the server
 * that {@code PARLEY_TEST_POSTGRES_URL} names, when it is set.
 */
final class TestDatabases {
    /** The environment variable naming an external server's JDBC URL. */
    static final String EXTERNAL = "PARLEY_TEST_POSTGRES_URL";

    private static EmbeddedPostgres server;

    private TestDatabases() {}

    static synchronized EmbeddedPostgres server() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder()
                        .setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .setServerConfig("full_page_writes", "on")
                        .start();
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

    /** The JDBC URL of a new, empty UTF-8 database on the embedded server. */
    static String newEmbeddedDatabase() {
        String name = "parley_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = server().getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database", e);
        }
        return server().getJdbcUrl("postgres", name);
    }

    /** The external server's JDBC URL, or null when none is given. */
    static String external() {
        String url = System.getenv(EXTERNAL);
        return url == null || url.isBlank() ? null : url;
    }

    /** A small pool on a JDBC URL. */
    static HikariDataSource pool(String jdbcUrl) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(1);
        return new HikariDataSource(config);
    }
}
