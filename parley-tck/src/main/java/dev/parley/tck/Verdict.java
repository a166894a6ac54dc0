package dev.parley.tck;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one scenario.
 *
 * @param id the scenario's id, e.g. {@code ML-02}
 * @param scenario the scenario's title: its id and name, e.g. {@code ML-02 batch append is atomic}
 * @param outcome passed, failed, or skipped (the scenario could not run against this store)
 * @param detail why it failed or was skipped, or null when it passed; a skipped verdict always says why
 * @param elapsed how long it ran
 */
public record Verdict(String id, String scenario, Outcome outcome, @Nullable String detail, Duration elapsed) {
    /**
     * Checks that the title begins with the id and that a verdict other than {@link Outcome#PASSED} says why. A
     * passed verdict may still carry a detail; it is not cleared.
     *
     * @param id the scenario's id, e.g. {@code ML-02}
     * @param scenario the scenario's title: its id and name, e.g. {@code ML-02 batch append is atomic}
     * @param outcome passed, failed, or skipped (the scenario could not run against this store)
     * @param detail why it failed or was skipped, not blank then; null, or a note kept as given, when it passed
     * @param elapsed how long it ran
     * @throws NullPointerException if {@code id}, {@code scenario}, {@code outcome} or {@code elapsed} is null
     * @throws IllegalArgumentException if {@code scenario} is not {@code id} or {@code id} and a space and a name, or the outcome is failed
     *     or skipped and {@code detail} is null or blank
     */
    public Verdict {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(elapsed, "elapsed");
        if (!(scenario.equals(id) || scenario.startsWith(id + " "))) {
            throw new IllegalArgumentException("the title '" + scenario + "' does not start with the id " + id);
        }
        if (outcome != Outcome.PASSED && (detail == null || detail.isBlank())) {
            throw new IllegalArgumentException(id + " is " + outcome + " without saying why");
        }
    }

    /** The outcomes. */
    public enum Outcome {
        /** The scenario ran and the store kept every rule it checks. */
        PASSED,
        /** The scenario ran and the store broke a rule; the detail says which check failed. */
        FAILED,
        /**
         * The scenario could not run: the store does not declare the capability it needs, or the harness cannot
         * inject the damage it needs. The detail says which.
         */
        SKIPPED
    }

    /**
     * Whether the scenario passed.
     *
     * @return true when the outcome is {@link Outcome#PASSED}
     */
    public boolean passed() {
        return outcome == Outcome.PASSED;
    }
}
