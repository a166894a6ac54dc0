package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * A session, entry or record that the call names does not exist. For scoped repositories, a record of another scope is reported exactly like a missing one.
 */
public class NotFoundException extends ParleyException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String message) {
        super(message, null);
    }

    public NotFoundException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.NOT_FOUND;
    }
}
