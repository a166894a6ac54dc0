package dev.parley.core.repository;

import dev.parley.core.RawJson;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A session as the catalog lists it: every field of {@link ChatSession} except the large ones ({@code history},
 * {@code messages}, {@code turns}, {@code queuedPrompts}), plus the revision. Built by <em>selecting</em> catalog
 * fields ({@link #of}), never by copying a record and deleting some. Like the record, it keeps which optional keys it
 * has: {@code archives} is null when the record has no {@code archives} key and empty for {@code "archives": []}
 * ({@link #archivesOrEmpty()} never returns null).
 *
 * @param id the session id
 * @param revision the record's revision in the repository
 * @param name the display name
 * @param retention {@code reusable} or {@code one_off}, or null
 * @param workspaceId the workspace the session belongs to, or null
 * @param pinned whether the session is pinned (pinned sessions list first)
 * @param archivedAt when the session was archived (a soft flag), or null
 * @param createdAt when the session was created
 * @param updatedAt when the session was last changed; the catalog's activity order
 * @param model the model in use, or null
 * @param reasoningEffort the reasoning effort, or null
 * @param driftEnabled drift detection setting, or null
 * @param lastContinuePrompt the last continuation prompt, or null
 * @param context context and compaction statistics (opaque JSON), or null
 * @param archives the archive records of compacted history, copied; null when the record has no {@code archives}
 *     key, which is not the same as an empty list
 * @param leaseEpoch the last fencing token ever issued, kept after release, or null
 * @param lease the current lease, or null
 */
public record CatalogEntry(String id, long revision, String name, @Nullable String retention,
                           @Nullable String workspaceId, boolean pinned, @Nullable Instant archivedAt, Instant createdAt,
                           Instant updatedAt, @Nullable String model, @Nullable String reasoningEffort,
                           @Nullable Boolean driftEnabled, @Nullable String lastContinuePrompt, @Nullable RawJson context,
                           @Nullable List<ArchiveRecord> archives, @Nullable Long leaseEpoch, @Nullable Lease lease) {
    /**
     * Copies {@code archives}, when not null, into an unmodifiable list. Nothing else is checked: the values are
     * meant to come from a {@link ChatSession}, which checked them ({@link #of}).
     *
     * @param id the session id
     * @param revision the record's revision
     * @param name the display name
     * @param retention the retention, or null
     * @param workspaceId the workspace, or null
     * @param pinned whether the session is pinned
     * @param archivedAt when the session was archived, or null
     * @param createdAt when the session was created
     * @param updatedAt when the session was last changed
     * @param model the model in use, or null
     * @param reasoningEffort the reasoning effort, or null
     * @param driftEnabled the drift detection setting, or null
     * @param lastContinuePrompt the last continuation prompt, or null
     * @param context context and compaction statistics (opaque JSON), or null
     * @param archives the archive records, copied; null when the record has no {@code archives} key
     * @param leaseEpoch the last fencing token ever issued, or null
     * @param lease the current lease, or null
     * @throws NullPointerException if {@code archives} holds a null
     */
    public CatalogEntry {
        archives = archives == null ? null : List.copyOf(archives);
    }

    /**
     * The catalog projection of a stored session.
     *
     * @param s the stored record
     * @param revision its revision
     * @return the entry: the record's catalog fields, and {@code revision}
     */
    public static CatalogEntry of(ChatSession s, long revision) {
        return new CatalogEntry(s.id(), revision, s.name(), s.retention(), s.workspaceId(), s.pinned(), s.archivedAt(),
                s.createdAt(), s.updatedAt(), s.model(), s.reasoningEffort(), s.driftEnabled(), s.lastContinuePrompt(),
                s.context(), s.archives(), s.leaseEpoch(), s.lease());
    }

    /**
     * Whether the session is archived.
     *
     * @return true if {@link #archivedAt()} is set
     */
    public boolean archived() {
        return archivedAt != null;
    }

    /**
     * The archive records, or an empty list when there are none or no {@code archives} key. Never null.
     *
     * @return {@link #archives()}, or an empty list when it is null
     */
    public List<ArchiveRecord> archivesOrEmpty() {
        return archives == null ? List.of() : archives;
    }
}
