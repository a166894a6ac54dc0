package dev.parley.core.conversation;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One agent's handle on one session of a message log: panto's per-session store (see the glossary). An agent owns
 * one and persists every message through it as the message enters its conversation.
 *
 * <p>The handle keeps a <em>leaf</em>: the entry the next append continues from. Opening it reads the agent's last
 * entry as the leaf. Appends chain each entry to the one before and move the leaf; {@link #moveLeaf} makes the next
 * append a sibling (a branch). Reading the conversation changes nothing: to continue where a loaded conversation
 * ends, move the leaf to its {@link LoadedConversation#continueFrom()}.
 *
 * <p>Catalog operations (listing, resolving an id prefix, the most recent session) are not here; they belong to the
 * store's {@link dev.parley.core.log.SessionCatalog}.
 *
 * <p><b>Two writers of one conversation.</b> While the leaf is the agent's latest entry (the usual case: appending
 * at the tip), each append states that entry as the one it follows ({@link MessageLog#appendIfLast}). When another
 * handle — in this process or another — appended to the same agent of the session meanwhile, nothing is written; this
 * handle re-reads the agent's latest entry, chains the batch after it, and appends again (up to
 * {@value #MAX_REBASES} times), so the conversation stays one line and no side branch appears silently. The entries
 * the other writer added are in the log, not in what this handle's caller holds in memory: reload the conversation
 * ({@link #loadConversation()}) to see them. An append from a leaf that was moved on purpose ({@link #moveLeaf}, a
 * branch) is not conditional.
 *
 * <p>Thread-safe: calls are serialized on the instance. A failed call leaves the leaf unchanged.
 */
public final class AgentSession {
    private final MessageLog log;
    private final SessionId session;
    private final AgentId agent;
    private final IdGenerator ids;
    private final Clock clock;
    /** How many times an append at the tip is re-chained after another writer's entries before it gives up. */
    public static final int MAX_REBASES = 16;

    private @Nullable EntryId leaf;
    /** The agent's latest entry in the session as this handle last saw it (null: none); meaningful if lastKnown. */
    private @Nullable EntryId last;
    /** Whether {@link #last} is known; false after a truncation, until the next append reads it. */
    private boolean lastKnown = true;

    /**
     * @param log the backend
     * @param session the session to write to (created on first append if absent)
     * @param agent the agent this view writes as
     * @param ids the generator of entry ids
     * @param clock the clock that stamps entries
     */
    public AgentSession(MessageLog log, SessionId session, AgentId agent, IdGenerator ids, Clock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.session = Objects.requireNonNull(session, "session");
        this.agent = Objects.requireNonNull(agent, "agent");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.leaf = log.lastEntry(session, agent).map(Entry::id).orElse(null);
        this.last = leaf;
    }

    /**
     * The agent this handle writes as.
     *
     * @return the agent, as given to the constructor
     */
    public AgentId agent() {
        return agent;
    }

    /**
     * The session this handle writes to.
     *
     * @return the session, as given to the constructor
     */
    public SessionId sessionId() {
        return session;
    }

    /**
     * The log this handle writes to.
     *
     * @return the log, as given to the constructor
     */
    public MessageLog log() {
        return log;
    }

    /**
     * Appends messages as one atomic, durable batch, chained from the current leaf; the leaf moves to the last one.
     *
     * @param messages the messages, in order; each entry is stamped with its message's {@link Message#createdAt()}, or
     *     the clock's time when that is null. An empty list writes nothing and returns an empty list
     * @return the stored entries; the null store's answer for {@code null:}
     * @throws dev.parley.core.log.LastEntryMovedException if other writers kept appending to this agent of the
     *     session: the batch was re-chained after their entries {@value #MAX_REBASES} times and refused each time;
     *     nothing was written and the leaf is unchanged
     * @throws dev.parley.core.InvalidInputException if an entry is invalid, for instance its parent (the leaf) is not
     *     an entry of the session; an {@link dev.parley.core.log.EntryTooLargeException} if an entry is over
     *     {@link dev.parley.core.log.EntryLimits}; nothing was written and the leaf is unchanged
     * @throws dev.parley.core.UnavailableException if the backend failed; nothing was written and the leaf is
     *     unchanged
     */
    public List<Entry> appendMessages(List<Message> messages) {
        return appendEntries(List.copyOf(messages), Usage.ZERO);
    }

    /**
     * Appends messages and the usage they cost as one atomic, durable write (a reply and its tokens are stored
     * together or not at all), chained from the current leaf; the leaf moves to the last message.
     *
     * @param messages the messages, in order, stamped as in {@link #appendMessages(List)}; when empty, only the usage
     *     is recorded (unless it is {@link Usage#ZERO}) and the leaf stays
     * @param usage added to this agent's running total in the session in the same write
     * @return the stored entries; empty when {@code messages} is empty
     * @throws dev.parley.core.log.LastEntryMovedException if other writers kept appending to this agent of the
     *     session: the batch was re-chained after their entries {@value #MAX_REBASES} times and refused each time;
     *     nothing was written and the leaf is unchanged
     * @throws dev.parley.core.InvalidInputException if an entry is invalid, for instance its parent (the leaf) is not
     *     an entry of the session; an {@link dev.parley.core.log.EntryTooLargeException} if an entry is over
     *     {@link dev.parley.core.log.EntryLimits}; nothing was written and the leaf is unchanged
     * @throws dev.parley.core.UnavailableException if the backend failed; nothing was written and the leaf is
     *     unchanged
     */
    public List<Entry> appendMessages(List<Message> messages, Usage usage) {
        return appendEntries(List.copyOf(messages), usage);
    }

    /**
     * Appends entries of any kind (a compaction, a model change…) as one atomic batch, chained from the current
     * leaf; the leaf moves to the last one.
     *
     * @param payloads the payloads, in order; a message is stamped with its {@link Message#createdAt()} when set, every
     *     other entry with the clock's time. An empty list writes nothing and returns an empty list
     * @return the stored entries
     * @throws dev.parley.core.log.LastEntryMovedException if other writers kept appending to this agent of the
     *     session: the batch was re-chained after their entries {@value #MAX_REBASES} times and refused each time;
     *     nothing was written and the leaf is unchanged
     * @throws dev.parley.core.InvalidInputException if an entry is invalid, for instance its parent (the leaf) is not
     *     an entry of the session; an {@link dev.parley.core.log.EntryTooLargeException} if an entry is over
     *     {@link dev.parley.core.log.EntryLimits}; nothing was written and the leaf is unchanged
     * @throws dev.parley.core.UnavailableException if the backend failed; nothing was written and the leaf is
     *     unchanged
     */
    public List<Entry> appendEntries(List<? extends EntryPayload> payloads) {
        return appendEntries(payloads, Usage.ZERO);
    }

    private synchronized List<Entry> appendEntries(List<? extends EntryPayload> payloads, Usage usage) {
        if (payloads.isEmpty()) {
            if (!usage.equals(Usage.ZERO)) {
                log.persistUsage(session, agent, usage);
            }
            return List.of();
        }
        List<EntryId> entryIds = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            entryIds.add(ids.newEntryId());
        }
        Instant now = clock.instant();
        EntryId start = leaf;
        if (!lastKnown || !java.util.Objects.equals(leaf, last)) {
            last = log.lastEntry(session, agent).map(Entry::id).orElse(null); // the leaf was moved: where is the tip?
            lastKnown = true;
        }
        boolean atTip = java.util.Objects.equals(leaf, last);
        for (int attempt = 0; ; attempt++) {
            List<NewEntry> batch = chain(payloads, entryIds, start, now);
            List<Entry> stored;
            if (!atTip) {
                stored = log.append(session, agent, batch, usage).entries();
            } else {
                try {
                    stored = log.appendIfLast(session, agent, start, batch, usage).entries();
                } catch (dev.parley.core.log.LastEntryMovedException moved) {
                    if (attempt >= MAX_REBASES) {
                        throw moved;
                    }
                    start = moved.actual(); // another writer continued the conversation: continue after it
                    last = start;
                    continue;
                }
            }
            leaf = stored.get(stored.size() - 1).id();
            last = leaf;
            return stored;
        }
    }

    private static List<NewEntry> chain(List<? extends EntryPayload> payloads, List<EntryId> entryIds,
                                        @Nullable EntryId start, Instant now) {
        List<NewEntry> batch = new ArrayList<>(payloads.size());
        EntryId parent = start;
        for (int i = 0; i < payloads.size(); i++) {
            EntryPayload p = payloads.get(i);
            EntryId id = entryIds.get(i);
            Instant at = p instanceof Message m && m.createdAt() != null ? m.createdAt() : now;
            batch.add(NewEntry.of(id, parent, at, p));
            parent = id;
        }
        return batch;
    }

    /**
     * Reads the conversation: the path from the root to {@code options.leaf()} as messages, plus the dangling user
     * prompt, repaired as the options say. When {@code options.leaf()} is null the path ends at the agent's active
     * leaf in the log (its most recent entry that is not a detached event), not at this handle's {@link #leaf()}:
     * the two may differ, for instance after {@link #moveLeaf}, {@link #continueFrom} or another writer's appends.
     * To read the conversation that ends at this handle's leaf, pass {@code options.withLeaf(leaf())} (a null leaf
     * reads to the active leaf again). Changes nothing, the leaf included.
     *
     * @param options the leaf to end at (or null for the agent's active leaf) and the repairs to make
     * @return the conversation; empty (no items, null leaf) when no leaf is given and the agent has no entry that is
     *     not a detached event
     * @throws NotFoundException if {@code options.leaf()} is not an entry of the session
     * @throws dev.parley.core.CorruptRecordException if a stored entry cannot be decoded
     * @throws dev.parley.core.UnavailableException if the log cannot be read
     */
    public LoadedConversation loadConversation(ConversationOptions options) {
        return ConversationBuilder.build(session, log.load(session, null), agent, options);
    }

    /**
     * {@link #loadConversation(ConversationOptions)} with {@link ConversationOptions#AS_WRITTEN}.
     *
     * @return the conversation as written, ending at the agent's active leaf
     */
    public LoadedConversation loadConversation() {
        return loadConversation(ConversationOptions.AS_WRITTEN);
    }

    /**
     * The model in force at the leaf: the last model change on its path, or the model stamped on a later message
     * that is not a tool result. Reads the session.
     *
     * @return the model, or empty when the leaf is null or no entry on its path names a model
     * @throws NotFoundException if the leaf is no longer in the session: another writer truncated it away after this
     *     handle moved to it
     * @throws dev.parley.core.CorruptRecordException if a stored entry cannot be decoded
     * @throws dev.parley.core.UnavailableException if the log cannot be read
     */
    public synchronized Optional<ModelRef> activeModel() {
        if (leaf == null) {
            return Optional.empty();
        }
        List<Entry> entries = log.load(session, null);
        return Optional.ofNullable(ConversationBuilder.activeModel(EntryTree.of(entries).path(leaf)));
    }

    /**
     * The entry the next append continues from, or null when the next append starts a new root.
     *
     * @return the leaf's id, or null
     */
    public synchronized @Nullable EntryId leaf() {
        return leaf;
    }

    /**
     * Adds usage to this agent's running total in the session (nothing is kept on {@code null:}).
     *
     * @param usage the usage to add; added even when it is {@link Usage#ZERO}
     */
    public void recordUsage(Usage usage) {
        log.persistUsage(session, agent, usage);
    }

    /**
     * Removes every entry appended after {@code entry}, across all agents of the session (rewind; destructive), and
     * moves the leaf to {@code entry}.
     *
     * @param entry the entry to keep as the last one; it becomes the leaf
     * @throws dev.parley.core.NotFoundException if the entry is not in the session
     */
    public synchronized void truncateAfter(EntryId entry) {
        log.truncateAfter(session, entry);
        leaf = entry;
        // The agent's newest entry is not known after the truncation. Not read here: once the log has truncated, a
        // failed read would report this call failed. The next append reads it (appendEntries).
        lastKnown = false;
    }

    /**
     * Makes the next append continue from {@code entry} (a sibling of its existing children: a branch), or start a
     * new root for null. The abandoned branch stays in the log.
     *
     * @param entry the entry the next append continues from, or null to start a new root
     * @throws dev.parley.core.NotFoundException if the entry is not in the session
     */
    public synchronized void moveLeaf(@Nullable EntryId entry) {
        if (entry != null && log.load(session, null).stream().noneMatch(e -> e.id().equals(entry))) {
            throw new NotFoundException("no entry " + entry + " in session " + session);
        }
        leaf = entry;
    }

    /**
     * Continues where a loaded conversation ends: moves the leaf to its {@link LoadedConversation#continueFrom()}
     * without re-reading the log (which {@link #moveLeaf} does to check the entry). The entry is not checked to
     * exist: if it is no longer in the session (it was truncated away), the next append fails with an
     * {@link dev.parley.core.InvalidInputException} on a store that keeps entries.
     *
     * @param loaded a conversation loaded from this handle's session
     * @throws dev.parley.core.InvalidInputException if {@code loaded} is a conversation of another session; the leaf
     *     is unchanged
     */
    public synchronized void continueFrom(LoadedConversation loaded) {
        if (!loaded.session().equals(session)) {
            throw new dev.parley.core.InvalidInputException("the conversation is of session " + loaded.session()
                    + ", not " + session);
        }
        leaf = loaded.continueFrom();
    }
}
