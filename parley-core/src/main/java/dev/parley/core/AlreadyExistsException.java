package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * A create named an id that is already taken. Nothing was written.
 */
public class AlreadyExistsException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /**
     * A create refused, with no underlying failure.
     *
     * @param message what is taken (a session id, a backup's target…), as the exception's message
     */
    public AlreadyExistsException(String message) {
        super(message, null);
    }

    /**
     * A create refused, with the underlying failure that showed it taken.
     *
     * @param message what is taken, as the exception's message
     * @param cause the underlying failure, or null
     */
    public AlreadyExistsException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.ALREADY_EXISTS;
    }
}
