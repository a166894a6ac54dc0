package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * The root of every error Parley raises. Unchecked; each subclass has one stable {@link ErrorCode}.
 * I/O and SQL exceptions are kept as the {@linkplain #getCause() cause}, never swallowed.
 *
 * <p>Callers decide by class or by {@link #code()}; {@link #isRetriable()} tells whether the same call may succeed
 * later without any change. An {@link UnavailableException} always is; other errors may be too (a model provider's
 * failure is retriable or not, depending on what failed), so test {@link #isRetriable()} rather than the class.
 */
public abstract class ParleyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * For subclasses: an error with its message and the failure underneath.
     *
     * @param message what failed and where, as the exception's message
     * @param cause the underlying failure (an I/O or SQL exception…), or null if there is none
     */
    protected ParleyException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * The stable code of this error.
     *
     * @return the code, never null
     */
    public abstract ErrorCode code();

    /**
     * The stable code string of this error: the {@link #code()} name, or the reference system's own code where Parley
     * mirrors one (the session repository's {@code CHAT_SESSION_REVISION_CONFLICT}…).
     *
     * @return the code string, never null: {@code code().name()} here; a subclass that mirrors a reference code returns
     *     that instead
     */
    public String stableCode() {
        return code().name();
    }

    /**
     * Whether retrying the same call, unchanged, may succeed.
     *
     * @return true if retrying may succeed; false here, true for an {@link UnavailableException}
     */
    public boolean isRetriable() {
        return false;
    }
}
