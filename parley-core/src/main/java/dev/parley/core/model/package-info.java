/**
 * Parley's model: messages, content blocks, usage and log entries, as immutable records and sealed types.
 *
 * <p>Every type here is immutable and thread-safe, except {@link dev.parley.core.model.Message.Builder}, which is
 * mutable and not thread-safe; collections are copied on construction and never exposed mutably. Instants are kept
 * at millisecond precision (anything finer is truncated on construction), because every format Parley reads or
 * writes carries milliseconds and a value must equal itself after a round trip.
 */
@NullMarked
package dev.parley.core.model;

import org.jspecify.annotations.NullMarked;
