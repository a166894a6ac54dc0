package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * A session, entry or record that the call names does not exist. For scoped repositories, a record of another scope is reported exactly like a missing one.
 */
public class NotFoundException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /**
     * A lookup that found nothing, with no underlying failure.
     *
     * @param message what was not found (a session id, an entry id…), as the exception's message
     */
    public NotFoundException(String message) {
        super(message, null);
    }

    /**
     * A lookup that found nothing, with the underlying failure that showed it missing.
     *
     * @param message what was not found, as the exception's message
     * @param cause the underlying failure, or null
     */
    public NotFoundException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.NOT_FOUND;
    }
}
