package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.AgentId;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.remote.RemoteStatus;
import dev.parley.remote.RemoteStore;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.util.ClassUtils;

/**
 * What a health check of a store reads and reports: shared by the health indicator of each Spring Boot line
 * ({@link ParleyHealthIndicator} on Boot 3, {@link dev.parley.spring.boot.autoconfigure.boot4.ParleyHealthIndicator}
 * on Boot 4), whose Actuator APIs differ in their packages only.
 *
 * <p>Thread-safe: it holds no state.
 */
public final class StoreHealth {
    private static final boolean REMOTE_PRESENT = ClassUtils.isPresent("dev.parley.remote.RemoteStore",
            StoreHealth.class.getClassLoader());

    private StoreHealth() {}

    /**
     * What the store is, reported whether it is up or down; reads nothing.
     *
     * @param store the store
     * @return {@code store} (its URI, secrets masked), {@code scope} and {@code capabilities} (names, sorted), in
     *     that order; a new modifiable map
     */
    public static Map<String, Object> describe(Store store) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("store", store.uri());
        details.put("scope", store.scope());
        details.put("capabilities", store.capabilities().stream().map(Enum::name).sorted().toList());
        return details;
    }

    /**
     * Checks that the store answers: a one-entry read of its catalog, or of its log for a store without a catalog. A
     * {@code remote:} store (with {@code parley-remote} on the class path) answers from its fallback store while its
     * server is down; whether the server answered is in the details this returns. Waits at most the store's timeout
     * (a {@code remote:} store's health call, and a replay of pending writes when its server is back).
     *
     * @param store the store to check
     * @return for a {@code remote:} store, {@code server} (masked), {@code serverReachable}, {@code breaker},
     *     {@code pendingReplay}, {@code replayConflicts} and {@code fallback}, as {@code parley remote status} prints
     *     them; otherwise empty. A new modifiable map
     * @throws RuntimeException what the read threw ({@link dev.parley.core.UnavailableException} for a store that
     *     does not answer or is closed): the store is down
     */
    public static Map<String, Object> check(Store store) {
        if (store.catalog().isPresent()) {
            store.catalog().get().list(null, 1);
        } else {
            store.log().loadUsage(SessionId.of("parley-health"), AgentId.MAIN);
        }
        return REMOTE_PRESENT ? Remote.details(store) : new LinkedHashMap<>();
    }

    /** Apart, so that its references to {@code parley-remote} are resolved only when that module is present. */
    private static final class Remote {
        static Map<String, Object> details(Store store) {
            Map<String, Object> details = new LinkedHashMap<>();
            if (store instanceof RemoteStore remote) {
                RemoteStatus status = remote.status();
                details.put("server", Stores.redact(status.server()));
                details.put("serverReachable", status.reachable());
                details.put("breaker", status.breaker());
                details.put("pendingReplay", status.pending());
                details.put("replayConflicts", status.conflicts());
                details.put("fallback", status.fallback());
            }
            return details;
        }
    }
}
