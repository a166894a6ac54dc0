package dev.parley.core.model;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One durable record of a session's log, as a store returns it.
 *
 * <p>Entries form a tree through {@code parentId}; a conversation is one path through it. The order of a log is
 * {@code seq}, assigned by the store at append time and strictly increasing within a session — never a timestamp.
 *
 * @param seq the store-assigned insertion sequence, positive, strictly increasing within a session (not
 *     necessarily dense: truncation and other sessions leave gaps)
 * @param id the entry's id, unique within its session
 * @param parentId the parent entry in the same session, or null for a root
 * @param agentId the agent that wrote the entry
 * @param timestamp when the entry was written according to its writer (milliseconds), or null if the source has none
 * @param payload what the entry records
 * @param source the source record's format and residual for imported entries, or null for native ones
 */
public record Entry(long seq, EntryId id, @Nullable EntryId parentId, AgentId agentId, @Nullable Instant timestamp,
                    EntryPayload payload, @Nullable SourceRecord source) {

    /**
     * Truncates {@code timestamp} to milliseconds; unlike {@link NewEntry}, does not check its range.
     *
     * @param seq the store-assigned insertion sequence, at least 1
     * @param id the entry's id
     * @param parentId the parent entry, or null for a root
     * @param agentId the agent that wrote the entry
     * @param timestamp when the entry was written, or null
     * @param payload what the entry records
     * @param source the source record, or null for a native entry
     * @throws dev.parley.core.InvalidInputException if {@code seq} is not positive
     * @throws NullPointerException if {@code id}, {@code agentId} or {@code payload} is null
     */
    public Entry {
        if (seq <= 0) {
            throw new dev.parley.core.InvalidInputException("seq must be positive: " + seq);
        }
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(payload, "payload");
        timestamp = timestamp == null ? null : timestamp.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * The kind of the payload.
     *
     * @return the payload's kind, never null
     */
    public EntryKind kind() {
        return payload.kind();
    }

    /**
     * The payload as a message, or null if this is not a message entry.
     *
     * @return the message, or null
     */
    public @Nullable Message message() {
        return payload instanceof Message m ? m : null;
    }

    /**
     * Whether this is a detached event: a {@link EntryPayload.Custom} entry without a parent, never a leaf.
     *
     * @return true if the payload is {@link EntryPayload.Custom} and the entry has no parent
     */
    public boolean isDetached() {
        return parentId == null && payload instanceof EntryPayload.Custom;
    }

    /**
     * The same entry as it was before the store assigned {@code seq} and {@code agentId}.
     *
     * @return an entry to append with this entry's id, parent, timestamp, payload and source
     */
    public NewEntry toNewEntry() {
        return new NewEntry(id, parentId, timestamp, payload, source);
    }
}
