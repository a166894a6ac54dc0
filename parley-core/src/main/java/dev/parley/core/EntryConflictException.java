package dev.parley.core;

/**
 * An append named an entry id that the session already holds with different content. Appends are idempotent by
 * entry id — an id stored with identical content is recognised and not written again — so this is never a retry: it
 * is two writers (or a re-sent history) that disagree about what the entry is. Nothing of the batch was written.
 */
public final class EntryConflictException extends ParleyException {
    private static final long serialVersionUID = 1L;
    /** The session the append was refused in; see {@link #session()}. */
    private final SessionId session;
    /** The entry id stored with different content; see {@link #entry()}. */
    private final EntryId entry;

    /**
     * @param session the session
     * @param entry the id stored with different content
     * @param batchIndex the entry's position in the batch, for the message
     */
    public EntryConflictException(SessionId session, EntryId entry, int batchIndex) {
        super("entry " + entry + " is already stored in session " + session
                + " with different content (batch element " + batchIndex + "); nothing of the batch was written", null);
        this.session = session;
        this.entry = entry;
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.ENTRY_CONFLICT;
    }

    /**
     * The session.
     *
     * @return the session the append was refused in
     */
    public SessionId session() {
        return session;
    }

    /**
     * The entry id stored with different content.
     *
     * @return the conflicting entry id
     */
    public EntryId entry() {
        return entry;
    }
}
