package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * A create named an id that is already taken. Nothing was written.
 */
public class AlreadyExistsException extends ParleyException {
    private static final long serialVersionUID = 1L;

    public AlreadyExistsException(String message) {
        super(message, null);
    }

    public AlreadyExistsException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.ALREADY_EXISTS;
    }
}
