package dev.parley.remote.internal;

import dev.parley.core.UnavailableException;

/**
 * The remote store was closed: nothing is sent. To a caller it is the {@link UnavailableException} it extends, as on
 * every closed store; a replay that meets it (the store closed while it ran) leaves the rest of the journal pending for
 * the next open, rather than filing the writes as refused.
 */
public final class StoreClosed extends UnavailableException {
    private static final long serialVersionUID = 1L;

    public StoreClosed(String message) {
        super(message, null);
    }
}
