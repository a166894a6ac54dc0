package dev.parley.postgres;

import static dev.parley.jdbc.GroupFormation.failureOf;
import static dev.parley.jdbc.GroupFormation.inOneGroup;
import static dev.parley.jdbc.GroupFormation.sessionInLane;
import static java.util.concurrent.TimeUnit.SECONDS;
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
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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
 * Group commit on PostgreSQL: a bad batch failing alone (PostgreSQL aborts a transaction at its first error, so the
 * group is rolled back and runs again with each batch in its own savepoint), one commit for the group, a failed commit
 * failing every caller, and lanes that commit side by side. A group is formed deterministically by holding each lane's
 * group until the others are queued; the sessions meant for one group are chosen in one lane.
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
        SessionId a = sessionInLane(store, 0, "pg-a");
        SessionId c = sessionInLane(store, 0, "pg-c");
        SessionId o = sessionInLane(store, 0, "pg-o");
        SessionId d = sessionInLane(store, 0, "pg-d");
        log.append(c, AGENT, List.of(entry("c1", null)));

        List<Future<?>> f = inOneGroup(store.database(), threads, List.of(
                () -> log.append(a, AGENT, List.of(entry("a1", null), entry("a2", "a1"))),
                () -> log.append(c, AGENT, List.of(NewEntry.of(new EntryId("c1"), null, T, Message.user("changed")))),
                () -> log.append(o, AGENT, List.of(entry("o1", "missing"))),
                () -> log.append(d, AGENT, List.of(entry("d1", null)))));

        assertThat(failureOf(f.get(0))).isNull();
        assertThat(failureOf(f.get(1))).isInstanceOf(EntryConflictException.class);
        assertThat(failureOf(f.get(2))).isInstanceOf(InvalidInputException.class);
        assertThat(failureOf(f.get(3))).isNull();
        assertThat(log.load(a, null)).hasSize(2);
        assertThat(log.load(c, null)).hasSize(1);
        assertThat(log.load(d, null)).hasSize(1);
        assertThat(store.catalog().orElseThrow().find(o)).isEmpty();
    }

    @Test
    void writeInGroup_commitFails_failsEveryCallerAndStoresNothing() throws Exception {
        MessageLog log = store.log();
        Database db = store.database();
        SessionId x = sessionInLane(store, db.laneOf("z"), "pg-x");
        SessionId y = sessionInLane(store, db.laneOf("z"), "pg-y");

        List<Future<?>> f = inOneGroup(db, threads, List.of(
                () -> log.append(x, AGENT, List.of(entry("x1", null))),
                () -> log.append(y, AGENT, List.of(entry("y1", null))),
                () -> db.writeInGroup("break the commit", "z", c -> {
                    try (Statement st = c.createStatement()) {
                        return st.executeUpdate("INSERT INTO commit_breaker VALUES (1)");
                    }
                })));

        for (Future<?> one : f) {
            assertThat(failureOf(one)).isInstanceOf(UnavailableException.class);
        }
        assertThat(log.load(x, null)).isEmpty();
        assertThat(log.load(y, null)).isEmpty();
        assertThat(store.catalog().orElseThrow().find(x)).isEmpty();
    }

    @Test
    void append_whileAnotherLanesAppendWaitsForAReplicasRowLock_isNotHeadOfLineBlocked() throws Exception {
        // With one group commit at a time, an append that waited for a row lock another process held kept every other
        // session's appends waiting behind its group, however long that process held the lock.
        MessageLog log = store.log();
        SessionId a = new SessionId("pg-locked");
        log.append(a, AGENT, List.of(entry("l1", null)));
        int laneOfA = store.laneOf(a);
        SessionId b = sessionInLane(store, (laneOfA + 1) % store.database().lanes(), "pg-free");
        assertThat(store.laneOf(b)).isNotEqualTo(laneOfA);

        try (Connection replica = DriverManager.getConnection(pool.getJdbcUrl())) {
            replica.setAutoCommit(false);
            try (PreparedStatement st = replica.prepareStatement("SELECT 1 FROM parley_log_sessions"
                    + " WHERE scope_id = 'default' AND id = ? FOR UPDATE")) {
                st.setString(1, a.value());
                st.executeQuery().close();
            }
            Future<?> locked = threads.submit(() -> log.append(a, AGENT, List.of(entry("l2", "l1"))));
            awaitLockWaiter();

            Future<?> free = threads.submit(() -> log.append(b, AGENT, List.of(entry("f1", null))));

            free.get(10, SECONDS);
            assertThat(locked).isNotDone();
            replica.rollback();
            locked.get(10, SECONDS);
        }
        assertThat(log.load(a, null)).hasSize(2);
        assertThat(log.load(b, null)).hasSize(1);
    }

    /** Waits until a backend of the test's database waits for a lock (up to 10 s). */
    static void awaitLockWaiter() throws Exception {
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        try (Connection c = pool.getConnection(); PreparedStatement st = c.prepareStatement("SELECT count(*)"
                + " FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
            while (true) {
                try (ResultSet rs = st.executeQuery()) { // auto-commit: each query sees the activity anew
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                assertThat(System.nanoTime()).as("a backend waiting for a lock").isLessThan(deadline);
                Thread.sleep(5);
            }
        }
    }
}
