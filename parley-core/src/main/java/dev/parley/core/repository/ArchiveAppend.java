package dev.parley.core.repository;

import java.util.List;
import java.util.Objects;

/**
 * What to archive: the messages a compaction removed and the rolling summary that replaces them.
 *
 * @param sessionId the session
 * @param archive the archive record without its locators ({@link ArchiveRecord#draft}); the repository sets them
 * @param messages the removed messages, in order, copied
 * @param summary the summary text
 */
public record ArchiveAppend(String sessionId, ArchiveRecord archive, List<ChatMessage> messages, String summary) {
    public ArchiveAppend {
        ChatSession.requireId(sessionId, "session id");
        Objects.requireNonNull(archive, "archive");
        messages = List.copyOf(messages);
        Objects.requireNonNull(summary, "summary");
    }

    /**
     * What an append committed.
     *
     * @param archive the archive record with its locators
     * @param manifest the manifest as committed
     */
    public record Result(ArchiveRecord archive, ChatArchiveManifest manifest) {}
}
