package dev.parley.remote.internal;

import dev.parley.core.InvalidInputException;

/**
 * The server does not route the request (HTTP 404 with the problem code
 * {@link dev.parley.json.wire.Problems#NO_SUCH_ROUTE}): a server of an earlier Parley, without an endpoint added since.
 * A client method that has another way to its answer catches this and takes it; to any other caller it is the
 * {@link InvalidInputException} it extends, as before.
 */
final class NoSuchRoute extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    NoSuchRoute(String message) {
        super(message);
    }
}
