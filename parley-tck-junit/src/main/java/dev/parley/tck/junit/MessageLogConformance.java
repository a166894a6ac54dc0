package dev.parley.tck.junit;

import dev.parley.tck.CapabilityMissing;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.MessageLogScenarios;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point for the message-log scenarios ({@code ML-01}…): extend it, implement {@link #harness()},
 * and every scenario becomes a test named by its id and name. A scenario that needs something the harness cannot do
 * ({@link CapabilityMissing}, e.g. damage injection) fails unless {@link #allowMissingCapabilities()} says otherwise,
 * and is then reported skipped with the reason — never passed silently. To certify a whole store by its
 * capabilities, extend {@link StoreConformance} instead.
 */
public abstract class MessageLogConformance {

    /**
     * The backend's harness, for example {@code StoreHarness.of(uri)}. Called once per run of the factory.
     *
     * @return the harness every scenario of the run uses
     */
    protected abstract MessageLogHarness harness();

    /**
     * Whether a scenario needing something the harness cannot do is reported skipped (aborted, with the reason)
     * rather than failed. False unless overridden.
     *
     * @return true to report such a scenario as skipped; false to fail it
     */
    protected boolean allowMissingCapabilities() {
        return false;
    }

    @TestFactory
    Stream<DynamicTest> messageLogConformance() {
        return DynamicScenarios.tests(MessageLogScenarios.all(), harness(), MessageLogHarness::cleanupScope,
                allowMissingCapabilities());
    }
}
