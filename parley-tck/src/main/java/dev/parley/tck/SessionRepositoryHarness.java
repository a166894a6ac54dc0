package dev.parley.tck;

import dev.parley.core.repository.ChatSessionRepository;

/** What the session-repository scenarios need from a backend (Heddle's conformance harness). */
public interface SessionRepositoryHarness {

    /**
     * A <b>fresh instance</b> each call (the repository of a newly opened store), bound to the scope; instances of one
     * scope share its storage. A store that keeps one shared object per scope (the memory store) may return it.
     */
    ChatSessionRepository createRepository(String scopeId);

    /** Removes everything stored in the scope. Called after every scenario, also when it failed. */
    void cleanupScope(String scopeId);

    /** Damages the stored record so that reading it must fail, keeping it addressable. */
    void corruptSessionRecord(String scopeId, String sessionId);
}
