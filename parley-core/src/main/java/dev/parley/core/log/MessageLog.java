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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * The message log: the durable, append-only record of every agent's entries in a session. This is the SPI every
 * backend implements (SQLite, JSONL files, PostgreSQL, remote, memory, null); the contract is Planck's persistence
 * behaviour (see the glossary, {@code docs/00-glossary.md}) made batch-atomic, idempotent and tree-aware. A log is
 * reached through its {@link dev.parley.core.store.Store} and is bound to the store's scope.
 *
 * <p>A backend implements the abstract methods; the named operations of Planck ({@link #persistMessage},
 * {@link #loadMessages}, {@link #flushUnpersisted}, {@link #loadSessionMessages}…) are derived from them.
 * Agents should call through {@link Persistence}, which also handles ephemeral agents (no session).
 *
 * <h2>Guarantees (the conformance kit checks them)</h2>
 * These hold on every store that declares {@link dev.parley.core.store.Capability#PERSISTENT}, which is every store
 * but {@code null:}. Surviving a crash holds only where the store also declares
 * {@link dev.parley.core.store.Capability#DURABLE}: {@code memory:} does not, and what it holds is gone with the
 * process. {@code null:} keeps nothing: no entry reads back (no exactness), and ids and parents are not checked
 * against earlier appends (no integrity, no recognition of a retry).
 * <ul>
 *   <li><b>Order</b> is the store-assigned {@link Entry#seq()}, strictly increasing within a session, never a
 *       timestamp.</li>
 *   <li><b>Atomicity</b>: an {@link #append} writes the whole batch and its usage, or nothing. When it returns, the
 *       batch is stored; on a {@link dev.parley.core.store.Capability#DURABLE} store it survives a crash of the
 *       process (and a power loss where the backend says so).</li>
 *   <li><b>Idempotence</b>: an entry id already stored with identical content is recognised and returned as
 *       stored, without writing; so a caller that lost the answer to an append can send the same batch again.
 *       An id stored with different content is an {@link dev.parley.core.EntryConflictException} (rules in
 *       {@link AppendCheck}).</li>
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
 * {@link dev.parley.core.UnavailableException} for I/O failures (retriable; a failed append wrote nothing, unless
 * the answer was lost after the write, as with a timeout or a dropped connection), and
 * {@link dev.parley.core.CorruptRecordException}. Sending the same batch of entries again after an
 * {@link dev.parley.core.UnavailableException} is safe: what is stored already is recognised, not written twice (see
 * {@link #append} for a batch of usage only).
 */
public interface MessageLog extends AutoCloseable {

    /**
     * Appends a batch of entries for one agent, with the usage they cost, atomically (and durably, on a store that
     * declares {@link dev.parley.core.store.Capability#DURABLE}). Creates the session if it does not exist.
     *
     * <p>Entries whose id is already stored with identical content are recognised, not written again. The usage is
     * added to the agent's running total in the same atomic write, if anything of the batch is written or the batch
     * is empty (so a retried batch does not count its usage twice). A batch stored whole already adds nothing,
     * whatever usage it carries: a retry that reports other usage than the first attempt leaves the first's counted.
     *
     * @param session the session
     * @param agent the agent writing the entries
     * @param batch the entries, in order; an empty batch writes only the usage
     * @param usage what producing the batch cost; {@link Usage#ZERO} for nothing
     * @return the stored entries in batch order, and how many were written now
     * @throws dev.parley.core.EntryConflictException if an entry id is stored with different content; nothing was
     *     written
     * @throws dev.parley.core.InvalidInputException if an entry id repeats in the batch, a parent id names no earlier
     *     entry of the session, or an entry is too large for the backend; nothing was written
     * @throws dev.parley.core.UnavailableException if the backend failed; nothing was written, unless the answer was
     *     lost after the write (a timeout, a dropped connection). Sending the same batch again is safe: entries
     *     already stored are recognised, and their usage is not added twice. A batch of no entries is the exception:
     *     it carries only usage, so sending it again adds the usage again.
     */
    AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage);

    /**
     * {@link #append(SessionId, AgentId, List, Usage)}, on the condition that the agent's latest entry in the session
     * is still {@code expectedLast} — optimistic concurrency for one agent's conversation, like a record's revision:
     * two processes continuing the same conversation cannot both append after the same entry and fork it silently;
     * the second is told, re-reads, and continues after the first.
     *
     * <p>Every Parley backend overrides this method and checks the condition atomically with the write. A batch that
     * is stored whole already (a retry) is recognised as {@link #append} recognises it, whatever the agent's latest
     * entry is now. The null store, which keeps nothing, appends without checking the condition.
     *
     * <p>This default, for backends written before it, is weaker in two ways; override it. It checks
     * {@link #lastEntry} and then appends, so it narrows the race without closing it. And it takes a batch for a
     * retry only while the batch's last entry id is still the agent's latest entry: once another entry of the agent
     * follows it, a batch that is stored whole is judged by the condition like a new one, so its retry fails with
     * {@link LastEntryMovedException}.
     *
     * @param session the session
     * @param agent the agent writing the entries
     * @param expectedLast the agent's latest entry the batch continues from, or null for "the agent has no entry in
     *     the session yet"
     * @param batch the entries, in order; an empty batch writes only the usage
     * @param usage what producing the batch cost; {@link Usage#ZERO} for nothing
     * @return the stored entries in batch order, and how many were written now
     * @throws LastEntryMovedException if another entry of the agent was appended meanwhile; nothing was written
     * @throws dev.parley.core.EntryConflictException as {@link #append}
     * @throws dev.parley.core.InvalidInputException as {@link #append}
     * @throws dev.parley.core.UnavailableException as {@link #append}
     */
    default AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                      List<NewEntry> batch, Usage usage) {
        EntryId actual = lastEntry(session, agent).map(Entry::id).orElse(null);
        boolean retry = !batch.isEmpty() && batch.get(batch.size() - 1).id().equals(actual);
        if (!retry) {
            AppendCheck.requireLast(session, agent, expectedLast, actual);
        }
        return append(session, agent, batch, usage);
    }

    /**
     * {@link #append(SessionId, AgentId, List, Usage)} without usage.
     *
     * @param session the session
     * @param agent the agent writing the entries
     * @param batch the entries, in order
     * @return every entry of the batch as stored, in order, with its {@code seq} and {@code agent}
     */
    default List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch) {
        return append(session, agent, batch, Usage.ZERO).entries();
    }

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
     * @param session the session
     * @param agent the agent
     * @return the entry with the highest {@code seq} written by {@code agent}, or empty
     */
    Optional<Entry> lastEntry(SessionId session, AgentId agent);

    /**
     * The {@code seq} of the agent's most recent entry in the session: {@link #lastEntry}'s seq without reading or
     * decoding the entry, so a backend answers it from an index. A seq is never reused within a session (also after
     * a truncation, and by a session created again under its id after a deletion: the kit's ML-19), so a caller that
     * knows the seq of the last entry it saw learns from this one read whether the agent has written since, or been
     * truncated. Two cases it cannot tell: after {@link dev.parley.core.store.Store#deleteScope()}, which erases a
     * scope whole, the JSON file store's sessions start their seqs over; and on a {@code remote:} store a write that
     * fell back has the fallback store's seq until the server assigns its own at replay. The default reads {@link #lastEntry}.
     *
     * @param session the session
     * @param agent the agent
     * @return the highest {@code seq} of an entry written by {@code agent} in {@code session}; empty when there is
     *     none (also when the session does not exist)
     * @throws dev.parley.core.UnavailableException if the store cannot be read
     * @throws dev.parley.core.CorruptRecordException from the default, if the last entry cannot be decoded (a backend
     *     that answers from an index does not read it)
     */
    default OptionalLong lastSeq(SessionId session, AgentId agent) {
        Optional<Entry> last = lastEntry(session, agent);
        return last.isPresent() ? OptionalLong.of(last.get().seq()) : OptionalLong.empty();
    }

    /**
     * Removes every entry appended after {@code entry}, across all agents (Planck's {@code truncate_after}, used to
     * rewind and edit). The entry itself is kept: to remove it too, truncate after its predecessor. Destructive and
     * atomic: either every later entry is removed or none. The removed entries' seqs are not given again: a later
     * append's seq is above every seq the session ever had.
     *
     * @param session the session
     * @param entry the entry to keep as the session's last one
     * @throws dev.parley.core.NotFoundException if the session has no such entry
     */
    void truncateAfter(SessionId session, EntryId entry);

    /**
     * The agent's running usage total in the session; {@link Usage#ZERO} when nothing was recorded. Each token count
     * is summed as {@link Usage#plus} sums it: saturated at {@link Long#MAX_VALUE}, never an overflow.
     *
     * @param session the session
     * @param agent the agent
     * @return the total, never null
     */
    Usage loadUsage(SessionId session, AgentId agent);

    /**
     * One window of the session's entries, every agent interleaved in insertion order: at most {@code limit}
     * entries whose {@code seq} is greater than {@code afterSeq}, ascending. Lets a reader page through a long
     * session (the session browser, event streams) without loading it whole. The default loads the session and
     * cuts; a backend with an index on {@code seq} should answer from it.
     *
     * @param session the session
     * @param afterSeq the seq the window starts after; 0 for the start
     * @param limit the most entries returned, at least 1
     * @return the entries, copied; empty when none follows {@code afterSeq} or the session does not exist
     * @throws dev.parley.core.InvalidInputException if {@code afterSeq} is negative or {@code limit} is below 1
     */
    default List<Entry> loadAfter(SessionId session, long afterSeq, int limit) {
        LogWindows.check(afterSeq, limit);
        return LogWindows.cut(load(session, null), afterSeq, limit);
    }

    /**
     * Every agent that wrote entries in the session, in the order of its first entry, with its running usage total
     * ({@link #loadUsage}; {@link Usage#ZERO} when it recorded none). An agent that only recorded usage and wrote no
     * entry is not listed. The per-session aggregate of lists (the session browser shows it per session): the
     * default loads the session; a backend with an index on agent and seq should answer from it.
     *
     * @param session the session
     * @return the agents and their totals in that order, copied; empty when the session has no entry or does not exist
     */
    default Map<AgentId, Usage> loadAgentUsage(SessionId session) {
        Map<AgentId, Usage> out = new LinkedHashMap<>();
        for (Entry e : load(session, null)) {
            out.computeIfAbsent(e.agentId(), a -> loadUsage(session, a));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** Releases the log's resources. Idempotent. A log reached through a store is closed with the store. */
    @Override
    void close();

    // ---- Planck's named operations, derived ----

    /**
     * Adds {@code usage} to the agent's running usage total in the session (Planck's {@code persist_usage}): an
     * append of no entries. Totals never decrease, also not on truncation (they record what was spent, as in
     * Planck). To record a message and its usage atomically, pass both to {@link #append(SessionId, AgentId, List,
     * Usage)}.
     *
     * @param session the session
     * @param agent the agent whose total grows
     * @param usage the usage to add
     */
    default void persistUsage(SessionId session, AgentId agent, Usage usage) {
        append(session, agent, List.of(), usage);
    }

    /**
     * Persists one message for the agent (Planck's {@code persist_message}): appends it as a new entry whose parent
     * is the agent's latest entry in the session (a root if it has none), as {@link #persistMessages} does.
     *
     * @param session the session
     * @param agent the agent writing the message
     * @param message the message; its {@link Message#createdAt()} becomes the entry's timestamp
     * @param ids the generator of the new entry's id
     * @return the stored entry, carrying the store's {@code seq} (Planck's row id)
     */
    default Entry persistMessage(SessionId session, AgentId agent, Message message, IdGenerator ids) {
        return persistMessages(session, agent, List.of(message), ids).get(0);
    }

    /**
     * Persists messages as one atomic batch, chained: the first message's parent is the agent's latest entry, each
     * following message's parent is the message before it. Each entry's timestamp is its message's
     * {@link Message#createdAt()}, which may be null.
     *
     * <p>The agent's latest entry is read before the append, not atomically with it: two writers persisting
     * messages of the same agent at once may both chain after the same entry and fork the conversation. To continue
     * one conversation from several writers, append through {@link dev.parley.core.conversation.AgentSession}, which
     * uses {@link #appendIfLast}.
     *
     * @param session the session
     * @param agent the agent writing the messages
     * @param messages the messages, in order; an empty list writes nothing and returns an empty list
     * @param ids the generator of the new entries' ids, one per message
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
     *
     * @param session the session
     * @param agent the agent
     * @return the agent's entries that hold a message, in {@code seq} order; empty when there are none or the session
     *     does not exist
     */
    default List<Entry> loadMessages(SessionId session, AgentId agent) {
        return load(session, agent).stream().filter(e -> e.message() != null).toList();
    }

    /**
     * Writes the entries that are not stored yet (Planck's {@code flush_unpersisted}), as one atomic batch. Entries
     * already stored with identical content (Planck's persisted messages) are recognised and not written again.
     *
     * @param session the session
     * @param agent the agent writing the entries
     * @param unpersisted the entries held back so far (prompts queued while the agent was busy), in order, with
     *     their ids; may include entries that were stored meanwhile
     * @return {@link FlushResult#FLUSHED} if anything was written, {@link FlushResult#NOOP} if nothing was (an empty
     *     list, or every entry already stored)
     * @throws dev.parley.core.EntryConflictException if an id is stored with different content; nothing was written
     */
    default FlushResult flushUnpersisted(SessionId session, AgentId agent, List<NewEntry> unpersisted) {
        if (unpersisted.isEmpty()) {
            return FlushResult.NOOP;
        }
        return append(session, agent, unpersisted, Usage.ZERO).wroteAnything() ? FlushResult.FLUSHED : FlushResult.NOOP;
    }

    /**
     * Every agent's messages of the session, interleaved in insertion order (Planck's
     * {@code load_session_messages}): for a UI showing orchestrator and workers together. Works for sessions whose
     * agents are all gone. Each row is an entry carrying its {@code seq}, agent, message and timestamp.
     *
     * @param session the session
     * @return the entries that hold a message, every agent's, in {@code seq} order; empty when there are none or the
     *     session does not exist
     */
    default List<Entry> loadSessionMessages(SessionId session) {
        return load(session, null).stream().filter(e -> e.message() != null).toList();
    }
}
