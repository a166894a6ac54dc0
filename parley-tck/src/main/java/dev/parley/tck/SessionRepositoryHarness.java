package dev.parley.tck;

import dev.parley.core.repository.ChatSessionRepository;

/** What the session-repository scenarios need from a backend (Heddle's conformance harness). */
public interface SessionRepositoryHarness {

    /**
     * A <b>fresh instance</b> each call (the repository of a newly opened store), bound to the scope; instances of one
     * scope share its storage. A store that keeps one shared object per scope (the memory store) may return it.
     *
     * @param scopeId the scope to bind: the scenario's own, or another the scenario made for isolation checks
     * @return a repository bound to {@code scopeId}
     * @throws CapabilityMissing if the store has no session-record repository ({@link StoreHarness} throws it then)
     */
    ChatSessionRepository createRepository(String scopeId);

    /**
     * Removes everything stored in the scope. Called after every scenario, also when it failed.
     *
     * @param scopeId the scope to empty
     */
    void cleanupScope(String scopeId);

    /**
     * Damages the stored record so that reading it must fail, keeping it addressable.
     *
     * @param scopeId the scope the record is in
     * @param sessionId the id of the record to damage
     * @throws CapabilityMissing if the harness cannot damage a record of this store; the scenario is then reported
     *     skipped
     */
    void corruptSessionRecord(String scopeId, String sessionId);
}
