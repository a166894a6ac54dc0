package dev.parley.core.conversation;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One agent's view of one session: panto's {@code SessionStore} (seed {@code 001_5256a591ecc368e7}, phase 1).
 * An agent owns one and persists every message through it as the message enters its conversation.
 *
 * <p>The view keeps a <em>leaf</em>: the entry the next append continues from. Appends chain each entry to the
 * one before and move the leaf; {@link #moveLeaf} makes the next append a sibling (a branch).
 *
 * <p>Catalog operations (listing, resolving an id prefix) are deliberately not here; they belong to the backend
 * ({@link dev.parley.core.log.SessionCatalog}).
 *
 * <p>Implementations are thread-safe.
 */
public interface SessionStore {

    /**
     * Appends messages as one atomic, durable batch, chained from the current leaf; the leaf moves to the last one.
     *
     * @return the stored entries; empty for the null store
     * @throws dev.parley.core.UnavailableException if the backend failed; nothing was written and the leaf is
     *     unchanged
     */
    List<Entry> appendMessages(List<Message> messages);

    /**
     * Appends entries of any kind (a compaction, a model change…) as one atomic batch, chained from the current
     * leaf; the leaf moves to the last one.
     *
     * @return the stored entries; empty for the null store
     */
    List<Entry> appendEntries(List<? extends EntryPayload> payloads);

    /**
     * Reads the conversation: the path from the root to the leaf as messages, plus the dangling user prompt,
     * repaired as the options say. Also moves this view's leaf to the loaded conversation's
     * {@linkplain LoadedConversation#continueFrom() continuation point} when {@code options.leaf()} is null.
     */
    LoadedConversation loadConversation(ConversationOptions options);

    /** {@link #loadConversation(ConversationOptions)} with {@link ConversationOptions#AS_WRITTEN}. */
    default LoadedConversation loadConversation() {
        return loadConversation(ConversationOptions.AS_WRITTEN);
    }

    /** The session this view writes to. */
    SessionId sessionId();

    /** The model in force at the leaf: the last model change, or model stamped on a message, on its path. */
    Optional<ModelRef> activeModel();

    /** The entry the next append continues from, or null when the next append starts a new root. */
    @Nullable EntryId leaf();

    /**
     * Adds usage to this agent's running total in the session (a no-op for the null store).
     */
    void recordUsage(dev.parley.core.model.Usage usage);

    /**
     * Removes every entry appended after {@code entry}, across all agents of the session (rewind; destructive), and
     * moves the leaf to {@code entry}.
     *
     * @throws dev.parley.core.NotFoundException if the entry is not in the session
     */
    void truncateAfter(EntryId entry);

    /**
     * Makes the next append continue from {@code entry} (a sibling of its existing children: a branch), or start a
     * new root for null. The abandoned branch stays in the log.
     *
     * @throws dev.parley.core.NotFoundException if the entry is not in the session
     */
    void moveLeaf(@Nullable EntryId entry);
}
