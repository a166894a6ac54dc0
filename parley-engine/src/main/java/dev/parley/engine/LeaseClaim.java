package dev.parley.engine;

import java.util.Objects;

/**
 * A held lease: the right to write a session's turns while it stays fresh. Every write under the lease carries its
 * fencing token; a write with a stale token fails with {@link dev.parley.core.repository.LeaseLostException}.
 *
 * @param sessionId the session
 * @param owner who holds it
 * @param fencingToken the token issued when it was acquired
 */
public record LeaseClaim(String sessionId, LeaseOwner owner, long fencingToken) {
    /**
     * Checks the parts; the session id and the token are taken as given.
     *
     * @param sessionId the session
     * @param owner who holds it
     * @param fencingToken the token issued when it was acquired
     * @throws NullPointerException if {@code sessionId} or {@code owner} is null
     */
    public LeaseClaim {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(owner, "owner");
    }
}
