package dev.parley.remote.internal;

import dev.parley.core.InvalidInputException;
import org.jspecify.annotations.Nullable;

/**
 * This client cannot use the server as it is configured: the server refused its credentials (HTTP 401 or 403), or TLS
 * failed in a way no retry mends ({@link Transport#tlsMisconfiguration}: a plain HTTP server that answered the
 * handshake at an {@code https:} address, a certificate this JVM does not accept, a handshake the server refused). The request itself may be fine, so a replay that meets this keeps the write
 * pending — the configuration may be mended — instead of filing it as a conflict. To a caller it is the
 * {@link InvalidInputException} it extends (exit code 2): falling back would hide a misconfigured store, and journal
 * writes for an address that may never be the server's.
 */
public final class Misconfigured extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was refused or failed, and what to check
     * @param cause the TLS failure, or null for a refusal the server answered
     */
    public Misconfigured(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
