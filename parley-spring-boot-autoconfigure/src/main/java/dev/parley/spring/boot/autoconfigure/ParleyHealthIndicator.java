package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.store.Store;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The store's health: up when a one-entry read of its catalog succeeds (a read of the log for a store without a
 * catalog), down with the failure otherwise. Details: the store's URI (secrets masked), scope and capabilities.
 *
 * <p>A {@code remote:} store (with {@code parley-remote} on the class path) is up while its reads are answered, by the
 * server or, while the server is down, by its fallback store, where its writes then go durably and wait to be
 * replayed: the application keeps working, so the indicator does not report it down. Whether the server itself
 * answered is in the details, beside the breaker's state and the replay's backlog: {@code serverReachable} (a health
 * call made by this check, which waits at most the store's timeout), {@code breaker}, {@code pendingReplay} and
 * {@code replayConflicts} — what {@code parley remote status} prints. Session records and archives do not fall back:
 * an application that uses them should watch {@code serverReachable}. The check may take up to the store's timeout
 * (its health call, and a replay of pending writes when the server is back); give the probe that long.
 *
 * <p>For Spring Boot 3 (its Actuator's {@code org.springframework.boot.actuate.health}); on Boot 4 the starter registers
 * {@link dev.parley.spring.boot.autoconfigure.boot4.ParleyHealthIndicator} instead, which checks the same
 * ({@link StoreHealth}).
 *
 * <p>Thread-safe.
 */
public class ParleyHealthIndicator extends AbstractHealthIndicator {
    private final Store store;

    /** @param store the store to check */
    public ParleyHealthIndicator(Store store) {
        super("Parley store health check failed");
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetails(StoreHealth.describe(store)); // reported down as well as up
        builder.withDetails(StoreHealth.check(store)).up();
    }
}
