package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.remote.RemoteStatus;
import dev.parley.remote.RemoteStore;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.util.ClassUtils;

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
 * <p>Thread-safe.
 */
public class ParleyHealthIndicator extends AbstractHealthIndicator {
    private static final boolean REMOTE_PRESENT = ClassUtils.isPresent("dev.parley.remote.RemoteStore",
            ParleyHealthIndicator.class.getClassLoader());

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
        if (REMOTE_PRESENT) {
            Remote.addDetails(store, builder);
        }
        builder.up();
    }

    /** Apart, so that its references to {@code parley-remote} are resolved only when that module is present. */
    private static final class Remote {
        static void addDetails(Store store, Health.Builder builder) {
            if (store instanceof RemoteStore remote) {
                RemoteStatus status = remote.status();
                builder.withDetail("server", Stores.redact(status.server()))
                        .withDetail("serverReachable", status.reachable())
                        .withDetail("breaker", status.breaker()).withDetail("pendingReplay", status.pending())
                        .withDetail("replayConflicts", status.conflicts()).withDetail("fallback", status.fallback());
            }
        }
    }
}
