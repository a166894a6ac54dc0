package dev.parley.tck;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;

/** The memory store passes the message-log kit. It has no stored form, so it cannot be corrupted. */
class MemoryMessageLogConformanceTest extends MessageLogConformance {

    @Override
    protected MessageLogHarness harness() {
        return new MemoryHarness();
    }

    @Override
    protected boolean allowMissingCapabilities() {
        return true;
    }

    /**
     * One memory store whose scope the kit never uses; each scope is a view of it, so "reopening" a scope sees what
     * an earlier view wrote, and closing a view (as the kit does) discards nothing.
     */
    static final class MemoryHarness implements MessageLogHarness {
        private final MemoryStore root = MemoryStore.open(StoreOptions.defaults().withScope("tck-harness-root"));

        @Override
        public Store open(String scope) {
            return root.withScope(scope);
        }

        @Override
        public void cleanupScope(String scope) {
            root.withScope(scope).deleteScope();
        }
    }
}
