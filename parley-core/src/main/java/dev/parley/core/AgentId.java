package dev.parley.core;

import java.io.Serializable;

/**
 * The id of an agent within a session (an orchestrator, a worker, a Claude Code subagent). The single agent of an imported single-agent transcript is {@link #MAIN}.
 *
 * <p>Validated on construction by the rule of {@link Ids}; compare with {@link #equals(Object)}. Serializable (so
 * that the exceptions that name one are), and validated again when read back.
 *
 * @param value the id text, never null
 */
public record AgentId(String value) implements Comparable<AgentId>, Serializable {

    /** The agent id given to the main (or only) agent of a session: {@code main}. */
    public static final AgentId MAIN = new AgentId("main");

    /**
     * @param value the id text
     * @throws InvalidInputException if {@code value} is not a valid id (see {@link Ids})
     */
    public AgentId {
        Ids.requireValid("agent id", value);
    }

    /**
     * Shorthand for {@code new AgentId(value)}.
     *
     * @param value the id text
     * @return the agent id
     * @throws InvalidInputException if {@code value} is not a valid id (see {@link Ids})
     */
    public static AgentId of(String value) {
        return new AgentId(value);
    }

    /** Orders by the UTF-16 code units of the value, which for the ASCII ids allowed here is also byte order. */
    @Override
    public int compareTo(AgentId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
