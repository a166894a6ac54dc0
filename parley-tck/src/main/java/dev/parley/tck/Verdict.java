package dev.parley.tck;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one scenario.
 *
 * @param scenario the scenario's id and name
 * @param outcome passed, failed or skipped (a capability the harness declares it lacks)
 * @param detail why it failed or was skipped, or null when it passed
 * @param elapsed how long it ran
 */
public record Verdict(String scenario, Outcome outcome, @Nullable String detail, Duration elapsed) {
    public Verdict {
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /** The outcomes. */
    public enum Outcome {
        PASSED, FAILED, SKIPPED
    }

    public boolean passed() {
        return outcome == Outcome.PASSED;
    }
}
