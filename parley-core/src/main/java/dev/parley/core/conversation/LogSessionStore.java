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
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The {@link SessionStore} of one agent over any {@link MessageLog}. Opening it reads the agent's last entry as
 * the leaf. Thread-safe: calls are serialized on the instance.
 */
public final class LogSessionStore implements SessionStore {
    private final MessageLog log;
    private final SessionId session;
    private final AgentId agent;
    private final IdGenerator ids;
    private final Clock clock;
    private @Nullable EntryId leaf;

    /**
     * @param log the backend
     * @param session the session to write to (created on first append if absent)
     * @param agent the agent this view writes as
     * @param ids the generator of entry ids
     * @param clock the clock that stamps entries
     */
    public LogSessionStore(MessageLog log, SessionId session, AgentId agent, IdGenerator ids, Clock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.session = Objects.requireNonNull(session, "session");
        this.agent = Objects.requireNonNull(agent, "agent");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.leaf = log.lastEntry(session, agent).map(Entry::id).orElse(null);
    }

    /** The agent this view writes as. */
    public AgentId agent() {
        return agent;
    }

    @Override
    public List<Entry> appendMessages(List<Message> messages) {
        return appendEntries(List.copyOf(messages));
    }

    @Override
    public synchronized List<Entry> appendEntries(List<? extends EntryPayload> payloads) {
        if (payloads.isEmpty()) {
            return List.of();
        }
        List<NewEntry> batch = new ArrayList<>(payloads.size());
        EntryId parent = leaf;
        for (EntryPayload p : payloads) {
            EntryId id = ids.newEntryId();
            java.time.Instant at = p instanceof Message m && m.createdAt() != null ? m.createdAt() : clock.instant();
            batch.add(NewEntry.of(id, parent, at, p));
            parent = id;
        }
        List<Entry> stored = log.append(session, agent, batch);
        leaf = stored.get(stored.size() - 1).id();
        return stored;
    }

    @Override
    public synchronized LoadedConversation loadConversation(ConversationOptions options) {
        LoadedConversation loaded = ConversationBuilder.build(session, log.load(session, null), agent, options);
        if (options.leaf() == null) {
            leaf = loaded.continueFrom();
        }
        return loaded;
    }

    @Override
    public SessionId sessionId() {
        return session;
    }

    @Override
    public synchronized Optional<ModelRef> activeModel() {
        if (leaf == null) {
            return Optional.empty();
        }
        List<Entry> entries = log.load(session, null);
        return Optional.ofNullable(ConversationBuilder.activeModel(EntryTree.of(entries).path(leaf)));
    }

    @Override
    public synchronized @Nullable EntryId leaf() {
        return leaf;
    }

    @Override
    public void recordUsage(dev.parley.core.model.Usage usage) {
        log.persistUsage(session, agent, usage);
    }

    @Override
    public synchronized void truncateAfter(EntryId entry) {
        log.truncateAfter(session, entry);
        leaf = entry;
    }

    /** The log this view writes to. */
    public MessageLog log() {
        return log;
    }

    @Override
    public synchronized void moveLeaf(@Nullable EntryId entry) {
        if (entry != null && log.load(session, null).stream().noneMatch(e -> e.id().equals(entry))) {
            throw new NotFoundException("no entry " + entry + " in session " + session);
        }
        leaf = entry;
    }
}
