package dev.parley.engine;

import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.StoredSession;
import java.util.Objects;

/**
 * What {@link SessionService#compactHistory} committed: the archive (appended first) and the record that now points
 * at it (written second).
 *
 * @param archive the archive record, with the locators the archive repository assigned
 * @param stored the session record as written, with its new revision
 */
public record Compacted(ArchiveRecord archive, StoredSession stored) {
    /**
     * Checks the parts.
     *
     * @param archive the archive record, with its locators
     * @param stored the session record as written, with its new revision
     * @throws NullPointerException if {@code archive} or {@code stored} is null
     */
    public Compacted {
        Objects.requireNonNull(archive, "archive");
        Objects.requireNonNull(stored, "stored");
    }
}
