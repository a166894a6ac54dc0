package dev.parley.core;

import java.io.Serializable;

/**
 * The id of a session: one conversation log, possibly shared by several agents.
 *
 * <p>Validated on construction by the rule of {@link Ids}; compare with {@link #equals(Object)}. Serializable (so
 * that the exceptions that name one are), and validated again when read back.
 *
 * @param value the id text, never null
 */
public record SessionId(String value) implements Comparable<SessionId>, Serializable {

    /**
     * @param value the id text
     * @throws InvalidInputException if {@code value} is not a valid id (see {@link Ids})
     */
    public SessionId {
        Ids.requireValid("session id", value);
    }

    /**
     * Shorthand for {@code new SessionId(value)}.
     *
     * @param value the id text
     * @return the session id
     * @throws InvalidInputException if {@code value} is not a valid id (see {@link Ids})
     */
    public static SessionId of(String value) {
        return new SessionId(value);
    }

    /** Orders by the UTF-16 code units of the value, which for the ASCII ids allowed here is also byte order. */
    @Override
    public int compareTo(SessionId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
