package dev.parley.jdbc;

import dev.parley.core.SessionId;
import dev.parley.jdbc.internal.Database;
import dev.parley.jdbc.internal.JdbcStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Forms group commits deterministically, for the SQLite and PostgreSQL backends' group-commit tests: a unit in each
 * lane holds that lane's group until every other call waits behind one of these units, and then all are released, so
 * that the waiting calls are committed by the groups that follow (one group per lane while a lane's calls are at most
 * {@link Database#MAX_GROUP_UNITS}). Calls meant for one group must go to one lane: {@link #sessionInLane}.
 */
public final class GroupFormation {
    private GroupFormation() {}

    /**
     * Holds every lane of {@code db} with a unit of its own, submits {@code calls} to {@code threads}, waits until all
     * of them are queued for the next group of their lane, then releases the holders.
     *
     * @return the calls' futures, in the order of {@code calls}
     */
    public static List<Future<?>> inOneGroup(Database db, ExecutorService threads, List<Callable<?>> calls)
            throws Exception {
        CountDownLatch holding = new CountDownLatch(db.lanes());
        CountDownLatch release = new CountDownLatch(1);
        List<Future<?>> holders = new ArrayList<>();
        for (String key : keyInEachLane(db)) {
            holders.add(threads.submit(() -> db.writeInGroup("hold", key, c -> {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return null;
            })));
        }
        holding.await();
        List<Future<?>> futures = new ArrayList<>();
        for (Callable<?> call : calls) {
            futures.add(threads.submit(call));
        }
        while (db.waiting() < calls.size()) {
            Thread.sleep(1);
        }
        release.countDown();
        for (Future<?> holder : holders) {
            holder.get();
        }
        return futures;
    }

    /** A lock key in each lane of {@code db}, in lane order. */
    private static List<String> keyInEachLane(Database db) {
        List<String> keys = new ArrayList<>();
        for (int lane = 0; lane < db.lanes(); lane++) {
            int n = 0;
            while (db.laneOf("hold-" + n) != lane) {
                n++;
            }
            keys.add("hold-" + n);
        }
        return keys;
    }

    /** The session named {@code prefix} and the least number whose appends in {@code store} go to {@code lane}. */
    public static SessionId sessionInLane(JdbcStore store, int lane, String prefix) {
        int n = 0;
        while (store.laneOf(new SessionId(prefix + n)) != lane) {
            n++;
        }
        return new SessionId(prefix + n);
    }

    /** What the call behind {@code f} threw, or null when it returned; waits for it. */
    public static Throwable failureOf(Future<?> f) throws InterruptedException {
        try {
            f.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
