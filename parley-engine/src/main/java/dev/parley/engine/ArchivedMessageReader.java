package dev.parley.engine;

import dev.parley.core.repository.ChatMessage;
import java.util.List;
import java.util.Optional;

/**
 * An archive repository that can give back the messages an archive holds. The archive port itself (Heddle's, and
 * {@link dev.parley.core.repository.ChatArchiveRepository}) can only read summaries; a
 * {@link dev.parley.core.repository.ChatArchiveRepository} that also implements this interface lets
 * {@link SessionService#readHistory} return the full transcript. {@link MemoryRepositories} does.
 *
 * <p>Implementations are thread-safe.
 */
public interface ArchivedMessageReader {

    /**
     * The messages stored under an archive's messages locator ({@link dev.parley.core.repository.ArchiveRecord#path}),
     * in archive order, or empty if there are none (in this scope).
     *
     * @throws dev.parley.core.repository.StorageCorruptionException if the stored messages cannot be decoded
     */
    Optional<List<ChatMessage>> readMessages(String messagesLocator);
}
