/**
 * Parley's conformance kit: runner-neutral scenarios that certify a backend, a harness SPI each backend
 * implements, and a JUnit 5 entry point.
 *
 * <p>To certify a message log, implement {@link dev.parley.tck.MessageLogHarness} and either extend
 * {@link dev.parley.tck.MessageLogConformance} in a JUnit 5 test, or call
 * {@link dev.parley.tck.ConformanceRunner#run} from anything else. Each scenario runs in a scope of its own, and the
 * scope is cleaned up even when the scenario fails. Scenario ids are tied to the numbered rules of the contract
 * ({@code ML-…} for the message log).
 */
@NullMarked
package dev.parley.tck;

import org.jspecify.annotations.NullMarked;
