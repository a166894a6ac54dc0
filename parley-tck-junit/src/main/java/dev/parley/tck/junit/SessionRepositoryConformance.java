package dev.parley.tck.junit;

import dev.parley.tck.SessionRepositoryHarness;
import dev.parley.tck.SessionRepositoryScenarios;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point for the session-repository scenarios ({@code CS-1}…{@code CS-10}): extend it, implement
 * {@link #harness()}, and each scenario becomes a test named by its id and name. Missing capabilities are handled as
 * in {@link MessageLogConformance}.
 */
public abstract class SessionRepositoryConformance {

    /**
     * The backend's harness, for example {@code StoreHarness.of(uri)}. Called once per run of the factory.
     *
     * @return the harness every scenario of the run uses
     */
    protected abstract SessionRepositoryHarness harness();

    /**
     * As {@link MessageLogConformance#allowMissingCapabilities()}. False unless overridden.
     *
     * @return true to report a scenario that needs something the harness cannot do as skipped; false to fail it
     */
    protected boolean allowMissingCapabilities() {
        return false;
    }

    @TestFactory
    Stream<DynamicTest> sessionRepositoryConformance() {
        return DynamicScenarios.tests(SessionRepositoryScenarios.all(), harness(),
                SessionRepositoryHarness::cleanupScope, allowMissingCapabilities());
    }
}
