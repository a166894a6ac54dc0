package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.StoreHarness;
import dev.parley.tck.junit.StoreConformance;
import dev.parley.tck.process.MultiProcessCas;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole conformance kit — message log, session records, archives, and the multi-process check — against
 * {@code remote:} over real HTTP on loopback, with the server in front of SQLite, of the JSON file store and of
 * PostgreSQL. The corruption scenarios (ML-08, CS-7, AR-6) are reported skipped: a remote store has no stored form of
 * its own to damage (the backends' own tests run them).
 */
class RemoteConformanceTest {
    @TempDir
    static Path dir;

    private static TestServers.Served sqlite;
    private static TestServers.Served jsonl;
    private static TestServers.Served postgres;

    static synchronized String sqlite() {
        if (sqlite == null) {
            sqlite = TestServers.serve("sqlite:" + dir.resolve("server.db"));
        }
        return TestServers.remote(sqlite.url(), dir.resolve("client-sqlite"), "");
    }

    static synchronized String jsonl() {
        if (jsonl == null) {
            jsonl = TestServers.serve("jsonl:" + dir.resolve("server-jsonl"));
        }
        return TestServers.remote(jsonl.url(), dir.resolve("client-jsonl"), "");
    }

    static synchronized String postgres() {
        if (postgres == null) {
            postgres = TestServers.serve("postgres:" + TestServers.newPostgresDatabase());
        }
        return TestServers.remote(postgres.url(), dir.resolve("client-postgres"), "");
    }

    @AfterAll
    static void stop() {
        for (TestServers.Served s : new TestServers.Served[] {sqlite, jsonl, postgres}) {
            if (s != null) {
                s.close();
            }
        }
    }

    abstract static class Kit extends StoreConformance {
        @Override
        protected boolean allowMissingCapabilities() {
            return true;
        }
    }

    @Nested
    class OnSqlite extends Kit {
        @Override
        protected StoreHarness harness() {
            return StoreHarness.of(sqlite());
        }
    }

    @Nested
    class OnJsonFiles extends Kit {
        @Override
        protected StoreHarness harness() {
            return StoreHarness.of(jsonl());
        }
    }

    @Nested
    class OnPostgres extends Kit {
        @Override
        protected StoreHarness harness() {
            return StoreHarness.of(postgres());
        }
    }

    @Test
    void multiProcessCas_throughServerOnSqlite_losesNoWrite() throws Exception {
        check(MultiProcessCas.run(sqlite(), "cas", 2, 3, Duration.ofSeconds(3), dir.resolve("cas-sqlite"), true));
    }

    @Test
    void multiProcessCas_throughServerOnJsonFiles_losesNoWrite() throws Exception {
        check(MultiProcessCas.run(jsonl(), "cas", 2, 3, Duration.ofSeconds(3), dir.resolve("cas-jsonl"), true));
    }

    @Test
    void multiProcessCas_throughServerOnPostgres_losesNoWrite() throws Exception {
        check(MultiProcessCas.run(postgres(), "cas", 2, 3, Duration.ofSeconds(3), dir.resolve("cas-pg"), true));
    }

    private static void check(MultiProcessCas.Report report) {
        assertThat(report.problems(11, true)).isEmpty();
    }
}
