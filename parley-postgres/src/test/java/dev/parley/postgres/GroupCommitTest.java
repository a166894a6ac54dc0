package dev.parley.postgres;

import static dev.parley.jdbc.GroupFormation.failureOf;
import static dev.parley.jdbc.GroupFormation.inOneGroup;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.parley.core.AgentId;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.internal.Database;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Group commit on PostgreSQL: each batch of a group in its own savepoint (PostgreSQL aborts a transaction at its first
 * error, so without one a single bad batch would fail the group), one commit for the group, a failed commit failing
 * every caller. A group is formed deterministically by holding the group's connection until the others are queued.
 */
class GroupCommitTest {
    static final AgentId AGENT = new AgentId("main");
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");
    static HikariDataSource pool;
    static PostgresStore store;
    static ExecutorService threads;

    @BeforeAll
    static void start() throws Exception {
        pool = TestDatabases.pool(TestDatabases.newEmbeddedDatabase());
        store = PostgresStore.open(pool, StoreOptions.defaults());
        try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            // A table whose every row fails the transaction at COMMIT (a deferred constraint trigger).
            st.execute("CREATE TABLE commit_breaker (x int)");
            st.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$");
            st.execute("CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON commit_breaker DEFERRABLE INITIALLY DEFERRED"
                    + " FOR EACH ROW EXECUTE FUNCTION refuse()");
        }
        threads = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        threads.shutdownNow();
        store.close();
        pool.close();
    }

    static NewEntry entry(String id, String parent) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T, Message.user(id));
    }

    @Test
    void writeInGroup_invalidBatchesAmidValidOnes_failAlone() throws Exception {
        MessageLog log = store.log();
        log.append(new SessionId("pg-c"), AGENT, List.of(entry("c1", null)));

        List<Future<?>> f = inOneGroup(store.database(), threads, List.of(
                () -> log.append(new SessionId("pg-a"), AGENT, List.of(entry("a1", null), entry("a2", "a1"))),
                () -> log.append(new SessionId("pg-c"), AGENT, List.of(NewEntry.of(new EntryId("c1"), null, T,
                        Message.user("changed")))),
                () -> log.append(new SessionId("pg-o"), AGENT, List.of(entry("o1", "missing"))),
                () -> log.append(new SessionId("pg-d"), AGENT, List.of(entry("d1", null)))));

        assertThat(failureOf(f.get(0))).isNull();
        assertThat(failureOf(f.get(1))).isInstanceOf(EntryConflictException.class);
        assertThat(failureOf(f.get(2))).isInstanceOf(InvalidInputException.class);
        assertThat(failureOf(f.get(3))).isNull();
        assertThat(log.load(new SessionId("pg-a"), null)).hasSize(2);
        assertThat(log.load(new SessionId("pg-c"), null)).hasSize(1);
        assertThat(log.load(new SessionId("pg-d"), null)).hasSize(1);
        assertThat(store.catalog().orElseThrow().find(new SessionId("pg-o"))).isEmpty();
    }

    @Test
    void writeInGroup_commitFails_failsEveryCallerAndStoresNothing() throws Exception {
        MessageLog log = store.log();
        Database db = store.database();

        List<Future<?>> f = inOneGroup(db, threads, List.of(
                () -> log.append(new SessionId("pg-x"), AGENT, List.of(entry("x1", null))),
                () -> log.append(new SessionId("pg-y"), AGENT, List.of(entry("y1", null))),
                () -> db.writeInGroup("break the commit", "z", c -> {
                    try (Statement st = c.createStatement()) {
                        return st.executeUpdate("INSERT INTO commit_breaker VALUES (1)");
                    }
                })));

        for (Future<?> one : f) {
            assertThat(failureOf(one)).isInstanceOf(UnavailableException.class);
        }
        assertThat(log.load(new SessionId("pg-x"), null)).isEmpty();
        assertThat(log.load(new SessionId("pg-y"), null)).isEmpty();
        assertThat(store.catalog().orElseThrow().find(new SessionId("pg-x"))).isEmpty();
    }
}
