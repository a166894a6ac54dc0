package dev.parley.core.log;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The dispatcher agents call to reach their message log (Planck's {@code Hooks.Persistence} dispatch functions).
 *
 * <p>An <b>ephemeral agent</b> has no session ({@code session == null}): every agent-scoped call is then a no-op
 * that never reaches the backend — a persisted message comes back unpersisted ({@link Optional#empty()}), a load is
 * empty, a flush is {@link FlushResult#NOOP}. The backend is whatever {@link MessageLog} was given, the default
 * SQLite store included: it is not special-cased.
 *
 * <p>Thread-safe if the log is.
 */
public final class Persistence {
    private final MessageLog log;
    private final IdGenerator ids;

    /**
     * @param log the backend to dispatch to
     * @param ids the generator of new entry ids
     */
    public Persistence(MessageLog log, IdGenerator ids) {
        this.log = Objects.requireNonNull(log, "log");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /**
     * The backend calls are dispatched to.
     *
     * @return the log, as given to the constructor
     */
    public MessageLog log() {
        return log;
    }

    /**
     * Persists one message; empty for an ephemeral agent. See {@link MessageLog#persistMessage}.
     *
     * @param session the session, or null for an ephemeral agent
     * @param agent the agent writing the message
     * @param message the message
     * @return the stored entry, or empty for an ephemeral agent
     */
    public Optional<Entry> persistMessage(@Nullable SessionId session, AgentId agent, Message message) {
        return session == null ? Optional.empty() : Optional.of(log.persistMessage(session, agent, message, ids));
    }

    /**
     * Persists messages as one atomic batch; empty for an ephemeral agent. See {@link MessageLog#persistMessages}.
     *
     * @param session the session, or null for an ephemeral agent
     * @param agent the agent writing the messages
     * @param messages the messages, in order
     * @return the stored entries, in order; empty for an ephemeral agent or no messages
     */
    public List<Entry> persistMessages(@Nullable SessionId session, AgentId agent, List<Message> messages) {
        return session == null ? List.of() : log.persistMessages(session, agent, messages, ids);
    }

    /**
     * Adds to the agent's usage total; nothing for an ephemeral agent.
     *
     * @param session the session, or null for an ephemeral agent
     * @param agent the agent whose total grows
     * @param usage the usage to add
     */
    public void persistUsage(@Nullable SessionId session, AgentId agent, Usage usage) {
        if (session != null) {
            log.persistUsage(session, agent, usage);
        }
    }

    /**
     * The agent's messages in insertion order; empty for an ephemeral agent.
     *
     * @param session the session, or null for an ephemeral agent
     * @param agent the agent
     * @return the agent's entries that hold a message; empty for an ephemeral agent
     */
    public List<Entry> loadMessages(@Nullable SessionId session, AgentId agent) {
        return session == null ? List.of() : log.loadMessages(session, agent);
    }

    /**
     * Writes the held-back entries that are not stored yet; {@link FlushResult#NOOP} when nothing was written, and
     * always for an ephemeral agent. See {@link MessageLog#flushUnpersisted}.
     *
     * @param session the session, or null for an ephemeral agent
     * @param agent the agent writing the entries
     * @param unpersisted the entries held back so far, in order, with their ids
     * @return {@link FlushResult#FLUSHED} if anything was written, else {@link FlushResult#NOOP}
     */
    public FlushResult flushUnpersisted(@Nullable SessionId session, AgentId agent, List<NewEntry> unpersisted) {
        return session == null ? FlushResult.NOOP : log.flushUnpersisted(session, agent, unpersisted);
    }

    /**
     * Removes every entry after {@code entry}, across all agents. Session-scoped: requires a session.
     *
     * @param session the session
     * @param entry the entry to keep as the session's last one
     * @throws NullPointerException if {@code session} is null
     */
    public void truncateAfter(SessionId session, EntryId entry) {
        log.truncateAfter(Objects.requireNonNull(session, "session"), entry);
    }

    /**
     * Every agent's messages interleaved in insertion order. Session-scoped: requires a session.
     *
     * @param session the session
     * @return the entries that hold a message, every agent's, in {@code seq} order
     * @throws NullPointerException if {@code session} is null
     */
    public List<Entry> loadSessionMessages(SessionId session) {
        return log.loadSessionMessages(Objects.requireNonNull(session, "session"));
    }
}
