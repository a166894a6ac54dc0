package dev.parley.engine;

import dev.parley.core.InvalidInputException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.MemoryMessageLog;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;

/**
 * Serves {@code memory:} with repositories: each open is a new, empty {@link MemoryMessageLog} whose
 * {@link MessageLog#repositories()} are a new {@link MemoryRepositories}. Registered as a service, it takes precedence
 * over the core's repository-less {@code memory:}.
 */
public final class MemoryStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "memory";
    }

    @Override
    public MessageLog open(String location, StoreOptions options) {
        if (!location.isEmpty()) {
            throw new InvalidInputException("memory: takes no location, got 'memory:" + location + "'");
        }
        return new MemoryMessageLog(options, new MemoryRepositories());
    }
}
