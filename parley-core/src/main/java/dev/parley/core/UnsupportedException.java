package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * The backend does not offer the requested capability (for example the null store's catalog).
 */
public class UnsupportedException extends ParleyException {
    private static final long serialVersionUID = 1L;

    public UnsupportedException(String message) {
        super(message, null);
    }

    public UnsupportedException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.UNSUPPORTED;
    }
}
