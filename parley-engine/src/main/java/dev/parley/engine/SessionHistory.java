package dev.parley.engine;

import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.StoredSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A session's whole conversation, put together from the record and the archives the record points at
 * ({@link SessionService#readHistory}). Immutable; lists are copied.
 *
 * @param stored the session record and its revision
 * @param archivedMessages the messages of the record's archives, oldest archive first, each in archive order
 * @param rollingSummary the summary of the record's latest archive, or null when the record points at no archive
 */
public record SessionHistory(StoredSession stored, List<ChatMessage> archivedMessages, @Nullable String rollingSummary) {
    /**
     * Checks the record and copies {@code archivedMessages}.
     *
     * @param stored the session record and its revision
     * @param archivedMessages the messages of the record's archives, oldest archive first; copied
     * @param rollingSummary the summary of the record's latest archive, or null
     * @throws NullPointerException if {@code stored} or {@code archivedMessages} is null, or
     *     {@code archivedMessages} holds a null
     */
    public SessionHistory {
        Objects.requireNonNull(stored, "stored");
        archivedMessages = List.copyOf(archivedMessages);
    }

    /**
     * The archives the record points at, oldest first.
     *
     * @return the record's archives; empty when it has none
     */
    public List<ArchiveRecord> archives() {
        return stored.session().archivesOrEmpty();
    }

    /**
     * The messages the record still holds: the transcript after the latest compaction.
     *
     * @return the record's {@code history}, in order
     */
    public List<ChatMessage> activeMessages() {
        return stored.session().history();
    }

    /**
     * Every message of the conversation in order: the archived ones, then the record's own.
     *
     * @return a new unmodifiable list: {@link #archivedMessages()} followed by {@link #activeMessages()}
     */
    public List<ChatMessage> fullHistory() {
        List<ChatMessage> all = new ArrayList<>(archivedMessages);
        all.addAll(stored.session().history());
        return List.copyOf(all);
    }
}
