/**
 * The message-log contract (the first contract of Parley; Planck, see the glossary; Planck.Agent's
 * persistence behaviour) and the session catalog.
 *
 * <p>{@link dev.parley.core.log.MessageLog} is the SPI every backend implements;
 * {@link dev.parley.core.log.Persistence} is the dispatcher agents call, which turns every agent-scoped call of an
 * ephemeral agent (no session id) into a no-op that never reaches a backend.
 */
@NullMarked
package dev.parley.core.log;

import org.jspecify.annotations.NullMarked;
