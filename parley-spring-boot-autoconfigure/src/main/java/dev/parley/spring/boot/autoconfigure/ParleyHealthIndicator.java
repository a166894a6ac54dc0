package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.store.Store;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The store's health: up when a one-entry read of its catalog succeeds (a read of the log for a store without a
 * catalog), down with the failure otherwise. Details: the store's URI (secrets masked), scope and capabilities.
 * Thread-safe.
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
        builder.withDetail("store", store.uri()).withDetail("scope", store.scope())
                .withDetail("capabilities", store.capabilities().stream().map(Enum::name).sorted().toList());
        if (store.catalog().isPresent()) {
            store.catalog().get().list(null, 1);
        } else {
            store.log().loadUsage(dev.parley.core.SessionId.of("parley-health"), dev.parley.core.AgentId.MAIN);
        }
        builder.up();
    }
}
