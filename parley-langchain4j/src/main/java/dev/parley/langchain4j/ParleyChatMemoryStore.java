package dev.parley.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.parley.agent.memory.MemoryIds;
import dev.parley.agent.memory.MemoryLog;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * LangChain4j's {@link ChatMemoryStore} on a Parley store: give it to {@code MessageWindowChatMemory},
 * {@code TokenWindowChatMemory} or an AI service's memory provider, and every message is kept in the store's message
 * log.
 *
 * <ul>
 *   <li>{@link #updateMessages} appends only the messages that are new (recognised by identity, then by
 *       {@code equals}); nothing stored is rewritten, so an update costs the same at message 2,000 as at message 2.
 *   </li>
 *   <li>When the memory's window evicts messages, they stay in the log (the session shows the whole conversation,
 *       {@code parley show SESSION}); only the memory's view moves. {@link #getMessages} returns exactly the list
 *       last set, also in a new process.</li>
 *   <li>Every message type maps without loss, tool execution requests paired with their results
 *       ({@link LangChain4jMessages}).</li>
 *   <li>A memory id (any object, by its {@code toString()}) maps to a session id by {@link MemoryIds}: a valid
 *       Parley id as it is, anything else by a stable hash, with the original kept in the session's metadata.</li>
 *   <li>Concurrent updates of one memory — threads, or processes sharing the store — never lose or duplicate a
 *       message ({@link MemoryLog}).</li>
 *   <li>{@link #deleteMessages} (a memory's {@code clear()}) deletes the session with its history.</li>
 * </ul>
 *
 * <p>Thread-safe. The store is not closed by this object. Failures are Parley's unchecked
 * {@link dev.parley.core.ParleyException}s; a failed update wrote nothing:
 * <ul>
 *   <li>{@link dev.parley.core.InvalidInputException} from every method, if the memory id's {@code toString()} is
 *       empty or holds an unpaired surrogate; from {@link #getMessages}, {@link #updateMessages} and {@link #deleteMessages}, also if it maps to a
 *       session that another memory id owns ({@link MemoryIds}); from {@link #updateMessages}, also if a message
 *       cannot be mapped;</li>
 *   <li>{@link dev.parley.core.UnavailableException} if the store failed, and from {@link #updateMessages} if other
 *       writers of the same memory kept winning the next entry for 16 attempts in a row;</li>
 *   <li>{@link NullPointerException} if the memory id is null, or, from {@link #updateMessages}, if the list or one
 *       of its messages is null.</li>
 * </ul>
 */
public final class ParleyChatMemoryStore implements ChatMemoryStore {
    private final MemoryLog<ChatMessage> memory;

    /**
     * A memory store on {@code store}, stamping entries with the system clock.
     *
     * @param store the store that keeps the memories; not closed by this object
     */
    public ParleyChatMemoryStore(Store store) {
        this(store, Clock.systemUTC());
    }

    /**
     * @param store the store that keeps the memories (for example {@code Stores.open("sqlite:/var/lib/app/chat.db")})
     * @param clock the clock stamped on new entries
     */
    public ParleyChatMemoryStore(Store store, Clock clock) {
        this.memory = new MemoryLog<>(store, LangChain4jMessages.CODEC, clock);
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        return memory.get(key(memoryId));
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        memory.set(key(memoryId), messages);
    }

    @Override
    public void deleteMessages(Object memoryId) {
        memory.delete(key(memoryId));
    }

    /**
     * The session that keeps a memory, for reading its whole history through the store.
     *
     * @param memoryId the memory id, by its {@code toString()}
     * @return the session id, as {@link MemoryIds#sessionId} makes it
     * @throws NullPointerException if {@code memoryId} is null
     * @throws dev.parley.core.InvalidInputException if its {@code toString()} is empty or holds an unpaired
     *     surrogate
     */
    public SessionId sessionId(Object memoryId) {
        return memory.sessionId(key(memoryId));
    }

    private static String key(Object memoryId) {
        return Objects.requireNonNull(memoryId, "memoryId").toString();
    }
}
