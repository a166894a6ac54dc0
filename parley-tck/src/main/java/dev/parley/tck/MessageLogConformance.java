package dev.parley.tck;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point for the message-log scenarios: extend it, implement {@link #harness()}, and every
 * scenario becomes a test named by its id and name. A scenario whose capability the harness lacks fails with the
 * harness's {@link CapabilityMissing} unless {@link #allowMissingCapabilities()} says otherwise — nothing is skipped
 * silently.
 */
public abstract class MessageLogConformance {

    /** The backend's harness. Called once per test class instance. */
    protected abstract MessageLogHarness harness();

    /** Whether a scenario needing a capability the harness lacks passes (it is then reported, not run). */
    protected boolean allowMissingCapabilities() {
        return false;
    }

    @TestFactory
    Stream<DynamicTest> messageLogConformance() {
        MessageLogHarness harness = harness();
        return MessageLogScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.title(), () -> {
            try {
                ConformanceRunner.runOne(s, harness, MessageLogHarness::cleanupScope);
            } catch (CapabilityMissing e) {
                if (!allowMissingCapabilities()) {
                    throw e;
                }
                System.out.println("[parley-tck] " + s.title() + ": not run, " + e.getMessage());
            }
        }));
    }
}
