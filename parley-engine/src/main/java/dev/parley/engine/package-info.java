/**
 * Service behaviour over the session-record contract (Heddle's session service and engine loop, see the glossary):
 * {@link dev.parley.engine.SessionService} (ensure, updates through pure updaters re-applied on conflict, queued
 * prompts, leases with fencing tokens, turns run under a {@link dev.parley.engine.TurnHeartbeat} and recorded with
 * {@link dev.parley.engine.SessionService#applyCompletedTurn}, archive-first compaction, and the full history read
 * back from record and archive) and {@link dev.parley.engine.Readiness} (a non-certifying report). The
 * repositories come from any {@link dev.parley.core.store.Store}.
 */
@NullMarked
package dev.parley.engine;

import org.jspecify.annotations.NullMarked;
