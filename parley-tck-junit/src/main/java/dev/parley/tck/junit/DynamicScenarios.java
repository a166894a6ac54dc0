package dev.parley.tck.junit;

import dev.parley.tck.CapabilityMissing;
import dev.parley.tck.ConformanceRunner;
import dev.parley.tck.Scenario;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.TestAbortedException;

/** Scenarios as JUnit dynamic tests, named by their titles. Not API. */
final class DynamicScenarios {
    private DynamicScenarios() {}

    /**
     * One test per scenario. A scenario that fails fails its test with the {@link dev.parley.tck.ConformanceFailure}
     * (its message starts with the scenario's id). One that needs something the harness cannot do fails with the
     * {@link CapabilityMissing}, or, when {@code allowMissingCapabilities}, is aborted with it — JUnit reports it
     * skipped, with the reason; it never passes.
     */
    static <H> Stream<DynamicTest> tests(List<Scenario<H>> scenarios, H harness, BiConsumer<H, String> cleanup,
                                         boolean allowMissingCapabilities) {
        return scenarios.stream().map(s -> DynamicTest.dynamicTest(s.title(), () -> {
            try {
                ConformanceRunner.runOne(s, harness, cleanup);
            } catch (CapabilityMissing e) {
                if (!allowMissingCapabilities) {
                    throw e;
                }
                throw new TestAbortedException(s.title() + ": not run, " + e.getMessage(), e);
            }
        }));
    }

    /** One aborted test per scenario title, each giving the reason: for a kit that does not apply to the store. */
    static Stream<DynamicTest> notApplicable(List<String> titles, String reason) {
        return titles.stream().map(title -> DynamicTest.dynamicTest(title, () -> {
            throw new TestAbortedException(title + ": not run, " + reason);
        }));
    }
}
