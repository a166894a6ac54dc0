/**
 * Service behaviour over the session-record contract (Heddle's session service; seed-systems.md §1.9–1.11):
 * {@link dev.parley.engine.SessionService} (ensure, updates through pure updaters re-applied on conflict, queued
 * prompts, leases with fencing tokens), {@link dev.parley.engine.Readiness} (a non-certifying report), and the
 * in-memory repositories ({@link dev.parley.engine.MemoryRepositories}).
 */
@NullMarked
package dev.parley.engine;

import org.jspecify.annotations.NullMarked;
