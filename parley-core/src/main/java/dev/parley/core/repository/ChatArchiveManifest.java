package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A session's archive manifest: its archives in append order and the current rolling summary (Heddle's
 * {@code ChatArchiveManifest}, version 1). A committed manifest never references missing content.
 *
 * @param sessionId the session, non-empty
 * @param currentSummaryPath the locator of the latest summary, or null when there is no archive
 * @param archives the archives, in append order (not timestamp order), copied
 */
public record ChatArchiveManifest(String sessionId, @Nullable String currentSummaryPath, List<ArchiveRecord> archives) {
    /** The manifest format version. */
    public static final int VERSION = 1;

    /**
     * Checks the session id and copies {@code archives} into an unmodifiable list. Does not check that archive ids are
     * unique or that {@code currentSummaryPath} is the last archive's ({@link #withArchive} keeps both true).
     *
     * @param sessionId the session
     * @param currentSummaryPath the locator of the latest summary, or null
     * @param archives the archives, in append order; copied
     * @throws InvalidInputException if {@code sessionId} is not a valid id ({@link ChatSession#requireId}), null
     *     included
     * @throws NullPointerException if {@code archives} is null or holds a null
     */
    public ChatArchiveManifest {
        ChatSession.requireId(sessionId, "session id");
        archives = List.copyOf(archives);
    }

    /**
     * The manifest of a session with no archives.
     *
     * @param sessionId the session
     * @return a manifest with no archives and no current summary
     * @throws InvalidInputException if {@code sessionId} is not a valid id ({@link ChatSession#requireId})
     */
    public static ChatArchiveManifest empty(String sessionId) {
        return new ChatArchiveManifest(sessionId, null, List.of());
    }

    /**
     * This manifest with one more archive, which becomes the current summary (Heddle's {@code appendArchive}).
     *
     * @param archive the archive to add, with its locators
     * @return a new manifest with {@code archive} last and its {@link ArchiveRecord#summaryPath()} as the current
     *     summary
     * @throws InvalidInputException if an archive with that id is already listed
     * @throws NullPointerException if {@code archive} is null
     */
    public ChatArchiveManifest withArchive(ArchiveRecord archive) {
        Objects.requireNonNull(archive, "archive");
        for (ArchiveRecord a : archives) {
            if (a.id().equals(archive.id())) {
                throw new InvalidInputException("archive " + archive.id() + " already exists in session " + sessionId);
            }
        }
        List<ArchiveRecord> next = new ArrayList<>(archives);
        next.add(archive);
        return new ChatArchiveManifest(sessionId, archive.summaryPath(), next);
    }
}
