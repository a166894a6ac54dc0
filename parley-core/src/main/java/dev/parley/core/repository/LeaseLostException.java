package dev.parley.core.repository;

import dev.parley.core.ErrorCode;
import dev.parley.core.ParleyException;
import org.jspecify.annotations.Nullable;

/**
 * {@code CHAT_SESSION_LEASE_LOST}: a write under a lease that has expired or been taken over (a stale fencing
 * token). An expired lease has already lost write authority, even before anyone takes it over.
 */
public final class LeaseLostException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /** The session written to; see {@link #sessionId()}. */
    private final String sessionId;
    /** The writer's fencing token; see {@link #expectedToken()}. */
    private final long expectedToken;
    /** The lease the record holds now; see {@link #actual()}. */
    private final @Nullable Lease actual;

    /**
     * A refused write or acquisition. The message names the session and the token and, when a lease is held, its
     * owner, host, token and last-seen time.
     *
     * @param sessionId the session written to
     * @param expectedToken the fencing token the writer held, or -1 when it had none (a refused acquisition)
     * @param actual the lease the record holds now, or null when none is held
     */
    public LeaseLostException(String sessionId, long expectedToken, @Nullable Lease actual) {
        super("the lease on session " + sessionId + " with fencing token " + expectedToken + " is lost"
                + (actual == null ? " (no lease is held)" : " (held by " + actual.ownerKind() + " owner "
                + actual.ownerId() + (actual.hostId() == null ? " with no host id" : " on host " + actual.hostId())
                + ", token " + actual.fencingToken() + ", last seen " + actual.lastSeenAt()
                + "; a lease is held by the same owner id and host id, while it is fresh)"), null);
        this.sessionId = sessionId;
        this.expectedToken = expectedToken;
        this.actual = actual;
    }

    /**
     * The session of the refused write.
     *
     * @return the session id
     */
    public String sessionId() {
        return sessionId;
    }

    /**
     * The fencing token the writer held; -1 when the lease was refused at acquisition (another owner held a fresh
     * lease, and the refused owner had no token yet).
     *
     * @return the token, or -1
     */
    public long expectedToken() {
        return expectedToken;
    }

    /**
     * The lease the record holds now, or null.
     *
     * @return the lease, or null when none is held
     */
    public @Nullable Lease actual() {
        return actual;
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.LEASE_LOST;
    }

    @Override
    public String stableCode() {
        return "CHAT_SESSION_LEASE_LOST";
    }
}
