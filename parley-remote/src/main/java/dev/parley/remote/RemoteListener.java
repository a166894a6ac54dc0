package dev.parley.remote;

import dev.parley.core.ParleyException;

/**
 * Observes a remote store's fallbacks and replays ({@link RemoteStore#addListener}). Called on the thread that made
 * the call (or the background replay's); implementations must be quick and thread-safe, and must not throw.
 */
public interface RemoteListener {

    /**
     * A call was carried out on the fallback store because the server did not answer.
     *
     * @param operation what was called ({@code append}, {@code load}…)
     * @param cause why: a refused connection, a timeout, a 5xx, the open breaker
     */
    default void fellBack(String operation, Throwable cause) {}

    /**
     * A write that had fallen back was replayed to the server and acknowledged.
     *
     * @param operation the write replayed ({@code append}, {@code truncateAfter}…)
     */
    default void replayed(String operation) {}

    /**
     * The server refused a write that had fallen back (it went on differently: an entry id with other content, a
     * missing parent…). The write stays in the fallback store and in the journal's conflicts file; nothing is merged.
     *
     * @param operation the write refused ({@code append}, {@code truncateAfter}…)
     * @param cause the server's answer, as the exception the server raised
     */
    default void conflict(String operation, ParleyException cause) {}
}
