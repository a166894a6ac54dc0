package dev.parley.tck.junit;

import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.ArchiveRepositoryScenarios;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point for the archive-repository scenarios ({@code AR-1}…{@code AR-7}): extend it, implement
 * {@link #harness()}, and each scenario becomes a test named by its id and name. Missing capabilities are handled as
 * in {@link MessageLogConformance}.
 */
public abstract class ArchiveRepositoryConformance {

    /**
     * The backend's harness, for example {@code StoreHarness.of(uri)}. Called once per run of the factory.
     *
     * @return the harness every scenario of the run uses
     */
    protected abstract ArchiveRepositoryHarness harness();

    /**
     * As {@link MessageLogConformance#allowMissingCapabilities()}. False unless overridden.
     *
     * @return true to report a scenario that needs something the harness cannot do as skipped; false to fail it
     */
    protected boolean allowMissingCapabilities() {
        return false;
    }

    @TestFactory
    Stream<DynamicTest> archiveRepositoryConformance() {
        return DynamicScenarios.tests(ArchiveRepositoryScenarios.all(), harness(),
                ArchiveRepositoryHarness::cleanupScope, allowMissingCapabilities());
    }
}
