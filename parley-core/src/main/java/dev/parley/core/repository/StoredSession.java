package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import java.util.Objects;

/**
 * A session record and its revision: 1 when created, one more with every update.
 *
 * @param session the record
 * @param revision the revision, at least 1
 */
public record StoredSession(ChatSession session, long revision) {
    /**
     * @param session the record
     * @param revision the revision, at least 1
     * @throws NullPointerException if {@code session} is null
     * @throws InvalidInputException if {@code revision} is less than 1
     */
    public StoredSession {
        Objects.requireNonNull(session, "session");
        if (revision < 1) {
            throw new InvalidInputException("revision must be at least 1, got " + revision);
        }
    }
}
