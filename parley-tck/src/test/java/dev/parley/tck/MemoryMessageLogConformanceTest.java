package dev.parley.tck;

import java.util.UUID;

/** The memory store passes the message-log kit. It has no stored form, so it cannot be corrupted. */
class MemoryMessageLogConformanceTest extends MessageLogConformance {

    @Override
    protected MessageLogHarness harness() {
        return StoreHarness.of("memory:tck-" + UUID.randomUUID());
    }

    @Override
    protected boolean allowMissingCapabilities() {
        return true;
    }
}
