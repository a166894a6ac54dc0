package dev.parley.tck;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point for the session-repository scenarios: extend it, implement {@link #harness()}, and each
 * scenario becomes a test named by its id and name.
 */
public abstract class SessionRepositoryConformance {

    /** The backend's harness. */
    protected abstract SessionRepositoryHarness harness();

    @TestFactory
    Stream<DynamicTest> sessionRepositoryConformance() {
        SessionRepositoryHarness harness = harness();
        return SessionRepositoryScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.title(),
                () -> ConformanceRunner.runOne(s, harness, SessionRepositoryHarness::cleanupScope)));
    }
}
