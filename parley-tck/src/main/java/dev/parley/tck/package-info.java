/**
 * Parley's conformance kit: runner-neutral scenarios that certify a store, the harness SPI they run against, and a
 * runner that turns them into {@linkplain dev.parley.tck.Verdict verdicts}. This artifact depends on no test
 * framework; the JUnit 5 entry points are in {@code parley-tck-junit} (package {@code dev.parley.tck.junit}). The
 * design note is {@code docs/07-conformance-kit.md}.
 *
 * <p>To certify a store, take {@link dev.parley.tck.StoreHarness#of(String)} (a store URI) or
 * {@link dev.parley.tck.StoreHarness#over(dev.parley.core.store.Store)} (a store made in code), and call
 * {@link dev.parley.tck.StoreHarness#run(Kit)} for each {@link dev.parley.tck.Kit}, or extend
 * {@code dev.parley.tck.junit.StoreConformance} in a JUnit 5 test. Which kits run follows the store's
 * {@linkplain dev.parley.core.store.Store#capabilities() capabilities}; damage for the corruption scenarios comes
 * from the backend's {@link dev.parley.tck.spi.ConformanceSupport}. Each scenario runs in a scope of its own, cleaned
 * up even when the scenario fails. A scenario that cannot run is reported skipped with the reason, never left out.
 *
 * <p>Every scenario has an id tied to a numbered rule of its contract; the id starts its title, its verdict and any
 * failure message.
 *
 * <h2>Message log ({@link dev.parley.tck.MessageLogScenarios}, the guarantees of
 * {@link dev.parley.core.log.MessageLog})</h2>
 * <ul>
 *   <li>ML-01 insertion order across agents</li>
 *   <li>ML-02 batch append is atomic</li>
 *   <li>ML-03 entry ids are unique in a session</li>
 *   <li>ML-04 truncate after removes later entries of every agent</li>
 *   <li>ML-05 parent ids must exist in the same session</li>
 *   <li>ML-06 messages round-trip exactly</li>
 *   <li>ML-07 a fresh instance reopens everything</li>
 *   <li>ML-08 a corrupt record fails the read (needs damage injection)</li>
 *   <li>ML-09 the catalog pages every session once (needs the catalog)</li>
 *   <li>ML-10 usage accumulates per agent</li>
 *   <li>ML-11 scopes are isolated</li>
 *   <li>ML-12 concurrent appends lose nothing</li>
 *   <li>ML-13 a retried append is recognised</li>
 *   <li>ML-14 a conflicting id writes nothing</li>
 *   <li>ML-15 an append after a stale last entry writes nothing</li>
 *   <li>ML-16 two writers of one conversation never fork it</li>
 *   <li>ML-17 an entry too large to read back is refused</li>
 *   <li>ML-18 windows and agent totals agree with the whole log</li>
 *   <li>ML-19 a session deleted and created again never reuses a seq</li>
 * </ul>
 *
 * <h2>Session records ({@link dev.parley.tck.SessionRepositoryScenarios}, Heddle's session-repository
 * conformance)</h2>
 * <ul>
 *   <li>CS-1 CRUD returns exact records and monotonic revisions</li>
 *   <li>CS-2 concurrent create and update enforce atomic uniqueness and CAS</li>
 *   <li>CS-3 cursor pagination is stable across pinned, timestamp, and UTF-8 ties</li>
 *   <li>CS-4 workspace and archive filters apply before page boundaries</li>
 *   <li>CS-5 scope-bound repositories isolate identical session IDs</li>
 *   <li>CS-6 fresh repository instances reopen complete session state</li>
 *   <li>CS-7 malformed stored records propagate as read failures (needs damage injection)</li>
 *   <li>CS-8 invalid page limits are rejected</li>
 *   <li>CS-9 catalog entries expose only catalog fields</li>
 *   <li>CS-10 create and update preserve the exact record</li>
 * </ul>
 *
 * <h2>Archives ({@link dev.parley.tck.ArchiveRepositoryScenarios}, Heddle's archive-repository conformance)</h2>
 * <ul>
 *   <li>AR-1 append preserves manifest order and readable summaries</li>
 *   <li>AR-2 concurrent appends commit complete non-conflicting archives</li>
 *   <li>AR-3 duplicate archive ids reject without changing committed state</li>
 *   <li>AR-4 scope-bound repositories isolate identical archive addresses</li>
 *   <li>AR-5 fresh repository instances reopen complete archive state</li>
 *   <li>AR-6 malformed stored manifests propagate as read failures (needs damage injection)</li>
 *   <li>AR-7 archived messages read back exactly</li>
 * </ul>
 *
 * <p>Everything here is thread-safe unless its documentation says otherwise.
 */
@NullMarked
package dev.parley.tck;

import org.jspecify.annotations.NullMarked;
