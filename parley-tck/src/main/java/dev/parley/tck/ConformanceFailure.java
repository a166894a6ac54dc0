package dev.parley.tck;

/**
 * A backend broke a rule of the contract. The message starts with the scenario's id and name, so the failure reads
 * the same in a JUnit report, on the command line and in a log.
 */
public final class ConformanceFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    /** The id and name of the failed scenario. */
    private final String scenario;

    /**
     * A failed scenario.
     *
     * @param scenario the scenario's id and name ({@link Scenario#title()})
     * @param detail what went wrong; the message is {@code scenario: detail}
     * @param cause what the scenario threw
     */
    public ConformanceFailure(String scenario, String detail, Throwable cause) {
        super(scenario + ": " + detail, cause);
        this.scenario = scenario;
    }

    /**
     * The id and name of the failed scenario.
     *
     * @return the scenario's title, as given to the constructor
     */
    public String scenario() {
        return scenario;
    }
}
