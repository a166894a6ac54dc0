package dev.parley.tck;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point for the archive-repository scenarios: extend it, implement {@link #harness()}, and each of
 * the six scenarios becomes a test named by its id and name.
 */
public abstract class ArchiveRepositoryConformance {

    /** The backend's harness. */
    protected abstract ArchiveRepositoryHarness harness();

    @TestFactory
    Stream<DynamicTest> archiveRepositoryConformance() {
        ArchiveRepositoryHarness harness = harness();
        return ArchiveRepositoryScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.title(),
                () -> ConformanceRunner.runOne(s, harness, ArchiveRepositoryHarness::cleanupScope)));
    }
}
