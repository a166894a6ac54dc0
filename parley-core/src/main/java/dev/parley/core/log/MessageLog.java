package dev.parley.core.log;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The message log: the durable, append-only record of every agent's entries in a session. This is the SPI every
 * backend implements (SQLite, JSONL files, PostgreSQL, remote, memory, null); the contract is Planck.Agent's
 * persistence behaviour (seed {@code 000_f14f62d758a51e3d}) made batch-atomic and tree-aware.
 *
 * <p>A backend implements the abstract methods; the named operations of the seed ({@link #persistMessage},
 * {@link #loadMessages}, {@link #flushUnpersisted}, {@link #loadSessionMessages}…) are derived from them.
 * Agents should call through {@link Persistence}, which also handles ephemeral agents (no session).
 *
 * <h2>Guarantees every backend keeps (the conformance kit checks them)</h2>
 * <ul>
 *   <li><b>Order</b> is the store-assigned {@link Entry#seq()}, strictly increasing within a session, never a
 *       timestamp.</li>
 *   <li><b>Atomicity</b>: an {@link #append} writes the whole batch or nothing. When it returns, the batch is
 *       durable (it survives a crash of the process, and a power loss where the backend says so).</li>
 *   <li><b>Constant append cost</b>: an append never rewrites what is already stored; its cost does not grow with
 *       the length of the session.</li>
 *   <li><b>Integrity</b>: entry ids are unique within a session, and a parent id must name an entry of the same
 *       session that precedes the child.</li>
 *   <li><b>Exactness</b>: an entry reads back equal to what was appended, with the seq and agent the store
 *       assigned.</li>
 *   <li><b>Corruption</b> makes a read fail with a {@link dev.parley.core.CorruptRecordException} naming where; it
 *       is never skipped silently.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe. Failures are {@link dev.parley.core.ParleyException}s: invalid input,
 * {@link dev.parley.core.UnavailableException} for I/O failures (retriable; a failed append wrote nothing), and
 * {@link dev.parley.core.CorruptRecordException}.
 */
public interface MessageLog extends AutoCloseable {

    /**
     * Appends a batch of entries for one agent, atomically and durably. Creates the session if it does not exist.
     *
     * @param session the session
     * @param agent the agent writing the entries
     * @param batch the entries, in order; an empty batch writes nothing and returns an empty list
     * @return the stored entries, in order, with their assigned {@code seq} and {@code agent}
     * @throws dev.parley.core.InvalidInputException if an entry id already exists in the session or repeats in the
     *     batch, or a parent id names no earlier entry of the session; nothing was written
     * @throws dev.parley.core.UnavailableException if the backend failed; nothing was written
     */
    List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch);

    /**
     * Every entry of a session, of one agent or of all, in insertion order.
     *
     * @param session the session
     * @param agent the agent whose entries to return, or null for every agent's entries interleaved
     * @return the entries, in {@code seq} order; empty when the session does not exist
     * @throws dev.parley.core.CorruptRecordException if a stored entry cannot be decoded
     */
    List<Entry> load(SessionId session, @Nullable AgentId agent);

    /**
     * The agent's most recent entry in the session, without loading the others.
     *
     * @return the entry with the highest {@code seq} written by {@code agent}, or empty
     */
    Optional<Entry> lastEntry(SessionId session, AgentId agent);

    /**
     * Removes every entry appended after {@code entry}, across all agents (Planck's {@code truncate_after}, used to
     * rewind and edit). The entry itself is kept: to remove it too, truncate after its predecessor. Destructive and
     * atomic: either every later entry is removed or none.
     *
     * @throws dev.parley.core.NotFoundException if the session has no such entry
     */
    void truncateAfter(SessionId session, EntryId entry);

    /**
     * Adds {@code usage} to the agent's running usage total in the session. Totals never decrease, also not on
     * truncation (they record what was spent, as in Planck).
     */
    void persistUsage(SessionId session, AgentId agent, Usage usage);

    /** The agent's running usage total in the session; {@link Usage#ZERO} when nothing was recorded. */
    Usage loadUsage(SessionId session, AgentId agent);

    /**
     * The session catalog of this store, if it has one. Every store except the null store has one.
     */
    Optional<SessionCatalog> catalog();

    /**
     * The revisioned session and archive repositories of this store, if it has them (SQLite, the file stores,
     * PostgreSQL). Capabilities are queried, not discovered by exceptions.
     */
    default Optional<dev.parley.core.repository.Repositories> repositories() {
        return Optional.empty();
    }

    /** Releases the store's resources (connections, file locks). Idempotent. */
    @Override
    void close();

    // ---- the seed's named operations, derived ----

    /**
     * Persists one message for the agent (Planck's {@code persist_message}): appends it as a new entry whose parent
     * is the agent's latest entry in the session (a root if it has none).
     *
     * @return the stored entry, carrying the store's {@code seq} (Planck's row id)
     */
    default Entry persistMessage(SessionId session, AgentId agent, Message message, IdGenerator ids) {
        return persistMessages(session, agent, List.of(message), ids).get(0);
    }

    /**
     * Persists messages as one atomic batch, chained: the first message's parent is the agent's latest entry, each
     * following message's parent is the message before it.
     *
     * @return the stored entries, in order
     */
    default List<Entry> persistMessages(SessionId session, AgentId agent, List<Message> messages, IdGenerator ids) {
        if (messages.isEmpty()) {
            return List.of();
        }
        EntryId parent = lastEntry(session, agent).map(Entry::id).orElse(null);
        List<NewEntry> batch = new ArrayList<>(messages.size());
        for (Message message : messages) {
            EntryId id = ids.newEntryId();
            Instant at = message.createdAt();
            batch.add(NewEntry.of(id, parent, at, message));
            parent = id;
        }
        return append(session, agent, batch);
    }

    /**
     * The agent's messages in insertion order (Planck's {@code load_messages}); other entry kinds are left out.
     */
    default List<Entry> loadMessages(SessionId session, AgentId agent) {
        return load(session, agent).stream().filter(e -> e.message() != null).toList();
    }

    /**
     * Writes messages that were not persisted yet (Planck's {@code flush_unpersisted}), as one batch.
     *
     * @param unpersisted the messages held back so far (prompts queued while the agent was busy), in order
     * @return {@link FlushResult#FLUSHED} if anything was written, {@link FlushResult#NOOP} for an empty list
     */
    default FlushResult flushUnpersisted(SessionId session, AgentId agent, List<Message> unpersisted, IdGenerator ids) {
        if (unpersisted.isEmpty()) {
            return FlushResult.NOOP;
        }
        persistMessages(session, agent, unpersisted, ids);
        return FlushResult.FLUSHED;
    }

    /**
     * Every agent's messages of the session, interleaved in insertion order (Planck's
     * {@code load_session_messages}): for a UI showing orchestrator and workers together. Works for sessions whose
     * agents are all gone. Each row is an entry carrying its {@code seq}, agent, message and timestamp.
     */
    default List<Entry> loadSessionMessages(SessionId session) {
        return load(session, null).stream().filter(e -> e.message() != null).toList();
    }
}
