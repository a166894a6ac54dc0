package dev.parley.tck;

import dev.parley.core.repository.ChatArchiveRepository;

/** What the archive-repository scenarios need from a backend. */
public interface ArchiveRepositoryHarness {

    /**
     * A <b>fresh instance</b> each call (the repository of a newly opened store), bound to the scope; instances of one
     * scope share its storage. A store that keeps one shared object per scope (the memory store) may return it.
     */
    ChatArchiveRepository createArchiveRepository(String scopeId);

    /** Removes everything stored in the scope. Called after every scenario, also when it failed. */
    void cleanupScope(String scopeId);

    /** Damages the session's stored manifest so that loading it must fail. */
    void corruptManifest(String scopeId, String sessionId);
}
