package dev.parley.core.log;

import dev.parley.core.AgentId;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The rules of {@link MessageLog#append}, shared by every backend so they hold and fail the same way:
 * <ul>
 *   <li>an entry id already stored in the session with identical content (the same parent, agent, timestamp,
 *       payload and source) is <em>recognised</em>: it is returned as stored and not written again — a retried
 *       append is safe;</li>
 *   <li>an entry id already stored with different content is an {@link EntryConflictException} naming it;</li>
 *   <li>an id may appear once in a batch, and each parent must name an entry that is already stored or comes
 *       earlier in the same batch;</li>
 *   <li>an entry to write must be within {@link EntryLimits}, so that it reads back on every backend.</li>
 * </ul>
 * A backend plans the batch with {@link #plan} before writing anything, writes {@link Plan#toWrite()} in order, and
 * answers {@link Plan#result(List)}.
 */
public final class AppendCheck {
    private AppendCheck() {}

    /**
     * Checks a batch against what is stored, before anything is written.
     *
     * @param session the session, for messages
     * @param agent the agent that appends
     * @param batch the batch to append
     * @param stored the entries of the session whose ids are in the batch or are parents named by it, by id (a
     *     backend looks them up in one query); ids that are not stored are absent
     * @return the plan: which entries to write, and the stored ones to answer with
     * @throws EntryConflictException if an id is stored with different content; nothing may be written
     * @throws InvalidInputException naming the first entry that repeats an id or names a missing parent; an
     *     {@link EntryTooLargeException} naming the first entry to write that is over {@link EntryLimits}
     */
    public static Plan plan(SessionId session, AgentId agent, List<NewEntry> batch, Map<EntryId, Entry> stored) {
        return planChecking(session, agent, batch, stored, stored.keySet());
    }

    /**
     * {@link #plan(SessionId, AgentId, List, Map)}, optionally without checking parents: for a store that keeps
     * nothing and so cannot know them (the null store).
     *
     * @param session the session, for messages
     * @param agent the agent that appends
     * @param batch the batch to append
     * @param stored the entries of the session whose ids are in the batch or are parents named by it, by id; ids that
     *     are not stored are absent
     * @param checkParents whether a parent must be stored or come earlier in the batch; false for a store that keeps
     *     nothing
     * @return the plan: which entries to write, and the stored ones to answer with
     * @throws EntryConflictException as {@link #plan(SessionId, AgentId, List, Map)}
     * @throws InvalidInputException as {@link #plan(SessionId, AgentId, List, Map)}, less the missing parent when
     *     {@code checkParents} is false
     */
    public static Plan plan(SessionId session, AgentId agent, List<NewEntry> batch, Map<EntryId, Entry> stored,
                            boolean checkParents) {
        return planChecking(session, agent, batch, stored, checkParents ? stored.keySet() : null);
    }

    /**
     * {@link #plan(SessionId, AgentId, List, Map)} for a backend that reads the parents a batch names by id only: a
     * parent must be stored, and its body is not the append's concern (a damaged one is reported when it is read).
     *
     * @param session the session, for messages
     * @param agent the agent that appends
     * @param batch the batch to append
     * @param stored the stored entries of the session whose ids are in the batch, by id
     * @param storedIds the ids, of those the batch names as parents, that are stored in the session (an id that is a
     *     key of {@code stored} counts as stored too)
     * @return the plan, as {@link #plan(SessionId, AgentId, List, Map)}'s
     * @throws EntryConflictException as {@link #plan(SessionId, AgentId, List, Map)}
     * @throws InvalidInputException as {@link #plan(SessionId, AgentId, List, Map)}
     */
    public static Plan planWithStoredIds(SessionId session, AgentId agent, List<NewEntry> batch,
                                         Map<EntryId, Entry> stored, Set<EntryId> storedIds) {
        return planChecking(session, agent, batch, stored, Objects.requireNonNull(storedIds, "storedIds"));
    }

    /** The plan, the parents checked against {@code parentsStored} unless it is null. */
    private static Plan planChecking(SessionId session, AgentId agent, List<NewEntry> batch,
                                     Map<EntryId, Entry> stored, @Nullable Set<EntryId> parentsStored) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        Set<EntryId> inBatch = new HashSet<>();
        Entry[] recognised = new Entry[batch.size()];
        List<NewEntry> toWrite = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            NewEntry e = Objects.requireNonNull(batch.get(i), "batch element " + i);
            if (!inBatch.add(e.id())) {
                throw new InvalidInputException("entry id " + e.id() + " appears twice in the batch for session "
                        + session + " (batch element " + i + ")");
            }
            Entry existing = stored.get(e.id());
            if (existing != null) {
                if (!existing.agentId().equals(agent) || !existing.toNewEntry().equals(e)) {
                    throw new EntryConflictException(session, e.id(), i);
                }
                recognised[i] = existing;
                continue;
            }
            EntryId parent = e.parentId();
            if (parentsStored != null && parent != null && !inBatch.contains(parent)
                    && !parentsStored.contains(parent) && !stored.containsKey(parent)) {
                throw new InvalidInputException("entry " + e.id() + " names parent " + parent
                        + ", which is not an earlier entry of session " + session + " (batch element " + i + ")");
            }
            EntryLimits.check(session, i, e);
            toWrite.add(e);
        }
        return new Plan(batch.size(), recognised, toWrite);
    }

    /**
     * The condition of {@link MessageLog#appendIfLast}: a backend calls it, under the same lock or transaction as the
     * write, with the agent's latest stored entry, unless the {@link Plan#nothingToWrite() plan writes nothing} (a
     * recognised retry is answered whatever the latest entry is now).
     *
     * @param session the session, for the message
     * @param agent the agent, for the message
     * @param expected the agent's latest entry the append expects, or null for "the agent has none"
     * @param actual the agent's latest stored entry, or null when it has none
     * @throws LastEntryMovedException if {@code actual} is not {@code expected}
     */
    public static void requireLast(SessionId session, AgentId agent, @Nullable EntryId expected,
                                   @Nullable EntryId actual) {
        if (!Objects.equals(expected, actual)) {
            throw new LastEntryMovedException(session, agent, expected, actual);
        }
    }

    /**
     * The ids a backend must look up before {@link #plan}: every entry id of the batch and every parent it names.
     *
     * @param batch the batch to append
     * @return the ids, in a new set; empty for an empty batch
     */
    public static Set<EntryId> idsToLookUp(List<NewEntry> batch) {
        Set<EntryId> ids = new HashSet<>(batch.size() * 2);
        for (NewEntry e : batch) {
            ids.add(e.id());
            if (e.parentId() != null) {
                ids.add(e.parentId());
            }
        }
        return ids;
    }

    /** A checked batch: what to write, and how to answer once it is written. */
    public static final class Plan {
        private final int size;
        private final Entry[] recognised;
        private final List<NewEntry> toWrite;

        Plan(int size, Entry[] recognised, List<NewEntry> toWrite) {
            this.size = size;
            this.recognised = recognised;
            this.toWrite = List.copyOf(toWrite);
        }

        /**
         * The entries to write, in batch order (the batch less the recognised ones).
         *
         * @return the entries, unmodifiable; empty when the whole batch is already stored (or is empty)
         */
        public List<NewEntry> toWrite() {
            return toWrite;
        }

        /**
         * Whether every entry of the batch is already stored (a retry): nothing to write.
         *
         * @return true if there is nothing to write, also for an empty batch
         */
        public boolean nothingToWrite() {
            return toWrite.isEmpty();
        }

        /**
         * The answer to the append.
         *
         * @param written the entries written, in the order of {@link #toWrite()}, with their assigned seq
         * @return every entry of the batch as stored, in batch order, and {@code written.size()} as the count written
         * @throws IllegalArgumentException if {@code written} does not hold as many entries as {@link #toWrite()}
         */
        public AppendResult result(List<Entry> written) {
            if (written.size() != toWrite.size()) {
                throw new IllegalArgumentException("wrote " + written.size() + " of " + toWrite.size());
            }
            Entry[] out = Arrays.copyOf(recognised, size);
            int next = 0;
            for (int i = 0; i < size; i++) {
                if (out[i] == null) {
                    out[i] = written.get(next++);
                }
            }
            return new AppendResult(Arrays.asList(out), written.size());
        }
    }
}
