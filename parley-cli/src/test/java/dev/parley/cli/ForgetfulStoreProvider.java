package dev.parley.cli;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import dev.parley.core.store.StoreUri;

/**
 * {@code forgetful:NAME}, for {@link ConformanceCommandTest}: a broken store that forgets everything between opens
 * (each open is a new, empty memory store), so the kit has something to catch.
 */
public final class ForgetfulStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "forgetful";
    }

    @Override
    public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
        return MemoryStore.open(options.withScope(scope));
    }
}
