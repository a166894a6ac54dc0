package dev.parley.core.model;

import dev.parley.core.EntryId;
import dev.parley.core.Times;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An entry to append: an {@link Entry} before the store has assigned its sequence number and agent.
 *
 * @param id the entry's id, which must not exist yet in the session
 * @param parentId the parent, which must already exist in the session or precede this entry in the same batch;
 *     null for a root
 * @param timestamp when the entry was written, kept to the millisecond, in the years 0000 to 9999
 *     ({@link dev.parley.core.Times}), or null
 * @param payload what the entry records
 * @param source the source record for imported entries, or null
 */
public record NewEntry(EntryId id, @Nullable EntryId parentId, @Nullable Instant timestamp, EntryPayload payload,
                       @Nullable SourceRecord source) {

    /**
     * Truncates {@code timestamp} to milliseconds. Whether {@code id} is new and {@code parentId} exists is checked
     * by the store at append time, not here.
     *
     * @param id the entry's id
     * @param parentId the parent, or null for a root
     * @param timestamp when the entry was written, or null
     * @param payload what the entry records
     * @param source the source record, or null
     * @throws NullPointerException if {@code id} or {@code payload} is null
     * @throws dev.parley.core.InvalidInputException if {@code timestamp} is outside the years 0000 to 9999, or
     *     {@code parentId} equals {@code id}
     */
    public NewEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(payload, "payload");
        timestamp = timestamp == null ? null : Times.millis(timestamp);
        if (id.equals(parentId)) {
            throw new dev.parley.core.InvalidInputException("entry " + id + " names itself as its parent");
        }
    }

    /**
     * A native entry (no source record).
     *
     * @param id the entry's id
     * @param parentId the parent, or null for a root
     * @param timestamp when the entry was written, or null
     * @param payload what the entry records
     * @return the entry, with no source record
     * @throws NullPointerException if {@code id} or {@code payload} is null
     * @throws dev.parley.core.InvalidInputException if {@code timestamp} is outside the years 0000 to 9999, or
     *     {@code parentId} equals {@code id}
     */
    public static NewEntry of(EntryId id, @Nullable EntryId parentId, @Nullable Instant timestamp, EntryPayload payload) {
        return new NewEntry(id, parentId, timestamp, payload, null);
    }
}
