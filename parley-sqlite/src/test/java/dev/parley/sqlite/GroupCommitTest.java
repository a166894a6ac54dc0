package dev.parley.sqlite;

import static dev.parley.jdbc.GroupFormation.failureOf;
import static dev.parley.jdbc.GroupFormation.inOneGroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.internal.Database;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit on SQLite: appends that arrive while a commit is in flight are committed together, each batch atomic on
 * its own, every caller answered only by the commit that holds its batch. Groups are formed deterministically: a
 * first unit holds the group's connection until the others are queued behind it.
 */
class GroupCommitTest {
    static final AgentId AGENT = new AgentId("main");
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");

    @TempDir
    Path dir;

    SqliteStore store;
    MessageLog log;
    Database db;
    ExecutorService pool;

    @BeforeEach
    void open() {
        store = SqliteStore.open(dir.resolve("group.db"), StoreOptions.defaults());
        log = store.log();
        db = store.database();
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void close() {
        pool.shutdownNow();
        store.close();
    }

    static NewEntry entry(String id, String parent, String text) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T, Message.user(text));
    }

    @Test
    void writeInGroup_invalidBatchesAmidValidOnes_failAloneAndLeaveNoTrace() throws Exception {
        SessionId a = new SessionId("a");
        SessionId conflicted = new SessionId("conflicted");
        SessionId orphan = new SessionId("orphan");
        SessionId moved = new SessionId("moved");
        SessionId d = new SessionId("d");
        log.append(conflicted, AGENT, List.of(entry("c1", null, "stored")));
        log.append(moved, AGENT, List.of(entry("m1", null, "stored")));

        List<Future<?>> f = inOneGroup(db, pool, List.of(
                () -> log.append(a, AGENT, List.of(entry("a1", null, "one"), entry("a2", "a1", "two"))),
                () -> log.append(conflicted, AGENT, List.of(entry("c2", "c1", "new"), entry("c1", null, "changed"))),
                () -> log.append(orphan, AGENT, List.of(entry("o1", null, "fine"), entry("o2", "missing", "bad"))),
                () -> log.appendIfLast(moved, AGENT, null, List.of(entry("m2", "m1", "late")),
                        dev.parley.core.model.Usage.ZERO),
                () -> log.append(d, AGENT, List.of(entry("d1", null, "three")))));

        assertThat(failureOf(f.get(0))).isNull();
        assertThat(failureOf(f.get(1))).isInstanceOf(EntryConflictException.class);
        assertThat(failureOf(f.get(2))).isInstanceOf(InvalidInputException.class);
        assertThat(failureOf(f.get(3))).isInstanceOf(LastEntryMovedException.class);
        assertThat(failureOf(f.get(4))).isNull();
        assertThat(ids(a)).containsExactly("a1", "a2");
        assertThat(ids(d)).containsExactly("d1");
        assertThat(ids(conflicted)).containsExactly("c1");
        assertThat(ids(moved)).containsExactly("m1");
        assertThat(store.catalog().orElseThrow().find(orphan)).isEmpty(); // not even its catalog row
        assertThat(store.catalog().orElseThrow().find(conflicted).orElseThrow().entryCount()).isEqualTo(1);
    }

    @Test
    void writeInGroup_commitFails_failsEveryCallerOfTheGroupAndStoresNothing() throws Exception {
        SessionId a = new SessionId("a");
        SessionId b = new SessionId("b");
        log.append(b, AGENT, List.of(entry("b1", null, "before")));

        List<Future<?>> f = inOneGroup(db, pool, List.of(
                () -> log.append(a, AGENT, List.of(entry("a1", null, "one"))),
                () -> log.append(b, AGENT, List.of(entry("b2", "b1", "two"))),
                () -> breakTheCommit()));

        for (Future<?> one : f) {
            assertThat(failureOf(one)).isInstanceOf(UnavailableException.class);
        }
        assertThat(ids(a)).isEmpty();
        assertThat(ids(b)).containsExactly("b1");
        assertThat(store.catalog().orElseThrow().find(a)).isEmpty();
        // The connection is usable afterwards.
        log.append(a, AGENT, List.of(entry("a1", null, "one")));
        assertThat(ids(a)).containsExactly("a1");
    }

    /**
     * Found by a review of effb128: a retry of a batch that another unit of the same group had just written was
     * answered "stored" although the group's commit then failed and nothing was stored.
     */
    @Test
    void writeInGroup_retryOfABatchWrittenInTheSameGroup_failsWhenTheCommitFails() throws Exception {
        SessionId a = new SessionId("a");
        List<NewEntry> batch = List.of(entry("a1", null, "one"));

        List<Future<?>> f = inOneGroup(db, pool, List.of(
                () -> log.append(a, AGENT, batch),
                () -> log.append(a, AGENT, batch), // the same batch again: found stored by the first unit's insert
                () -> breakTheCommit()));

        for (Future<?> one : f) {
            assertThat(failureOf(one)).isInstanceOf(UnavailableException.class);
        }
        assertThat(ids(a)).isEmpty();
    }

    /**
     * Found by a review of 39bccd0: a unit refused for a conflict with an id that another unit of its group had just
     * inserted kept that answer when the group's commit failed, though the id was never stored.
     */
    @Test
    void writeInGroup_conflictWithAWriteOfTheSameGroup_failsAsTheGroupWhenTheCommitFails() throws Exception {
        SessionId a = new SessionId("a");
        List<Future<?>> f = inOneGroup(db, pool, List.of(
                () -> log.append(a, AGENT, List.of(entry("a1", null, "one"))),
                () -> log.append(a, AGENT, List.of(entry("a1", null, "another"))), // conflicts with the other's a1
                () -> breakTheCommit()));

        for (Future<?> one : f) {
            assertThat(failureOf(one)).isInstanceOf(UnavailableException.class);
        }
        assertThat(ids(a)).isEmpty();
        log.append(a, AGENT, List.of(entry("a1", null, "another"))); // sent again, it is judged afresh: stored
        assertThat(ids(a)).containsExactly("a1");
    }

    @Test
    void writeInGroup_moreWaitingThanOneGroupHolds_areCommittedInGroupsOfAtMostTheCap() throws Exception {
        // A group used to take every waiting unit: one failed commit failed them all, and on PostgreSQL a group of
        // more than 64 savepoints overflows a backend's subtransaction cache. A commit that fails shows the group's
        // size: exactly the units of the group holding the breaking unit fail.
        int appends = Database.MAX_GROUP_UNITS + 8;
        List<Callable<?>> calls = new ArrayList<>();
        calls.add(() -> breakTheCommit());
        for (int i = 0; i < appends; i++) {
            SessionId session = new SessionId("cap-" + i);
            calls.add(() -> log.append(session, AGENT, List.of(entry(session.value(), null, "one"))));
        }

        List<Future<?>> f = inOneGroup(db, pool, calls);

        int failed = 0;
        for (int i = 0; i < f.size(); i++) {
            Throwable failure = failureOf(f.get(i));
            if (failure != null) {
                assertThat(failure).isInstanceOf(UnavailableException.class);
                failed++;
            } else if (i > 0) {
                assertThat(ids(new SessionId("cap-" + (i - 1)))).hasSize(1);
            }
        }
        // The breaking unit's group is either the first (the cap) or the second (the rest).
        assertThat(failed).isIn(Database.MAX_GROUP_UNITS, calls.size() - Database.MAX_GROUP_UNITS);
    }

    @Test
    void append_sixteenWritersOnSixteenSessions_storeEveryBatchOnceInOrder() throws Exception {
        int writers = 16;
        int appends = 40;
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            SessionId session = new SessionId("s" + w);
            all.add(CompletableFuture.runAsync(() -> {
                String parent = null;
                for (int i = 0; i < appends; i++) {
                    String id = session.value() + "-" + i;
                    // every fifth append is retried: the retry is recognised, not stored twice
                    for (int r = 0; r < (i % 5 == 0 ? 2 : 1); r++) {
                        log.appendIfLast(session, AGENT, parent == null ? null : new EntryId(parent),
                                List.of(entry(id, parent, "message " + i)), dev.parley.core.model.Usage.ZERO);
                    }
                    // and an invalid batch now and then, which must not disturb the others
                    if (i % 7 == 3) {
                        assertThatThrownBy(() -> log.append(session, AGENT, List.of(entry("x" + id, "nowhere", "x"))))
                                .isInstanceOf(InvalidInputException.class);
                    }
                    parent = id;
                }
            }, pool));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get();
        for (int w = 0; w < writers; w++) {
            List<Entry> entries = log.load(new SessionId("s" + w), null);
            assertThat(entries).hasSize(appends);
            for (int i = 0; i < appends; i++) {
                assertThat(entries.get(i).id().value()).isEqualTo("s" + w + "-" + i);
                assertThat(entries.get(i).parentId()).isEqualTo(i == 0 ? null : entries.get(i - 1).id());
            }
            assertThat(store.catalog().orElseThrow().find(new SessionId("s" + w)).orElseThrow().entryCount())
                    .isEqualTo(appends);
        }
    }

    /**
     * Found by a review of e718155: a unit whose attempt failed in a way that ended the transaction (as SQLite does
     * itself after some I/O errors) was answered with the rollback that then failed ("no transaction is active"), its
     * own error lost, and the connection was left committing each later statement on its own.
     */
    @Test
    void writeInGroup_firstAttemptEndsTheTransactionAndFails_answersWithItsOwnError() {
        Database.Work<Object> endsTheTransaction = c -> {
            try (Statement st = c.createStatement()) {
                st.execute("ROLLBACK");
            }
            throw new SQLException("simulated disk I/O error", null, 10); // SQLITE_IOERR
        };
        // The careful way runs after the failed first attempt, in a transaction of its own, and decides.
        assertThat(db.writeInGroup("write after an I/O error", "k", endsTheTransaction, c -> "careful"))
                .isEqualTo("careful");
        // Failing the same way, it is answered with its own error.
        assertThatThrownBy(() -> db.writeInGroup("write after an I/O error", "k", endsTheTransaction,
                endsTheTransaction)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("simulated disk I/O error");
        SessionId a = new SessionId("a");
        log.append(a, AGENT, List.of(entry("a1", null, "after"), entry("a2", "a1", "after")));
        assertThat(ids(a)).containsExactly("a1", "a2");
    }

    /**
     * Found by a review of 9cd5474: sqlite-jdbc records manual-commit mode before it sends {@code BEGIN IMMEDIATE}, so a
     * begin that failed on another process's write lock left the connection with no transaction open and the mode
     * recorded: the next write's statements each committed on their own, and its commit then failed although its
     * entries were stored.
     */
    @Test
    void writeInGroup_beginFailsOnAnotherProcesssLock_theNextWriteIsOneTransaction() throws Exception {
        store.close();
        store = SqliteStore.openWatched(dir.resolve("group.db"), StoreOptions.defaults(), c -> {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA busy_timeout = 200"); // not the store's two minutes
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return c;
        });
        log = store.log();
        SessionId a = new SessionId("a");
        log.append(a, AGENT, List.of(entry("a1", null, "before")));
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("group.db"));
             Statement st = other.createStatement()) {
            st.execute("BEGIN IMMEDIATE"); // another process's write lock
            assertThatThrownBy(() -> log.append(a, AGENT, List.of(entry("a2", "a1", "blocked"))))
                    .isInstanceOf(UnavailableException.class).hasMessageContaining("locked");
            st.execute("ROLLBACK");
        }
        log.append(a, AGENT, List.of(entry("a2", "a1", "after"), entry("a3", "a2", "after")));
        assertThat(ids(a)).containsExactly("a1", "a2", "a3");
    }

    List<String> ids(SessionId session) {
        return log.load(session, null).stream().map(e -> e.id().value()).toList();
    }

    /** A unit that succeeds but leaves a deferred foreign-key violation: SQLite refuses the group's COMMIT. */
    private Object breakTheCommit() {
        return db.writeInGroup("break the commit", "z", c -> {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA defer_foreign_keys = ON");
                st.execute("INSERT INTO parley_log_usage (scope_id, session_id, agent_id)"
                        + " VALUES ('default', 'no-such-session', 'main')");
            }
            return null;
        });
    }
}
