package dev.parley.core.repository;

/**
 * The session and archive repositories a store offers, by scope. A backend that has them returns this from
 * {@link dev.parley.core.log.MessageLog#repositories()}; the repositories share the store's storage (one SQLite
 * file, one directory).
 */
public interface Repositories {

    /** The longest scope accepted, in characters. */
    int MAX_SCOPE_LENGTH = 128;

    /**
     * Checks a scope (a tenant id) the same way on every backend: 1 to {@value #MAX_SCOPE_LENGTH} characters, no NUL,
     * no unpaired surrogate. Backends escape it wherever it becomes a file name.
     *
     * @return the scope
     * @throws dev.parley.core.InvalidInputException if it is null, empty, too long or holds NUL
     */
    static String requireScope(String scope) {
        if (scope == null || scope.isEmpty() || scope.length() > MAX_SCOPE_LENGTH || scope.indexOf('\0') >= 0
                || ChatSession.hasUnpairedSurrogate(scope)) {
            throw new dev.parley.core.InvalidInputException("invalid scope: it must be 1 to " + MAX_SCOPE_LENGTH
                    + " characters without NUL or unpaired surrogates");
        }
        return scope;
    }

    /**
     * The session repository bound to {@code scope}.
     *
     * @throws dev.parley.core.InvalidInputException if the scope is invalid ({@link #requireScope})
     */
    ChatSessionRepository sessions(String scope);

    /**
     * The archive repository bound to {@code scope}.
     *
     * @throws dev.parley.core.InvalidInputException if the scope is invalid ({@link #requireScope})
     */
    ChatArchiveRepository archives(String scope);

    /**
     * Removes every record and archive of the scope (an administrative operation: the conformance kit's cleanup,
     * deleting a tenant).
     */
    void dropScope(String scope);
}
