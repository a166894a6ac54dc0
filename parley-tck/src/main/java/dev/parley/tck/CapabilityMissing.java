package dev.parley.tck;

/**
 * Thrown by a harness method for something the harness cannot do for this store (for example, injecting corruption
 * into a store that has no stored form, or reaching a catalog the store does not have). {@link ConformanceRunner#run}
 * reports the scenario as {@linkplain Verdict.Outcome#SKIPPED skipped} with this message — never silently: the
 * verdict is listed. The JUnit entry points fail the test unless the test class allows it.
 */
public final class CapabilityMissing extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param capability what the harness cannot do, for the message */
    public CapabilityMissing(String capability) {
        super("the harness does not offer: " + capability);
    }
}
