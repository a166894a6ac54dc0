/**
 * The {@code remote:} store: a Parley server ({@code parley serve}) reached over HTTP, with a timeout on every call, a
 * circuit breaker, a logged and observable fallback of the message log to a local store, and a replay journal that
 * carries what fell back to the server once it answers again. See {@link dev.parley.remote.RemoteStore} and
 * {@code docs/08-remote-store.md}.
 */
@NullMarked
package dev.parley.remote;

import org.jspecify.annotations.NullMarked;
