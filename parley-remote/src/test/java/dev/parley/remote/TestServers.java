package dev.parley.remote;

import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Real Parley servers on loopback for the tests (port 0), and the {@code remote:} URIs that reach them with a fallback
 * and a journal in a temporary directory (never the user's home). One embedded PostgreSQL per test JVM.
 */
final class TestServers {
    private static EmbeddedPostgres postgres;

    private TestServers() {}

    /** A server on a store of its own. */
    record Served(Store store, ParleyServer server) implements AutoCloseable {
        String url() {
            return server.uri().toString();
        }

        @Override
        public void close() {
            server.close();
            store.close();
        }
    }

    static Served serve(String backendUri) {
        Store store = Stores.open(backendUri);
        return new Served(store, ParleyServer.start(store, ServerConfig.defaults().withPort(0)));
    }

    /**
     * The remote URI of a server with a local fallback and journal under {@code dir}.
     *
     * @param extra more parameters ({@code &parley.timeout=300}…), or ""
     */
    static String remote(String url, Path dir, String extra) {
        return "remote:" + url + "?parley.fallback=" + enc("sqlite:" + dir.resolve("fallback.db"))
                + "&parley.journal=" + enc(dir.resolve("journal.jsonl").toString()) + extra;
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The JDBC URL of a new database on the embedded PostgreSQL (durable settings). */
    static synchronized String newPostgresDatabase() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on").start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is ending
                }
            }));
        }
        String name = "parley_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database", e);
        }
        return postgres.getJdbcUrl("postgres", name);
    }
}
