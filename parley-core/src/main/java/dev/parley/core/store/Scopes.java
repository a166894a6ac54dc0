package dev.parley.core.store;

import dev.parley.core.InvalidInputException;

/** The one validation rule for scopes (tenant ids), identical on every backend. */
public final class Scopes {
    /** The longest scope accepted, in characters. */
    public static final int MAX_LENGTH = 128;

    private Scopes() {}

    /**
     * Checks a scope: 1 to {@value #MAX_LENGTH} characters, no NUL, no unpaired surrogate (UTF-8 must carry it).
     * Backends escape it wherever it becomes a file name.
     *
     * @param scope the scope to check; null is refused
     * @return the scope
     * @throws InvalidInputException if it is null, empty, too long, or holds NUL or an unpaired surrogate
     */
    public static String require(String scope) {
        if (scope == null || scope.isEmpty() || scope.length() > MAX_LENGTH || scope.indexOf('\0') >= 0
                || dev.parley.core.repository.ChatSession.hasUnpairedSurrogate(scope)) {
            throw new InvalidInputException("invalid scope: it must be 1 to " + MAX_LENGTH
                    + " characters without NUL or unpaired surrogates");
        }
        return scope;
    }
}
