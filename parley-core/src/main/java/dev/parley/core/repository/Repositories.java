package dev.parley.core.repository;

/**
 * The session and archive repositories a store offers, by scope. A backend that has them returns this from
 * {@link dev.parley.core.log.MessageLog#repositories()}; the repositories share the store's storage (one SQLite
 * file, one directory).
 */
public interface Repositories {

    /** The session repository bound to {@code scope}. */
    ChatSessionRepository sessions(String scope);

    /** The archive repository bound to {@code scope}. */
    ChatArchiveRepository archives(String scope);

    /**
     * Removes every record and archive of the scope (an administrative operation: the conformance kit's cleanup,
     * deleting a tenant).
     */
    void dropScope(String scope);
}
