package dev.parley.core.log;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.ErrorCode;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import org.jspecify.annotations.Nullable;

/**
 * {@code LOG_LAST_ENTRY_MOVED}: an append named the entry it expected to follow
 * ({@link MessageLog#appendIfLast}), but another writer appended to the same agent of the session meanwhile. Nothing
 * was written. Like a revision conflict: re-read the agent's last entry ({@link MessageLog#lastEntry}), rebuild the
 * batch on it, and try again — two writers of one conversation are told, never silently forked.
 */
public final class LastEntryMovedException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /** The session appended to; see {@link #session()}. */
    private final SessionId session;
    /** The agent appended to; see {@link #agent()}. */
    private final AgentId agent;
    /** The last entry the writer expected; see {@link #expected()}. */
    private final @Nullable EntryId expected;
    /** The agent's actual last entry; see {@link #actual()}. */
    private final @Nullable EntryId actual;

    /**
     * A refused conditional append. The message names the session, the agent and both entries ({@code none} for a
     * null one).
     *
     * @param session the session appended to
     * @param agent the agent whose last entry was checked
     * @param expected the last entry the writer expected, or null for "the agent has none"
     * @param actual the agent's last entry when the append was refused, or null when it has none
     */
    public LastEntryMovedException(SessionId session, AgentId agent, @Nullable EntryId expected,
                                   @Nullable EntryId actual) {
        super("the last entry of agent " + agent + " in session " + session + " is " + describe(actual) + ", not "
                + describe(expected) + ": another writer appended meanwhile", null);
        this.session = session;
        this.agent = agent;
        this.expected = expected;
        this.actual = actual;
    }

    private static String describe(@Nullable EntryId id) {
        return id == null ? "none" : id.value();
    }

    /**
     * The session of the refused append.
     *
     * @return the session, never null
     */
    public SessionId session() {
        return session;
    }

    /**
     * The agent whose last entry moved.
     *
     * @return the agent, never null
     */
    public AgentId agent() {
        return agent;
    }

    /**
     * The last entry the writer expected, or null for "the agent has none".
     *
     * @return the expected entry id, or null
     */
    public @Nullable EntryId expected() {
        return expected;
    }

    /**
     * The agent's last entry when the append was refused, or null when it has none.
     *
     * @return the actual entry id, or null
     */
    public @Nullable EntryId actual() {
        return actual;
    }

    /** A revision conflict: the CLI exits 5, the server answers 409. */
    @Override
    public ErrorCode code() {
        return ErrorCode.REVISION_CONFLICT;
    }

    @Override
    public String stableCode() {
        return "LOG_LAST_ENTRY_MOVED";
    }
}
