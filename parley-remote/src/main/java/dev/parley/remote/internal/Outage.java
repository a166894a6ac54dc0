package dev.parley.remote.internal;

/**
 * The server did not answer: the connection was refused or broke, the call timed out, the breaker is open, or the
 * answer was a 5xx that is not one of Parley's own answers (or a 503 {@code UNAVAILABLE}: the server's store is
 * down). The one condition a call falls back on.
 */
public final class Outage extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Outage(String message, Throwable cause) {
        super(message, cause);
    }

    Outage(String message) {
        super(message);
    }
}
