package dev.parley.remote.internal;

import dev.parley.core.InvalidInputException;

/**
 * The server refused the caller's credentials (HTTP 401 or 403): the request itself may be fine, so a replay that meets
 * this keeps the write pending — another token may be given — instead of filing it as a conflict. To a caller it is the
 * {@link InvalidInputException} it extends (exit code 2): a store with a wrong or missing token is misconfigured, and
 * falling back would hide that.
 */
public final class CredentialsRefused extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    public CredentialsRefused(String message) {
        super(message);
    }
}
