/**
 * The wire form of the Parley HTTP API, shared by the server ({@code parley-server}) and the {@code remote:} store
 * ({@code parley-remote}) so that both sides encode with the same code: entries with {@link dev.parley.json.EntryCodec},
 * records with {@link dev.parley.json.repository.ChatSessionCodec}, archives with
 * {@link dev.parley.json.repository.ChatArchiveCodec} (the canonical JSON, which round-trips exactly), the few
 * envelopes around them ({@link Wire}), and errors as RFC 9457 problem documents ({@link Problems}).
 *
 * <p>Decoding a wire document fails with {@link dev.parley.core.InvalidInputException} (the sender's mistake), never
 * with a corrupt-record error, which is reserved for what a store holds.
 */
@NullMarked
package dev.parley.json.wire;

import org.jspecify.annotations.NullMarked;
