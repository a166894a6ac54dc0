package dev.parley.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * Runs scenarios against a harness without any test framework: what {@code parley conformance} and the JUnit entry
 * point both use. Each scenario gets a fresh scope; the scope is cleaned up even when the scenario fails.
 */
public final class ConformanceRunner {
    private ConformanceRunner() {}

    /**
     * Runs one scenario.
     *
     * @param cleanup cleans a scope up (the harness's {@code cleanupScope})
     * @throws ConformanceFailure if it fails (a {@link CapabilityMissing} is rethrown as is)
     */
    public static <H> void runOne(Scenario<H> scenario, H harness, BiConsumer<H, String> cleanup) {
        String scope = "tck-" + scenario.id().toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            scenario.body().run(harness, scope);
        } catch (ConformanceFailure | CapabilityMissing e) {
            throw e;
        } catch (AssertionError e) {
            throw new ConformanceFailure(scenario.title(), e.getMessage(), e);
        } catch (Exception e) {
            throw new ConformanceFailure(scenario.title(), "unexpected " + e.getClass().getSimpleName() + ": "
                    + e.getMessage(), e);
        } finally {
            cleanup.accept(harness, scope);
        }
    }

    /** Runs every scenario and returns one verdict each, in order; never throws for a failing scenario. */
    public static <H> List<Verdict> run(List<Scenario<H>> scenarios, H harness, BiConsumer<H, String> cleanup) {
        List<Verdict> verdicts = new ArrayList<>();
        for (Scenario<H> s : scenarios) {
            long start = System.nanoTime();
            Verdict.Outcome outcome = Verdict.Outcome.PASSED;
            String detail = null;
            try {
                runOne(s, harness, cleanup);
            } catch (CapabilityMissing e) {
                outcome = Verdict.Outcome.SKIPPED;
                detail = e.getMessage();
            } catch (ConformanceFailure e) {
                outcome = Verdict.Outcome.FAILED;
                detail = e.getMessage();
            }
            verdicts.add(new Verdict(s.title(), outcome, detail, Duration.ofNanos(System.nanoTime() - start)));
        }
        return verdicts;
    }
}
