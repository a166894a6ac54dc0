package dev.parley.tck;

import dev.parley.core.repository.ChatArchiveRepository;

/** What the archive-repository scenarios need from a backend. */
public interface ArchiveRepositoryHarness {

    /**
     * A <b>fresh instance</b> each call (the repository of a newly opened store), bound to the scope; instances of one
     * scope share its storage. A store that keeps one shared object per scope (the memory store) may return it.
     *
     * @param scopeId the scope to bind: the scenario's own, or another the scenario made for isolation checks
     * @return a repository bound to {@code scopeId}
     * @throws CapabilityMissing if the store has no archive repository ({@link StoreHarness} throws it then)
     */
    ChatArchiveRepository createArchiveRepository(String scopeId);

    /**
     * Removes everything stored in the scope. Called after every scenario, also when it failed.
     *
     * @param scopeId the scope to empty
     */
    void cleanupScope(String scopeId);

    /**
     * Damages the session's stored manifest so that loading it must fail.
     *
     * @param scopeId the scope the session is in
     * @param sessionId the session whose manifest to damage
     * @throws CapabilityMissing if the harness cannot damage a manifest of this store; the scenario is then reported
     *     skipped
     */
    void corruptManifest(String scopeId, String sessionId);
}
