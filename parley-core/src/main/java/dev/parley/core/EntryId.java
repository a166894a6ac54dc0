package dev.parley.core;

import java.io.Serializable;

/**
 * The id of one entry of a session's log, unique within its session. Parent ids refer to entry ids of the same session.
 *
 * <p>Validated on construction by the rule of {@link Ids}; compare with {@link #equals(Object)}. Serializable (so
 * that the exceptions that name one are), and validated again when read back.
 *
 * @param value the id text, never null
 */
public record EntryId(String value) implements Comparable<EntryId>, Serializable {

    /**
     * @param value the id text
     * @throws InvalidInputException if {@code value} is not a valid id (see {@link Ids})
     */
    public EntryId {
        Ids.requireValid("entry id", value);
    }

    /**
     * Shorthand for {@code new EntryId(value)}.
     *
     * @param value the id text
     * @return the entry id
     * @throws InvalidInputException if {@code value} is not a valid id (see {@link Ids})
     */
    public static EntryId of(String value) {
        return new EntryId(value);
    }

    /** Orders by the UTF-16 code units of the value, which for the ASCII ids allowed here is also byte order. */
    @Override
    public int compareTo(EntryId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
