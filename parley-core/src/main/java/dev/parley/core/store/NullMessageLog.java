package dev.parley.core.store;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The log for embedders who opt out: appends are validated, answered with the entries they would have stored,
 * and forgotten; every load is empty; there is no catalog. Thread-safe.
 */
public final class NullMessageLog implements MessageLog {
    private long nextSeq = 1;

    @Override
    public synchronized List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch) {
        List<EntryId> ids = batch.stream().map(NewEntry::id).toList();
        AppendCheck.check(session, agent, batch, id -> false);
        List<Entry> out = new ArrayList<>(batch.size());
        for (NewEntry e : batch) {
            out.add(new Entry(nextSeq++, e.id(), ids.contains(e.parentId()) ? e.parentId() : null, agent,
                    e.timestamp(), e.payload(), e.source()));
        }
        return out;
    }

    @Override
    public List<Entry> load(SessionId session, @Nullable AgentId agent) {
        return List.of();
    }

    @Override
    public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        return Optional.empty();
    }

    /** Does nothing: there is nothing stored to remove. */
    @Override
    public void truncateAfter(SessionId session, EntryId entry) {
        // nothing stored
    }

    @Override
    public void persistUsage(SessionId session, AgentId agent, Usage usage) {
        // nothing stored
    }

    @Override
    public Usage loadUsage(SessionId session, AgentId agent) {
        return Usage.ZERO;
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.empty();
    }

    @Override
    public void close() {
        // nothing to release
    }

    /** Serves {@code null:}. */
    static final class Provider implements StoreProvider {
        @Override
        public String scheme() {
            return "null";
        }

        @Override
        public MessageLog open(String location, StoreOptions options) {
            if (!location.isEmpty()) {
                throw new InvalidInputException("null: takes no location, got 'null:" + location + "'");
            }
            return new NullMessageLog();
        }
    }
}
