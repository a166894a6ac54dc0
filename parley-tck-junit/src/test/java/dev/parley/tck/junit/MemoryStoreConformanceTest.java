package dev.parley.tck.junit;

import dev.parley.core.store.MemoryStore;
import dev.parley.tck.StoreHarness;
import org.junit.jupiter.api.AfterEach;

/**
 * The memory store, certified the way an adapter certifies its store. It has no stored form to damage, so its
 * corruption scenarios (ML-08, CS-7, AR-6) are reported skipped with the reason.
 */
class MemoryStoreConformanceTest extends StoreConformance {
    private final MemoryStore store = MemoryStore.open();

    @Override
    protected StoreHarness harness() {
        return StoreHarness.over(store);
    }

    @Override
    protected boolean allowMissingCapabilities() {
        return true;
    }

    @AfterEach
    void closeTheStore() {
        store.close();
    }
}
