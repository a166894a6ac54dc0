package dev.parley.formats;

import dev.parley.core.AgentId;
import dev.parley.core.SessionId;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What importing one session did.
 *
 * @param session the Parley session the source landed in
 * @param format the source format
 * @param status imported (a new session), updated (new entries or agents appended) or unchanged
 * @param agents per agent: its source file and counts, main first
 * @param source for a conversation of a multi-conversation file, the file; else null
 * @param index for a conversation of a multi-conversation file, its position; else null
 */
public record ImportResult(SessionId session, Format format, Status status, List<Agent> agents, @Nullable Path source,
                           @Nullable Integer index) {
    /**
     * Checks the parts and copies {@code agents}.
     *
     * @param session the Parley session the source landed in
     * @param format the source format
     * @param status imported, updated or unchanged
     * @param agents per agent: its source file and counts, main first; copied
     * @param source for a conversation of a multi-conversation file, the file; else null
     * @param index for a conversation of a multi-conversation file, its 0-based position; else null
     * @throws NullPointerException if {@code session}, {@code format}, {@code status} or {@code agents} is null, or
     *     {@code agents} holds a null
     */
    public ImportResult {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(status, "status");
        agents = List.copyOf(agents);
    }

    /** The outcome for a session. */
    public enum Status {
        /** The source was stored as a new session. */
        IMPORTED,
        /** The source's session was stored already, and entries or agents it lacked were appended to it. */
        UPDATED,
        /** The source's session was stored already with everything the source holds; nothing was written. */
        UNCHANGED;

        /**
         * The lower-case name used in reports.
         *
         * @return {@code "imported"}, {@code "updated"} or {@code "unchanged"}
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One agent of an imported session.
     *
     * @param agent the agent
     * @param source the file its entries came from, or null for a conversation of a multi-conversation file
     * @param entries how many entries the source holds
     * @param messages how many of them are messages
     */
    public record Agent(AgentId agent, @Nullable Path source, long entries, long messages) {}

    /**
     * Entries over all agents.
     *
     * @return the sum of the agents' {@link Agent#entries()}
     */
    public long entries() {
        return agents.stream().mapToLong(Agent::entries).sum();
    }

    /**
     * Messages over all agents.
     *
     * @return the sum of the agents' {@link Agent#messages()}
     */
    public long messages() {
        return agents.stream().mapToLong(Agent::messages).sum();
    }
}
