package dev.parley.core.repository;

import dev.parley.core.AlreadyExistsException;

/** {@code CHAT_SESSION_ALREADY_EXISTS}: a create named an id that exists. Nothing was changed. */
public final class SessionAlreadyExistsException extends AlreadyExistsException {
    private static final long serialVersionUID = 1L;

    /** The id that is taken; see {@link #sessionId()}. */
    private final String sessionId;

    /**
     * A refused create. The message reads {@code session <id> already exists}.
     *
     * @param sessionId the id that is taken
     */
    public SessionAlreadyExistsException(String sessionId) {
        super("session " + sessionId + " already exists");
        this.sessionId = sessionId;
    }

    /**
     * The id that is taken.
     *
     * @return the session id
     */
    public String sessionId() {
        return sessionId;
    }

    @Override
    public String stableCode() {
        return "CHAT_SESSION_ALREADY_EXISTS";
    }
}
