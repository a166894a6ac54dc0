package dev.parley.core.store;

import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.LogWindows;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The message log and catalog of one scope of a {@link MemoryStore}: the same contract as every durable backend,
 * for tests and ephemeral use. Nothing survives the instance. Thread-safe: every operation is serialized on the
 * instance.
 */
final class MemoryMessageLog implements MessageLog, SessionCatalog {
    private final StoreOptions options;
    private final Map<SessionId, SessionData> sessions = new HashMap<>();
    private long nextSeq = 1;

    private static final class SessionData {
        SessionInfo info;
        final List<Entry> entries = new ArrayList<>();
        final Map<EntryId, Entry> byId = new HashMap<>();
        final Map<AgentId, Usage> usage = new LinkedHashMap<>();

        SessionData(SessionInfo info) {
            this.info = info;
        }
    }

    /** An empty memory log with the given clock and ids. */
    MemoryMessageLog(StoreOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }


    @Override
    public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage, false, null);
    }

    @Override
    public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                     List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage, true, expectedLast);
    }

    private synchronized AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage,
                                             boolean conditional, @Nullable EntryId expectedLast) {
        Objects.requireNonNull(usage, "usage");
        SessionData data = sessions.get(session);
        Map<EntryId, Entry> stored = new HashMap<>();
        if (data != null) {
            for (EntryId id : AppendCheck.idsToLookUp(batch)) {
                Entry e = data.byId.get(id);
                if (e != null) {
                    stored.put(id, e);
                }
            }
        }
        AppendCheck.Plan plan = AppendCheck.plan(session, agent, batch, stored);
        if (plan.nothingToWrite() && !batch.isEmpty()) {
            return plan.result(List.of());
        }
        if (conditional) {
            AppendCheck.requireLast(session, agent, expectedLast, lastEntry(session, agent).map(Entry::id).orElse(null));
        }
        if (data == null) {
            data = new SessionData(newInfo(NewSession.of(session)));
            sessions.put(session, data);
        }
        List<Entry> written = new ArrayList<>(plan.toWrite().size());
        long messages = 0;
        for (NewEntry e : plan.toWrite()) {
            Entry entry = new Entry(nextSeq++, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source());
            written.add(entry);
            data.entries.add(entry);
            data.byId.put(entry.id(), entry);
            if (entry.payload() instanceof Message) {
                messages++;
            }
        }
        if (!usage.equals(Usage.ZERO)) {
            data.usage.merge(agent, usage, Usage::plus);
        }
        SessionInfo i = data.info;
        data.info = new SessionInfo(i.id(), i.createdAt(), now(), i.title(), i.origin(),
                i.entryCount() + written.size(), i.messageCount() + messages, i.metadata());
        return plan.result(written);
    }

    @Override
    public synchronized List<Entry> load(SessionId session, @Nullable AgentId agent) {
        SessionData data = sessions.get(session);
        if (data == null) {
            return List.of();
        }
        return agent == null ? List.copyOf(data.entries)
                : data.entries.stream().filter(e -> e.agentId().equals(agent)).toList();
    }

    /** {@inheritDoc} <p>Copies only the window, found by a binary search on seq. */
    @Override
    public synchronized List<Entry> loadAfter(SessionId session, long afterSeq, int limit) {
        SessionData data = sessions.get(session);
        return LogWindows.cut(data == null ? List.of() : data.entries, afterSeq, limit);
    }

    @Override
    public synchronized Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        SessionData data = sessions.get(session);
        if (data == null) {
            return Optional.empty();
        }
        for (int i = data.entries.size() - 1; i >= 0; i--) {
            if (data.entries.get(i).agentId().equals(agent)) {
                return Optional.of(data.entries.get(i));
            }
        }
        return Optional.empty();
    }

    @Override
    public synchronized void truncateAfter(SessionId session, EntryId entry) {
        SessionData data = sessions.get(session);
        int at = -1;
        if (data != null) {
            for (int i = 0; i < data.entries.size(); i++) {
                if (data.entries.get(i).id().equals(entry)) {
                    at = i;
                    break;
                }
            }
        }
        if (at < 0) {
            throw new NotFoundException("no entry " + entry + " in session " + session);
        }
        List<Entry> removed = new ArrayList<>(data.entries.subList(at + 1, data.entries.size()));
        data.entries.subList(at + 1, data.entries.size()).clear();
        removed.forEach(e -> data.byId.remove(e.id()));
        long removedMessages = removed.stream().filter(e -> e.payload() instanceof Message).count();
        SessionInfo i = data.info;
        data.info = new SessionInfo(i.id(), i.createdAt(), now(), i.title(), i.origin(),
                i.entryCount() - removed.size(), i.messageCount() - removedMessages, i.metadata());
    }

    @Override
    public synchronized Usage loadUsage(SessionId session, AgentId agent) {
        SessionData data = sessions.get(session);
        return data == null ? Usage.ZERO : data.usage.getOrDefault(agent, Usage.ZERO);
    }

    @Override
    public void close() {
        // nothing to release
    }

    // ---- catalog ----

    @Override
    public synchronized SessionInfo create(NewSession session) {
        if (sessions.containsKey(session.id())) {
            throw new AlreadyExistsException("session " + session.id() + " already exists");
        }
        SessionInfo info = newInfo(session);
        sessions.put(session.id(), new SessionData(info));
        return info;
    }

    @Override
    public synchronized Optional<SessionInfo> find(SessionId session) {
        SessionData data = sessions.get(session);
        return data == null ? Optional.empty() : Optional.of(data.info);
    }

    @Override
    public synchronized SessionPage list(@Nullable String cursor, int limit) {
        List<SessionInfo> all = new ArrayList<>();
        sessions.values().forEach(d -> all.add(d.info));
        all.sort(CatalogCursor.ORDER);
        return CatalogCursor.page(all, cursor, limit);
    }

    @Override
    public synchronized List<SessionInfo> findByOrigin(String origin) {
        return sessions.values().stream().map(d -> d.info).filter(i -> origin.equals(i.origin()))
                .sorted(java.util.Comparator.comparing(SessionInfo::createdAt).thenComparing(SessionInfo::id))
                .toList();
    }

    @Override
    public synchronized List<SessionId> findByPrefix(String prefix, int max) {
        if (max < 1) {
            throw new InvalidInputException("max must be positive");
        }
        return sessions.keySet().stream().filter(id -> id.value().startsWith(prefix)).sorted().limit(max).toList();
    }

    @Override
    public synchronized boolean delete(SessionId session) {
        return sessions.remove(session) != null;
    }

    private SessionInfo newInfo(NewSession s) {
        Instant now = now();
        return new SessionInfo(s.id(), s.createdAtOr(now), s.updatedAtOr(now), s.title(), s.origin(), 0, 0,
                s.metadata());
    }

    private Instant now() {
        return options.clock().instant();
    }

    /** Removes every session of this log (its scope's part of {@link Store#deleteScope()}). */
    synchronized void clear() {
        sessions.clear();
    }
}
