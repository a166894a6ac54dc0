/**
 * Parley's identifiers, errors and id generation, shared by every module.
 *
 * <p>Errors: every exception Parley throws is a {@link dev.parley.core.ParleyException} with a stable
 * {@link dev.parley.core.ErrorCode}. Ids: {@link dev.parley.core.SessionId}, {@link dev.parley.core.AgentId} and
 * {@link dev.parley.core.EntryId} validate on construction by the single rule of {@link dev.parley.core.Ids}.
 */
@NullMarked
package dev.parley.core;

import org.jspecify.annotations.NullMarked;
