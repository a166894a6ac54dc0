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
    /**
     * Checks the parts and copies {@code messages}.
     *
     * @param sessionId the session
     * @param archive the archive record without its locators
     * @param messages the removed messages, in order; copied
     * @param summary the summary text
     * @throws dev.parley.core.InvalidInputException if {@code sessionId} is not a valid id
     *     ({@link ChatSession#requireId}), null included
     * @throws NullPointerException if {@code archive}, {@code messages} or {@code summary} is null, or
     *     {@code messages} holds a null
     */
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
