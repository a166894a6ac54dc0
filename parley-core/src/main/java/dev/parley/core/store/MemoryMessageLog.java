package dev.parley.core.store;

import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.Repositories;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import org.jspecify.annotations.Nullable;

/**
 * A message log held in memory: the same contract as every durable backend, for tests and ephemeral use. Nothing
 * survives the instance. Thread-safe: every operation is serialized on the instance.
 */
public final class MemoryMessageLog implements MessageLog, SessionCatalog {
    private final StoreOptions options;
    private final Map<SessionId, SessionData> sessions = new HashMap<>();
    private long nextSeq = 1;

    private static final class SessionData {
        SessionInfo info;
        final List<Entry> entries = new ArrayList<>();
        final Set<EntryId> ids = new HashSet<>();
        final Map<AgentId, Usage> usage = new LinkedHashMap<>();

        SessionData(SessionInfo info) {
            this.info = info;
        }
    }

    private final @Nullable Repositories repositories;

    /** A memory store without session repositories. */
    public MemoryMessageLog(StoreOptions options) {
        this(options, null);
    }

    /**
     * A memory store that also offers {@code repositories} through {@link #repositories()} (the engine's in-memory
     * repositories, which {@code memory:} opens when {@code parley-engine} is on the class path).
     *
     * @param repositories the repositories, or null for none
     */
    public MemoryMessageLog(StoreOptions options, @Nullable Repositories repositories) {
        this.options = Objects.requireNonNull(options, "options");
        this.repositories = repositories;
    }

    /** A memory store with {@link StoreOptions#defaults()}. */
    public MemoryMessageLog() {
        this(StoreOptions.defaults());
    }

    @Override
    public synchronized List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch) {
        SessionData data = sessions.get(session);
        Set<EntryId> existing = data == null ? Set.of() : data.ids;
        AppendCheck.check(session, agent, batch, existing::contains);
        if (batch.isEmpty()) {
            return List.of();
        }
        if (data == null) {
            data = new SessionData(newInfo(NewSession.of(session)));
            sessions.put(session, data);
        }
        List<Entry> stored = new ArrayList<>(batch.size());
        long messages = 0;
        for (NewEntry e : batch) {
            Entry entry = new Entry(nextSeq++, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source());
            stored.add(entry);
            data.entries.add(entry);
            data.ids.add(entry.id());
            if (entry.payload() instanceof Message) {
                messages++;
            }
        }
        SessionInfo i = data.info;
        data.info = new SessionInfo(i.id(), i.createdAt(), now(), i.title(), i.origin(), i.entryCount() + batch.size(),
                i.messageCount() + messages, i.metadata());
        return stored;
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
        removed.forEach(e -> data.ids.remove(e.id()));
        long removedMessages = removed.stream().filter(e -> e.payload() instanceof Message).count();
        SessionInfo i = data.info;
        data.info = new SessionInfo(i.id(), i.createdAt(), now(), i.title(), i.origin(),
                i.entryCount() - removed.size(), i.messageCount() - removedMessages, i.metadata());
    }

    @Override
    public synchronized void persistUsage(SessionId session, AgentId agent, Usage usage) {
        SessionData data = sessions.computeIfAbsent(session, s -> new SessionData(newInfo(NewSession.of(s))));
        data.usage.merge(agent, usage, Usage::plus);
    }

    @Override
    public synchronized Usage loadUsage(SessionId session, AgentId agent) {
        SessionData data = sessions.get(session);
        return data == null ? Usage.ZERO : data.usage.getOrDefault(agent, Usage.ZERO);
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.of(this);
    }

    @Override
    public Optional<Repositories> repositories() {
        return Optional.ofNullable(repositories);
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
        return new SessionInfo(s.id(), now, now, s.title(), s.origin(), 0, 0, s.metadata());
    }

    private Instant now() {
        return options.clock().instant();
    }

    /**
     * Serves {@code memory:}: each open is a new, empty store. The core registers it without repositories; a module
     * that has them (parley-engine) registers a subclass that supplies them, which takes precedence.
     */
    public static class Provider implements StoreProvider {
        private final java.util.function.Supplier<@Nullable Repositories> repositories;

        /** A provider of stores without repositories. */
        public Provider() {
            this(() -> null);
        }

        /** A provider of stores whose repositories each open gets a new one of from {@code repositories}. */
        protected Provider(java.util.function.Supplier<@Nullable Repositories> repositories) {
            this.repositories = Objects.requireNonNull(repositories, "repositories");
        }

        @Override
        public final String scheme() {
            return "memory";
        }

        @Override
        public final MessageLog open(String location, StoreOptions options) {
            if (!location.isEmpty()) {
                throw new InvalidInputException("memory: takes no location, got 'memory:" + location + "'");
            }
            return new MemoryMessageLog(options, repositories.get());
        }
    }
}
