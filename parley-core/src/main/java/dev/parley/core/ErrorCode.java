package dev.parley.core;

/**
 * Stable codes for every {@link ParleyException}. The code, not the message, is the contract: the CLI maps it
 * to an exit code ({@link #exitCode()}), the HTTP server to a status ({@link #httpStatus()}), and callers branch
 * on it (or on the exception class) rather than parsing messages.
 *
 * <p>Codes never change meaning once released; new codes may be added.
 */
public enum ErrorCode {
    /** A session, entry, agent or record that the call names does not exist (in this scope). */
    NOT_FOUND(3, 404),
    /** A create named an id that already exists. */
    ALREADY_EXISTS(4, 409),
    /** A compare-and-swap write named an expected revision that is no longer current. */
    REVISION_CONFLICT(5, 409),
    /** A stored record could not be decoded; the exception names where. Nothing was skipped silently. */
    CORRUPT_RECORD(6, 500),
    /** The caller passed input that violates the contract (an invalid id, a malformed line, a missing parent…). */
    INVALID_INPUT(2, 400),
    /** The backend could not be reached or did not answer in time; retrying may succeed. */
    UNAVAILABLE(7, 503),
    /** A write was attempted under a lease that has expired or been taken over (a stale fencing token). */
    LEASE_LOST(8, 409),
    /** The backend does not offer the requested capability. */
    UNSUPPORTED(9, 501),
    /** An append named an entry id the session holds with different content (a retry with identical content is
     * recognised, not a conflict). */
    ENTRY_CONFLICT(11, 409);

    private final int exitCode;
    private final int httpStatus;

    ErrorCode(int exitCode, int httpStatus) {
        this.exitCode = exitCode;
        this.httpStatus = httpStatus;
    }

    /**
     * The process exit code the {@code parley} command uses for this error (never 0 or 1).
     *
     * @return the exit code
     */
    public int exitCode() {
        return exitCode;
    }

    /**
     * The HTTP status the Parley server answers with for an error of this code, with one exception: an entry too
     * large to store ({@link dev.parley.core.log.EntryTooLargeException}, stable code {@code LOG_ENTRY_TOO_LARGE}) has
     * the code {@link #INVALID_INPUT} but is answered 413 (Content Too Large), not 400.
     *
     * @return the HTTP status code, 400 to 599
     */
    public int httpStatus() {
        return httpStatus;
    }
}
