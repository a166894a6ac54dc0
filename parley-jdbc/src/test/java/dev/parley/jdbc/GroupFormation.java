package dev.parley.jdbc;

import dev.parley.jdbc.internal.Database;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Forms a group commit deterministically, for the SQLite and PostgreSQL backends' group-commit tests: a first unit
 * holds the group's connection until every other call waits behind it, and then lets them go, so that the waiting
 * calls are committed by the groups that follow (one group while they are at most {@link Database#MAX_GROUP_UNITS}).
 */
public final class GroupFormation {
    private GroupFormation() {}

    /**
     * Holds {@code db}'s group connection with a unit of its own, submits {@code calls} to {@code threads}, waits
     * until all of them are queued for the next group, then releases the holder.
     *
     * @return the calls' futures, in the order of {@code calls}
     */
    public static List<Future<?>> inOneGroup(Database db, ExecutorService threads, List<Callable<?>> calls)
            throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> holder = threads.submit(() -> db.writeInGroup("hold", "", c -> {
            holding.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return null;
        }));
        holding.await();
        List<Future<?>> futures = new ArrayList<>();
        for (Callable<?> call : calls) {
            futures.add(threads.submit(call));
        }
        while (db.waiting() < calls.size()) {
            Thread.sleep(1);
        }
        release.countDown();
        holder.get();
        return futures;
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
