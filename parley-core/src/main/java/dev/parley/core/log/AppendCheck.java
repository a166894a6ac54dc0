package dev.parley.core.log;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.model.NewEntry;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The integrity rules of {@link MessageLog#append}, shared by every backend so they fail the same way: entry ids
 * are unique within the session and the batch, and each parent names an entry that is already stored or comes
 * earlier in the same batch.
 */
public final class AppendCheck {
    private AppendCheck() {}

    /**
     * Checks a batch before anything is written.
     *
     * @param session the session, for messages
     * @param agent the agent, for messages
     * @param batch the batch to append
     * @param stored whether an entry id already exists in the session
     * @throws InvalidInputException naming the first entry that breaks a rule
     */
    public static void check(SessionId session, AgentId agent, List<NewEntry> batch, Predicate<EntryId> stored) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        Set<EntryId> inBatch = new HashSet<>();
        for (int i = 0; i < batch.size(); i++) {
            NewEntry e = Objects.requireNonNull(batch.get(i), "batch element " + i);
            if (!inBatch.add(e.id()) || stored.test(e.id())) {
                throw new InvalidInputException("entry id " + e.id() + " already exists in session " + session
                        + " (batch element " + i + ")");
            }
            EntryId parent = e.parentId();
            if (parent != null && !inBatch.contains(parent) && !stored.test(parent)) {
                throw new InvalidInputException("entry " + e.id() + " names parent " + parent
                        + ", which is not an earlier entry of session " + session + " (batch element " + i + ")");
            }
        }
    }
}
