package dev.parley.springai;

import dev.parley.agent.memory.MemoryIds;
import dev.parley.agent.memory.MemoryLog;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import java.time.Clock;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * Spring AI's {@link ChatMemoryRepository} on a Parley store: give it to {@code MessageWindowChatMemory} (the Spring
 * Boot starter {@code parley-spring-boot-starter} does, in place of the in-memory default), and every message is kept
 * in the store's message log.
 *
 * <ul>
 *   <li>{@link #saveAll} appends only the messages that are new (recognised by identity, then by {@code equals});
 *       nothing stored is deleted or rewritten, so a save costs the same at message 2,000 as at message 2.</li>
 *   <li>Order is the log's insertion sequence, never a timestamp; {@link #findByConversationId} returns exactly the
 *       list last saved, also in a new process.</li>
 *   <li>Tool calls and tool responses are kept with their ids, names and arguments ({@link SpringAiMessages}), so a
 *       reloaded conversation is one the provider accepts.</li>
 *   <li>When the window drops old messages, they stay in the log; only the conversation's view moves.</li>
 *   <li>A conversation id maps to a session id by {@link MemoryIds}; {@link #findConversationIds} lists the
 *       conversations from the store's catalog ({@link #findConversationIds(String, int)} page by page).</li>
 *   <li>Concurrent saves of one conversation — threads, or processes sharing the store — never lose or duplicate a
 *       message ({@link MemoryLog}).</li>
 *   <li>{@link #deleteByConversationId} deletes the session with its history.</li>
 * </ul>
 *
 * <p>Thread-safe. The store is not closed by this object. Failures are Parley's unchecked
 * {@link dev.parley.core.ParleyException}s; a failed save wrote nothing:
 * <ul>
 *   <li>{@link dev.parley.core.InvalidInputException} from every method taking a conversation id, if the id is null,
 *       empty or holds an unpaired surrogate; from {@link #findByConversationId}, {@link #saveAll} and {@link #deleteByConversationId}, also if
 *       the id maps to a session that another conversation id owns ({@link MemoryIds}); from {@link #saveAll}, also
 *       if a message cannot be mapped;</li>
 *   <li>{@link dev.parley.core.UnavailableException} if the store failed, and from {@link #saveAll} if other
 *       writers of the same conversation kept winning the next entry for 16 attempts in a row;</li>
 *   <li>{@link NullPointerException} from {@link #saveAll} if the list or one of its messages is null.</li>
 * </ul>
 */
public final class ParleyChatMemoryRepository implements ChatMemoryRepository {
    private final MemoryLog<Message> memory;

    /**
     * A repository on {@code store}, stamping entries with the system clock.
     *
     * @param store the store that keeps the conversations; not closed by this object
     */
    public ParleyChatMemoryRepository(Store store) {
        this(store, Clock.systemUTC());
    }

    /**
     * @param store the store that keeps the conversations
     * @param clock the clock stamped on new entries
     */
    public ParleyChatMemoryRepository(Store store, Clock clock) {
        this.memory = new MemoryLog<>(store, SpringAiMessages.CODEC, clock);
    }

    /** Every conversation this repository keeps in the store, newest activity first. */
    @Override
    public List<String> findConversationIds() {
        return memory.memoryIds();
    }

    /**
     * One page of the store's catalog, filtered to the conversations of this repository.
     *
     * @param cursor the previous page's cursor, or null for the first page
     * @param limit how many catalog entries to visit, 1 to {@link dev.parley.core.log.SessionCatalog#MAX_PAGE_SIZE}
     * @return the conversation ids among the entries visited (fewer than {@code limit}, possibly none, even when
     *     more pages follow) and the next page's cursor, null after the last page
     * @throws dev.parley.core.InvalidInputException if {@code limit} is outside that range or the cursor is damaged
     *     (on a store without a catalog, {@code null:}, the page is empty and nothing is checked)
     */
    public MemoryLog.MemoryPage findConversationIds(@Nullable String cursor, int limit) {
        return memory.memoryIds(cursor, limit);
    }

    @Override
    public List<Message> findByConversationId(String conversationId) {
        return memory.get(conversationId);
    }

    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        memory.set(conversationId, messages);
    }

    @Override
    public void deleteByConversationId(String conversationId) {
        memory.delete(conversationId);
    }

    /**
     * The session that keeps a conversation, for reading its whole history through the store.
     *
     * @param conversationId the conversation id
     * @return the session id, as {@link MemoryIds#sessionId} makes it
     * @throws dev.parley.core.InvalidInputException if {@code conversationId} is null, empty or holds an unpaired
     *     surrogate
     */
    public SessionId sessionId(String conversationId) {
        return memory.sessionId(conversationId);
    }
}
