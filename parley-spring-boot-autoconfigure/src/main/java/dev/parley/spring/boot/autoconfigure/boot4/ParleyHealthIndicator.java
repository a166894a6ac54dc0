package dev.parley.spring.boot.autoconfigure.boot4;

import dev.parley.core.store.Store;
import dev.parley.spring.boot.autoconfigure.StoreHealth;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The store's health on Spring Boot 4 (its {@code org.springframework.boot.health.contributor} API): what
 * {@link dev.parley.spring.boot.autoconfigure.ParleyHealthIndicator} reports on Boot 3, checked the same way
 * ({@link StoreHealth}) — up when a one-entry read of the store's catalog succeeds, down with the failure otherwise,
 * with the store's URI (secrets masked), scope and capabilities, and a {@code remote:} store's server status, in the
 * details.
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
