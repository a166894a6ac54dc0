package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * The backend could not be reached, timed out, or failed with an I/O error that says nothing about the data
 * (a locked database, a dead server). Retriable: the same call may succeed later. Whether any part of the call
 * took effect is stated by the method that throws it; appends are atomic, so a failed append wrote nothing.
 */
public class UnavailableException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /**
     * The backend failed to answer.
     *
     * @param message what could not be done and against which backend, as the exception's message
     * @param cause the I/O, SQL or network failure, or null if Parley noticed the condition itself (a lock held by
     *     another process, a closed store)
     */
    public UnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.UNAVAILABLE;
    }

    @Override
    public boolean isRetriable() {
        return true;
    }
}
