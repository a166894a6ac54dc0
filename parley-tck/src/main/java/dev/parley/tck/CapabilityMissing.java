package dev.parley.tck;

/**
 * Thrown by a harness method for a capability the backend declares it lacks (for example, injecting corruption into
 * a store that has no stored form). The runner reports the scenario as skipped with this message — never silently:
 * the verdict is listed.
 */
public final class CapabilityMissing extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CapabilityMissing(String capability) {
        super("the harness does not offer: " + capability);
    }
}
