package dev.parley.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * Runs scenarios against a harness without any test framework: what {@code parley conformance} and the JUnit 5
 * entry points of {@code parley-tck-junit} both use. Each scenario gets a fresh scope ({@code tck-<id>-<random>});
 * the scope is cleaned up even when the scenario fails. Stateless and thread-safe; a run is as thread-safe as its
 * harness.
 */
public final class ConformanceRunner {
    private ConformanceRunner() {}

    /**
     * Runs one scenario in a scope of its own, and cleans the scope up afterwards, also when the scenario fails.
     *
     * @param <H> the harness type
     * @param scenario the scenario to run
     * @param harness the backend's harness, passed to the scenario's body
     * @param cleanup cleans a scope up (the harness's {@code cleanupScope})
     * @throws ConformanceFailure if the scenario fails; its message starts with the scenario's id and name
     * @throws CapabilityMissing as thrown by the harness, if the scenario needs something the harness cannot do
     */
    public static <H> void runOne(Scenario<H> scenario, H harness, BiConsumer<H, String> cleanup) {
        String scope = "tck-" + scenario.id().toLowerCase(Locale.ROOT) + "-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            scenario.body().run(harness, scope);
        } catch (ConformanceFailure | CapabilityMissing e) {
            throw e;
        } catch (AssertionError e) {
            throw new ConformanceFailure(scenario.title(), e.getMessage() != null ? e.getMessage()
                    : "an assertion failed" + where(e), e);
        } catch (Exception e) {
            throw new ConformanceFailure(scenario.title(), "unexpected " + e.getClass().getSimpleName()
                    + (e.getMessage() != null ? ": " + e.getMessage() : where(e)), e);
        } finally {
            cleanup.accept(harness, scope);
        }
    }

    /**
     * Where a failure without a message was thrown, " at" its first stack frame, so that a report still points
     * somewhere ("unexpected NullPointerException at ...", never "...: null"); "" when it has no stack trace.
     */
    private static String where(Throwable e) {
        StackTraceElement[] trace = e.getStackTrace();
        return trace.length == 0 ? "" : " at " + trace[0];
    }

    /**
     * Runs every scenario, in order, and returns one verdict each: {@link Verdict.Outcome#FAILED} for a
     * {@link ConformanceFailure}, {@link Verdict.Outcome#SKIPPED} for a {@link CapabilityMissing} (with its message).
     * Never throws for a failing scenario.
     *
     * @param <H> the harness type
     * @param scenarios the scenarios to run, in order
     * @param harness the backend's harness, passed to each scenario's body
     * @param cleanup cleans a scope up (the harness's {@code cleanupScope}), after each scenario
     * @return one verdict per scenario, in the order of {@code scenarios}
     */
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
            verdicts.add(new Verdict(s.id(), s.title(), outcome, detail, Duration.ofNanos(System.nanoTime() - start)));
        }
        return verdicts;
    }

    /**
     * One {@link Verdict.Outcome#SKIPPED} verdict per scenario, each giving the reason, without running any: for a
     * kit whose capability the store does not declare. A kit that does not apply is listed, never left out.
     *
     * @param <H> the harness type
     * @param scenarios the scenarios to report
     * @param reason why none of them can run; not blank
     * @return one skipped verdict per scenario, in the order of {@code scenarios}, each with zero elapsed time
     * @throws IllegalArgumentException if {@code reason} is blank and {@code scenarios} is not empty
     */
    public static <H> List<Verdict> skipAll(List<Scenario<H>> scenarios, String reason) {
        Objects.requireNonNull(reason, "reason");
        return scenarios.stream().map(s -> new Verdict(s.id(), s.title(), Verdict.Outcome.SKIPPED, reason, Duration.ZERO))
                .toList();
    }
}
