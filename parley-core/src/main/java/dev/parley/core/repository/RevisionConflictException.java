package dev.parley.core.repository;

import dev.parley.core.ErrorCode;
import dev.parley.core.ParleyException;

/**
 * {@code CHAT_SESSION_REVISION_CONFLICT}: a compare-and-swap write named a revision that is no longer current.
 * Nothing was changed; re-read, re-apply the change, and try again.
 */
public final class RevisionConflictException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /** The session written to; see {@link #sessionId()}. */
    private final String sessionId;
    /** The revision the writer expected; see {@link #expectedRevision()}. */
    private final long expectedRevision;
    /** The revision the record is at; see {@link #actualRevision()}. */
    private final long actualRevision;

    /**
     * A refused compare-and-swap write. The message names the session and both revisions.
     *
     * @param sessionId the session written to
     * @param expectedRevision the revision the writer expected
     * @param actualRevision the revision the record is at
     */
    public RevisionConflictException(String sessionId, long expectedRevision, long actualRevision) {
        super("session " + sessionId + " is at revision " + actualRevision + ", not " + expectedRevision, null);
        this.sessionId = sessionId;
        this.expectedRevision = expectedRevision;
        this.actualRevision = actualRevision;
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
     * The revision the writer expected.
     *
     * @return the expected revision
     */
    public long expectedRevision() {
        return expectedRevision;
    }

    /**
     * The revision the record is at.
     *
     * @return the current revision
     */
    public long actualRevision() {
        return actualRevision;
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.REVISION_CONFLICT;
    }

    @Override
    public String stableCode() {
        return "CHAT_SESSION_REVISION_CONFLICT";
    }
}
