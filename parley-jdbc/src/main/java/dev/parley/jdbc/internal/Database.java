package dev.parley.jdbc.internal;

import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import dev.parley.jdbc.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Runs work on a dialect's database: reads in auto-commit mode, writes in one transaction that commits on success
 * and rolls back on any failure, every {@link SQLException} mapped by the dialect. Shared by a store and all its
 * scope views; closed once, with the root store. Thread-safe.
 *
 * <p><b>Group commit</b> ({@link #writeInGroup}): units of work that arrive while a group of their lane is being
 * committed wait, and the first of them to wake up runs those waiting (up to {@value #MAX_GROUP_UNITS}) in one
 * transaction and commits them together (one fsync on SQLite, one WAL flush on PostgreSQL). A lone unit runs at once:
 * there is no delay. A unit that fails fails alone: it runs in a savepoint and is rolled back to it. Where a savepoint
 * costs round trips ({@link SqlDialect#statementsCostRoundTrips()}: on PostgreSQL two per unit, {@code SAVEPOINT} and
 * {@code RELEASE}), a group first runs without savepoints, and only when a unit fails is its transaction rolled back
 * and the group run again in savepoints. A commit that fails fails every unit that was to be committed by it, and
 * none of them is stored. Every caller returns only after the commit that holds its unit (or its failure).
 *
 * <p><b>Lanes</b>: there are {@link SqlDialect#groupCommitLanes()} independent group commits, each with its own queue,
 * leader and group; a unit joins the lane its lock key hashes to ({@link #laneOf}), so the units of one session are
 * never in two groups at once, and a group that waits — for a row lock another process holds — holds up only the units of
 * its own lane. Groups of different lanes run and commit at the same time, each on a connection of its own.
 */
public final class Database {
    /** Work on a connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final SqlDialect dialect;
    private volatile boolean closed;

    /**
     * The most units one group commits: more wait for the next group. It bounds what one failed commit fails, and on
     * PostgreSQL it keeps a group's savepoints within the subtransactions a backend caches (64).
     */
    public static final int MAX_GROUP_UNITS = 32;

    /** The group-commit lanes; a unit's lane is {@link #laneOf} its lock key. */
    private final Lane[] lanes;

    /**
     * @throws IllegalArgumentException if the dialect answers fewer than one group-commit lane
     */
    public Database(SqlDialect dialect) {
        this.dialect = dialect;
        int n = dialect.groupCommitLanes();
        if (n < 1) {
            throw new IllegalArgumentException(dialect.where() + ": " + n + " group-commit lanes; at least 1 is needed");
        }
        this.lanes = new Lane[n];
        for (int i = 0; i < n; i++) {
            lanes[i] = new Lane();
        }
    }

    public SqlDialect dialect() {
        return dialect;
    }

    /** Where the database is, for messages. */
    public String where() {
        return dialect.where();
    }

    /** Runs a read: one or more statements, each seeing what was committed when it started. */
    public <T> T read(String doing, Work<T> work) {
        checkOpen();
        try {
            return dialect.withConnection(work::run);
        } catch (SQLException e) {
            throw dialect.map(e, doing);
        }
    }

    /**
     * Runs work in one write transaction: all of it is committed, or — when it throws — none of it.
     *
     * @throws UnavailableException if the database failed (mapped by the dialect) or the store is closed
     */
    public <T> T write(String doing, Work<T> work) {
        checkOpen();
        try {
            return transaction(work);
        } catch (SQLException e) {
            throw dialect.map(e, doing);
        }
    }

    /**
     * Runs work in one transaction on a lent connection: committed when it returns, rolled back when it throws. A begin
     * that fails after the driver recorded manual-commit mode (sqlite-jdbc, whose {@code BEGIN IMMEDIATE} can fail on
     * another process's lock) is rolled back at once, so that the connection is not left committing each later
     * statement on its own.
     */
    private <T> T transaction(Work<T> work) throws SQLException {
        return dialect.withConnection(c -> {
            try {
                c.setAutoCommit(false); // SQLite: BEGIN IMMEDIATE, the database's write lock
            } catch (SQLException e) {
                try {
                    if (!c.getAutoCommit()) {
                        dialect.rollback(c); // the mode is recorded, and no transaction has begun
                    }
                } catch (SQLException stillManual) {
                    e.addSuppressed(stillManual);
                }
                throw e;
            }
            T result;
            try {
                result = work.run(c);
            } catch (SQLException | RuntimeException | Error e) {
                try {
                    dialect.rollback(c);
                } catch (SQLException rollback) {
                    // Left in manual-commit mode (leaving it would commit what may be open): SQLite's dialect rolls
                    // back before it lends its connection again, and a pool rolls back again, or drops it.
                    e.addSuppressed(rollback);
                }
                throw e;
            }
            // The commit is leaving manual-commit mode (JDBC commits the open transaction), not Connection.commit():
            // sqlite-jdbc's commit() begins the next transaction at once, and with BEGIN IMMEDIATE that waits for the
            // write lock, so a lock held by another process would fail a commit that is already durable.
            try {
                c.setAutoCommit(true);
            } catch (SQLException e) {
                abandon(c, e); // the commit failed: nothing of the transaction may stay open on a pooled connection
                throw e;
            }
            return result;
        });
    }

    /** Ends whatever is left of a transaction whose commit failed; what this fails with is added to {@code cause}. */
    private static void abandon(Connection c, SQLException cause) {
        try (Statement st = c.createStatement()) {
            st.execute("ROLLBACK");
        } catch (SQLException noTransaction) {
            cause.addSuppressed(noTransaction); // usually: no transaction is active any more
        }
    }

    /**
     * Runs {@code work} as one unit of a group commit (see the class comment): atomically — all of its statements or
     * none — and durably before this returns. The unit runs on the group's connection inside a transaction that also
     * holds other callers' units; it must not commit, roll back or change the transaction mode, and a failure it
     * throws must leave nothing it means to keep (it is rolled back). It may run more than once — when another unit of
     * its group fails, the group is rolled back and run again — so it must have no effect outside the transaction.
     *
     * @param lockKey the key of what the unit locks first (a session id): it picks the unit's lane ({@link #laneOf}),
     *     and the units of a group run in its order (arrival order among equal keys), so that groups — of two lanes,
     *     or of two processes — lock rows in one order and cannot deadlock
     * @throws UnavailableException if the database failed (mapped by the dialect), the group's commit failed (then
     *     nothing of this unit is stored), or the store is closed
     * @throws RuntimeException what {@code work} threw (nothing of this unit is stored)
     */
    public <T> T writeInGroup(String doing, String lockKey, Work<T> work) {
        return writeInGroup(doing, lockKey, work, work);
    }

    /**
     * {@link #writeInGroup(String, String, Work)} with a first attempt, which must either do exactly what
     * {@code work} would do or throw. {@code first} runs first; when it throws, what it did is rolled back (to the
     * unit's savepoint, or with the whole transaction where the group ran without savepoints, or alone) and
     * {@code work} runs instead — in a savepoint, or, for a unit alone in its group, in a transaction of its own — and
     * what {@code work} answers or throws is the outcome. When another unit fails a group that ran without savepoints,
     * {@code first} runs again in the group's second run. So {@code first} can take a shortcut that holds for the usual
     * case (on PostgreSQL: send every statement at once and check the result after) and leave every other case to
     * {@code work}.
     *
     * @throws UnavailableException as {@link #writeInGroup(String, String, Work)}
     * @throws RuntimeException what {@code work} threw (nothing of this unit is stored)
     */
    public <T> T writeInGroup(String doing, String lockKey, Work<T> first, Work<T> work) {
        checkOpen();
        Unit<T> unit = new Unit<>(doing, Objects.requireNonNull(lockKey, "lockKey"), first, work);
        Lane lane = lanes[laneOf(lockKey)];
        ArrayDeque<Unit<?>> pending = lane.pending;
        List<Unit<?>> units;
        boolean interrupted = false;
        synchronized (lane) {
            pending.add(unit);
            while (!unit.done && lane.leading) {
                try {
                    lane.wait();
                } catch (InterruptedException e) {
                    interrupted = true; // the unit may be in a group already: wait for its outcome all the same
                }
            }
            if (!unit.done) {
                units = new ArrayList<>(Math.min(pending.size(), MAX_GROUP_UNITS));
                pending.remove(unit);
                units.add(unit); // the leader's own unit is always in its group
                while (!pending.isEmpty() && units.size() < MAX_GROUP_UNITS) {
                    units.add(pending.poll()); // arrival order: the longest waiting go first
                }
                lane.leading = true; // last: nothing above that could fail leaves the lane led by no one
            } else {
                units = null;
            }
        }
        if (units != null) {
            // A leader's own interrupt must not fail the other callers' writes: it is set aside while the group runs
            // and restored for this caller afterwards.
            interrupted |= Thread.interrupted();
            try {
                runGroup(units);
            } finally {
                synchronized (lane) {
                    lane.leading = false;
                    for (Unit<?> u : units) {
                        if (!u.decided) { // runGroup failed to record an outcome: the unit is not known committed
                            u.failure = new UnavailableException("could not " + u.doing + " in " + dialect.where()
                                    + ": the group commit failed before recording its outcome", null);
                            u.value = null;
                        }
                        u.done = true;
                    }
                    lane.notifyAll();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return unit.answer();
    }

    /** How many units wait for the next group of their lane right now, over all lanes (for tests and monitoring). */
    public int waiting() {
        int waiting = 0;
        for (Lane lane : lanes) {
            synchronized (lane) {
                waiting += lane.pending.size();
            }
        }
        return waiting;
    }

    /** How many group-commit lanes there are: {@link SqlDialect#groupCommitLanes()}. */
    public int lanes() {
        return lanes.length;
    }

    /** The lane, from 0 to {@link #lanes()} − 1, of the units whose lock key is {@code lockKey}. */
    public int laneOf(String lockKey) {
        int h = lockKey.hashCode();
        h ^= h >>> 16; // String.hashCode's low bits alone spread keys poorly over few lanes (31 ≡ −1 mod 4)
        h *= 0x9E3779B9;
        return Math.floorMod(h ^ (h >>> 16), lanes.length);
    }

    /**
     * What a unit throws to have its own writes rolled back and still answer its caller (a retry that found its entries
     * stored): the group rolls the unit back as it would a failure, and the caller catches this to take the answer —
     * but only if the group then commits. The answer may rest on what another unit of the same group wrote, so when the
     * group's commit fails the caller gets that failure instead.
     */
    public abstract static class AnswerAfterRollback extends RuntimeException {
        private static final long serialVersionUID = 1L;

        protected AnswerAfterRollback() {
            super(null, null, false, false);
        }
    }

    /** One group commit: its waiting units and whether its group is running. Guarded by itself; units wait on it. */
    private static final class Lane {
        /** Units waiting for the lane's next group, in arrival order. */
        final ArrayDeque<Unit<?>> pending = new ArrayDeque<>();
        /** Whether a group of the lane is being run and committed right now. */
        boolean leading;
    }

    /** Runs the units of one group in one transaction and records each one's outcome; never throws. */
    private void runGroup(List<Unit<?>> units) {
        units.sort(Comparator.comparing(u -> u.lockKey)); // stable: arrival order among equal keys
        try {
            checkOpen();
            Unit<?> lone = units.size() == 1 ? units.get(0) : null;
            boolean firstWithoutSavepoints = lone != null ? lone.hasFirst : dialect.statementsCostRoundTrips();
            if (!firstWithoutSavepoints || !committedFirstAttempts(units)) {
                if (lone != null) {
                    transaction(c -> runAlone(c, lone)); // its failure rolls back the whole transaction
                } else {
                    transaction(c -> {
                        for (Unit<?> u : units) {
                            runInSavepoint(c, u);
                        }
                        return null;
                    });
                }
            }
            for (Unit<?> u : units) {
                u.decided = true; // committed, or failed alone in its savepoint
            }
        } catch (SQLException | RuntimeException | Error e) {
            String what = units.size() == 1 ? units.get(0).doing : "commit a group of " + units.size() + " writes";
            RuntimeException failure = e instanceof SQLException s ? dialect.map(s, what)
                    : e instanceof ParleyException p ? p
                    : new UnavailableException("could not " + what + " in " + dialect.where() + ": " + e, e);
            for (Unit<?> u : units) {
                // Nothing of the group was committed: no answer that rests on it stands — nor, in a group of several,
                // a unit's own failure, which may rest on an earlier unit's write (a conflict with an id it inserted,
                // a last entry it moved); sent again, the unit is judged afresh. (A lone unit's own answer is what
                // ended its transaction: that rollback is the one it asked for, on rows committed before.)
                if (units.size() > 1 || u.failure == null
                        || u.failure instanceof AnswerAfterRollback && u.failure != e) {
                    u.failure = failure;
                    u.value = null;
                }
                u.decided = true;
            }
        }
    }

    private static <T> @Nullable Void runAlone(Connection c, Unit<T> u) throws SQLException {
        try {
            u.value = u.work.run(c);
            return null;
        } catch (SQLException e) {
            throw e;
        } catch (RuntimeException e) {
            u.failure = e;
            throw e;
        }
    }

    /**
     * Runs the first attempts of a group's units in one transaction without savepoints and commits it; whether all of
     * them succeeded. When one fails, the transaction is rolled back at once (what ran before it included), the units
     * that failed are marked to skip their first attempt next time, and this answers false.
     *
     * @throws SQLException if the commit failed, or the rollback after a failed attempt did (then the group fails):
     *     the attempt's own {@code SQLException} where it threw one, with the rollback's failure added to it
     */
    private boolean committedFirstAttempts(List<Unit<?>> units) throws SQLException {
        try {
            transaction(c -> {
                for (Unit<?> u : units) {
                    Throwable failed = firstAttemptFailure(c, u);
                    if (failed != null) {
                        throw new RunAgain(failed); // rolls the transaction back
                    }
                }
                return null;
            });
            return true;
        } catch (RunAgain e) {
            if (e.getSuppressed().length > 0 && e.getSuppressed()[0] instanceof SQLException rollback) {
                // The transaction may not have been rolled back: nothing runs again on it.
                throw rollbackFailedAfter(e.getCause(), rollback);
            }
            for (Unit<?> u : units) {
                u.value = null;
                u.failure = null;
            }
            return false;
        }
    }

    /**
     * Runs a unit's first attempt without a savepoint; what it failed with, or null if it succeeded (if not, the group
     * is rolled back).
     */
    private static <T> @Nullable Throwable firstAttemptFailure(Connection c, Unit<T> u) {
        try {
            u.value = u.first.run(c); // its work, when it has no first attempt of its own
            return null;
        } catch (SQLException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
            u.firstFailed = true; // its outcome is decided when the group runs again, in savepoints
            return e;
        }
    }

    /** Rolls back a group's transaction in which a unit's first attempt failed, so that the group runs again. */
    private static final class RunAgain extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RunAgain(Throwable attempt) {
            super(null, attempt, true, false); // suppression on: a failed rollback is added to it
        }
    }

    /**
     * Runs a unit in a savepoint: its first attempt, unless it has none or it failed already; if that fails, rolled
     * back to the savepoint, then its work, whose failure (rolled back to the savepoint too) is the unit's own.
     */
    private <T> void runInSavepoint(Connection c, Unit<T> u) throws SQLException {
        Savepoint savepoint = c.setSavepoint();
        if (u.hasFirst && !u.firstFailed) {
            try {
                u.value = u.first.run(c);
                c.releaseSavepoint(savepoint);
                return;
            } catch (SQLException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
                rollBackTo(c, savepoint, e, false);
            }
        }
        try {
            u.value = u.work.run(c);
            c.releaseSavepoint(savepoint);
        } catch (SQLException | RuntimeException | OutOfMemoryError | StackOverflowError e) {
            rollBackTo(c, savepoint, e, true);
            // One unit's failure, an encoding that ran out of memory included, is its own: the others still commit.
            u.failure = e instanceof SQLException s ? dialect.map(s, u.doing)
                    : e instanceof RuntimeException r ? r
                    : new UnavailableException("could not " + u.doing + " in " + dialect.where() + ": " + e, e);
        }
    }

    /**
     * Rolls back to {@code savepoint} after {@code cause} (and releases it, with {@code release}). If that fails the
     * whole group fails, with {@link #rollbackFailedAfter}.
     */
    private static void rollBackTo(Connection c, Savepoint savepoint, Throwable cause, boolean release)
            throws SQLException {
        try {
            c.rollback(savepoint);
            if (release) {
                c.releaseSavepoint(savepoint);
            }
        } catch (SQLException rollback) {
            throw rollbackFailedAfter(cause, rollback);
        }
    }

    /**
     * What a group fails with when the rollback after {@code cause} failed: {@code cause} where it is an
     * {@code SQLException} — a failure that ended the transaction, as SQLite does after some I/O errors, is why the
     * rollback found nothing to roll back — with the rollback's failure added to it; otherwise the rollback's failure,
     * with {@code cause} added to it.
     */
    private static SQLException rollbackFailedAfter(Throwable cause, SQLException rollback) {
        if (cause instanceof SQLException own) {
            own.addSuppressed(rollback);
            return own;
        }
        rollback.addSuppressed(cause);
        return rollback;
    }

    /** One unit of a group commit and, once its group is committed, its outcome. Fields guarded by its lane. */
    private static final class Unit<T> {
        final String doing;
        final String lockKey;
        /** The unit's first attempt, if {@link #hasFirst}: it does what {@link #work} does, or throws. */
        final Work<T> first;
        /** What runs when there is no first attempt or it failed; its outcome is the unit's. */
        final Work<T> work;
        final boolean hasFirst;
        /** Whether the first attempt failed once: it is not made again. */
        boolean firstFailed;
        T value;
        RuntimeException failure;
        /** Whether {@link #runGroup} recorded this unit's outcome; a unit done but not decided is failed. */
        boolean decided;
        boolean done;

        Unit(String doing, String lockKey, Work<T> first, Work<T> work) {
            this.doing = doing;
            this.lockKey = lockKey;
            this.first = Objects.requireNonNull(first, "first");
            this.work = Objects.requireNonNull(work, "work");
            this.hasFirst = first != work;
        }

        T answer() {
            if (failure != null) {
                throw failure;
            }
            return value;
        }
    }

    void close() {
        if (!closed) {
            closed = true;
            dialect.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new UnavailableException(dialect.where() + " is closed", null);
        }
    }
}
