package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * The backend does not offer the requested capability (for example the null store's catalog).
 */
public class UnsupportedException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /**
     * A capability the backend lacks, with no underlying failure.
     *
     * @param message which capability and which backend, as the exception's message
     */
    public UnsupportedException(String message) {
        super(message, null);
    }

    /**
     * A capability the backend lacks, with the underlying failure that showed it missing.
     *
     * @param message which capability and which backend, as the exception's message
     * @param cause the underlying failure, or null
     */
    public UnsupportedException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.UNSUPPORTED;
    }
}
