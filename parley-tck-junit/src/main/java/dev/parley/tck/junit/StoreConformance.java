package dev.parley.tck.junit;

import dev.parley.tck.Kit;
import dev.parley.tck.StoreHarness;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The JUnit 5 entry point that certifies a whole store: extend it, return a {@link StoreHarness} from
 * {@link #harness()}, and each {@link Kit} becomes a container of tests named by scenario id and name — the same
 * scenarios, in the same order, as {@code parley conformance}.
 *
 * <p>Which kits run follows the store's {@linkplain StoreHarness#capabilities() capabilities}: the scenarios of a
 * kit whose capability the store does not declare are each reported skipped (aborted) with that reason. A scenario
 * that needs damage injection the harness cannot do fails, unless {@link #allowMissingCapabilities()} says to report
 * it skipped with the reason. No scenario passes without running.
 */
public abstract class StoreConformance {

    /**
     * The harness of the store under test: {@code StoreHarness.of(uri)} for a URI (a temporary directory or
     * database), {@code StoreHarness.over(store)} for a store made in code. Called once per run of the factory.
     *
     * @return the harness every scenario of the run uses; its capabilities choose the kits that run
     */
    protected abstract StoreHarness harness();

    /**
     * As {@link MessageLogConformance#allowMissingCapabilities()}. False unless overridden.
     *
     * @return true to report a scenario that needs something the harness cannot do as skipped; false to fail it
     */
    protected boolean allowMissingCapabilities() {
        return false;
    }

    @TestFactory
    Stream<DynamicContainer> storeConformance() {
        StoreHarness harness = harness();
        return Arrays.stream(Kit.values()).map(kit -> DynamicContainer.dynamicContainer(kit.label(), tests(harness, kit)));
    }

    private Stream<DynamicTest> tests(StoreHarness harness, Kit kit) {
        return harness.capabilities().contains(kit.requires())
                ? DynamicScenarios.tests(kit.scenarios(), harness, StoreHarness::cleanupScope, allowMissingCapabilities())
                : DynamicScenarios.notApplicable(kit.titles(), kit.notDeclared());
    }
}
