package dev.parley.tck;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.MemoryMessageLog;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** The memory store passes the message-log kit. It has no stored form, so it cannot be corrupted. */
class MemoryMessageLogConformanceTest extends MessageLogConformance {

    @Override
    protected MessageLogHarness harness() {
        return new MemoryHarness();
    }

    @Override
    protected boolean allowMissingCapabilities() {
        return true;
    }

    /** One memory store per scope; "reopening" hands out another view of the same store. */
    static final class MemoryHarness implements MessageLogHarness {
        private final Map<String, MemoryMessageLog> scopes = new ConcurrentHashMap<>();

        @Override
        public MessageLog open(String scope) {
            return new Unclosable(scopes.computeIfAbsent(scope, s -> new MemoryMessageLog()));
        }

        @Override
        public void cleanupScope(String scope) {
            scopes.remove(scope);
        }
    }

    /** A view whose close does not discard the store behind it. */
    record Unclosable(MemoryMessageLog log) implements MessageLog {
        @Override
        public List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch) {
            return log.append(session, agent, batch);
        }

        @Override
        public List<Entry> load(SessionId session, @Nullable AgentId agent) {
            return log.load(session, agent);
        }

        @Override
        public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
            return log.lastEntry(session, agent);
        }

        @Override
        public void truncateAfter(SessionId session, EntryId entry) {
            log.truncateAfter(session, entry);
        }

        @Override
        public void persistUsage(SessionId session, AgentId agent, Usage usage) {
            log.persistUsage(session, agent, usage);
        }

        @Override
        public Usage loadUsage(SessionId session, AgentId agent) {
            return log.loadUsage(session, agent);
        }

        @Override
        public Optional<SessionCatalog> catalog() {
            return log.catalog();
        }

        @Override
        public void close() {
            // the store lives as long as its scope
        }
    }
}
