package dev.parley.engine;

import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.repository.LeaseLostException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Refreshes a held lease at a fixed interval while a turn runs (Heddle renews leases during conversation turns), so
 * that a turn longer than {@link SessionService#STALE_AFTER} keeps its write authority. Started by
 * {@link SessionService#startHeartbeat}; {@link #close() closed} when the turn ends, whether it succeeded or failed.
 *
 * <p>A refresh that finds the lease lost (expired, released, taken over with a newer fencing token, or the session
 * deleted) stops the heartbeat for good and is reported by {@link #lost()}: the lease is never won back by a
 * heartbeat, and the turn's final write under the claim fails with {@link LeaseLostException}. Any other refresh failure (an unavailable
 * backend, revision conflicts through every retry) is kept in {@link #lastFailure()} and retried at the next tick; if
 * failures last longer than {@link SessionService#STALE_AFTER}, the lease expires and is lost like any other.
 *
 * <p>Thread-safe. Refreshes never overlap each other, and none runs after {@link #close()} returns.
 */
public final class TurnHeartbeat implements AutoCloseable {
    private final SessionService service;
    private final LeaseClaim claim;
    private final @Nullable ScheduledExecutorService owned;
    private final AtomicLong refreshes = new AtomicLong();
    private final Object lock = new Object();
    private volatile @Nullable ScheduledFuture<?> future;
    private volatile @Nullable LeaseLostException lost;
    private volatile @Nullable RuntimeException lastFailure;
    private volatile boolean closed;

    TurnHeartbeat(SessionService service, LeaseClaim claim, ScheduledExecutorService scheduler, Duration interval,
                  boolean ownsScheduler) {
        this.service = service;
        this.claim = claim;
        this.owned = ownsScheduler ? scheduler : null;
        long nanos = interval.toNanos();
        this.future = scheduler.scheduleWithFixedDelay(this::beat, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    private void beat() {
        synchronized (lock) {
            if (closed || lost != null) {
                return;
            }
            try {
                service.refreshLease(claim);
                refreshes.incrementAndGet();
                lastFailure = null;
            } catch (LeaseLostException e) {
                lost = e;
                cancel();
            } catch (NotFoundException e) {
                // the session is gone: its lease can never be held again
                lost = new LeaseLostException(claim.sessionId(), claim.fencingToken(), null);
                cancel();
            } catch (RuntimeException e) {
                lastFailure = e; // retried at the next tick; the lease expires if this lasts
            }
        }
    }

    private void cancel() {
        ScheduledFuture<?> f = future;
        if (f != null) {
            f.cancel(false);
        }
    }

    /**
     * The claim whose lease this heartbeat refreshes.
     *
     * @return the claim the heartbeat was started with
     */
    public LeaseClaim claim() {
        return claim;
    }

    /**
     * Why the lease was lost, if a refresh found it lost; empty while the lease is (as far as the last refresh knows)
     * held. Once present it stays present.
     *
     * @return the failure of the refresh that found the lease lost (for a deleted session, one made for the claim,
     *     with no current lease); empty while the lease is held
     */
    public Optional<LeaseLostException> lost() {
        return Optional.ofNullable(lost);
    }

    /**
     * How many refreshes have succeeded so far (not counting the check {@code startHeartbeat} makes).
     *
     * @return the count, from 0
     */
    public long refreshes() {
        return refreshes.get();
    }

    /**
     * The failure of the latest refresh that failed for a reason other than a lost lease; cleared by a success. Once
     * the lease is found lost ({@link #lost()}) no refresh runs again, so this keeps what it held then.
     *
     * @return the latest such failure; empty when none has happened since the start or the last successful refresh
     */
    public Optional<RuntimeException> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once {@link #close()} has been called
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops refreshing: waits for a refresh in progress, cancels the rest, and shuts down the scheduler if the
     * heartbeat owns it (an injected scheduler is left running). Does not release the lease. Idempotent.
     */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        cancel();
        if (owned != null) {
            owned.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "TurnHeartbeat[" + claim.sessionId() + ", token " + claim.fencingToken() + ", refreshes " + refreshes
                + (lost != null ? ", lost" : "") + (closed ? ", closed" : "") + "]";
    }

    static Duration requireInterval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero() || interval.compareTo(SessionService.STALE_AFTER) >= 0) {
            throw new InvalidInputException("a heartbeat interval must be positive and shorter than "
                    + SessionService.STALE_AFTER + ", got " + interval);
        }
        return interval;
    }
}
