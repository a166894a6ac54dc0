package dev.parley.agent;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Several agents in one session (Planck's multi-agent sessions): an orchestrator and its workers, each with its
 * own agent id and its own conversation, all writing to one log. {@link #sessionMessages()} shows every agent's
 * messages interleaved in insertion order — also after every agent is gone.
 *
 * <p>Thread-safe.
 */
public final class AgentTeam {
    private final MessageLog log;
    private final SessionId session;
    private final IdGenerator ids;
    private final Clock clock;

    /**
     * A team that writes to {@code session} in {@code log}.
     *
     * @param log the log every agent of the team writes to
     * @param session the session the agents share
     * @param ids the generator of entry ids, shared by the agents
     * @param clock the clock that stamps entries
     * @throws NullPointerException if any argument is null
     */
    public AgentTeam(MessageLog log, SessionId session, IdGenerator ids, Clock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.session = Objects.requireNonNull(session, "session");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The session the team writes to.
     *
     * @return the session, as given to the constructor
     */
    public SessionId session() {
        return session;
    }

    /**
     * An agent of the session, continuing its own conversation if the log has one ({@link Agent#resume}).
     *
     * @param id the agent's id in the session
     * @param config the agent's configuration
     * @param provider the agent's model provider
     * @return a new agent on a new {@link AgentSession} of the session, resumed from what the log holds for
     *     {@code id}
     */
    public Agent agent(AgentId id, AgentConfig config, ModelProvider provider) {
        return Agent.resume(config, provider, new AgentSession(log, session, id, ids, clock), clock);
    }

    /**
     * Every agent's messages, interleaved in insertion order (Planck's {@code load_session_messages}).
     *
     * @return the entries that hold a message, every agent's, in {@code seq} order; empty when there are none
     */
    public List<Entry> sessionMessages() {
        return log.loadSessionMessages(session);
    }
}
