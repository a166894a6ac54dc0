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
     * @throws NullPointerException if {@code archives} holds a null
     */
    public CatalogEntry {
        archives = archives == null ? null : List.copyOf(archives);
    }

    /** The catalog projection of a stored session. */
    public static CatalogEntry of(ChatSession s, long revision) {
        return new CatalogEntry(s.id(), revision, s.name(), s.retention(), s.workspaceId(), s.pinned(), s.archivedAt(),
                s.createdAt(), s.updatedAt(), s.model(), s.reasoningEffort(), s.driftEnabled(), s.lastContinuePrompt(),
                s.context(), s.archives(), s.leaseEpoch(), s.lease());
    }

    /** Whether the session is archived. */
    public boolean archived() {
        return archivedAt != null;
    }

    /** The archive records, or an empty list when there are none or no {@code archives} key. Never null. */
    public List<ArchiveRecord> archivesOrEmpty() {
        return archives == null ? List.of() : archives;
    }
}
