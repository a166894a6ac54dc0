package dev.parley.tck;

import java.util.Objects;

/**
 * One conformance scenario: an id tied to a numbered rule of a contract, a name, the rule it checks, and a body.
 *
 * @param id the stable id, e.g. {@code ML-02}
 * @param name the scenario's name, e.g. {@code batch append is atomic}
 * @param rule the rule of the contract the scenario checks, as one sentence
 * @param body what the scenario does
 * @param <H> the harness type
 */
public record Scenario<H>(String id, String name, String rule, Body<H> body) {
    /**
     * Keeps the values as given; the id's form is not checked.
     *
     * @param id the stable id, e.g. {@code ML-02}
     * @param name the scenario's name, e.g. {@code batch append is atomic}
     * @param rule the rule of the contract the scenario checks, as one sentence
     * @param body what the scenario does
     * @throws NullPointerException if {@code id}, {@code name}, {@code rule} or {@code body} is null
     */
    public Scenario {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(body, "body");
    }

    /**
     * The id and name, as failures and reports show them.
     *
     * @return the id, a space and the name, e.g. {@code ML-02 batch append is atomic}
     */
    public String title() {
        return id + " " + name;
    }

    /**
     * A scenario's body.
     *
     * @param <H> the harness type
     */
    @FunctionalInterface
    public interface Body<H> {
        /**
         * Runs the scenario in {@code scope}, failing by throwing.
         *
         * @param harness the backend's harness
         * @param scope a scope of its own, cleaned up afterwards
         * @throws Exception any exception fails the scenario ({@link ConformanceRunner#runOne} reports it as an
         *     unexpected one in a {@link ConformanceFailure}), except a {@link CapabilityMissing}, which skips it
         */
        void run(H harness, String scope) throws Exception;
    }
}
