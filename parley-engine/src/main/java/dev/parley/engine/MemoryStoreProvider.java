package dev.parley.engine;

import dev.parley.core.log.MessageLog;
import dev.parley.core.store.MemoryMessageLog;

/**
 * Serves {@code memory:} with repositories: each open is a new, empty {@link MemoryMessageLog} whose
 * {@link MessageLog#repositories()} are a new {@link MemoryRepositories}. Registered as a service, it takes precedence
 * over the core's repository-less {@code memory:}.
 */
public final class MemoryStoreProvider extends MemoryMessageLog.Provider {
    public MemoryStoreProvider() {
        super(MemoryRepositories::new);
    }
}
