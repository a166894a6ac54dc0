package dev.parley.core.store;

import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StoredSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The session records and archives of one scope of a {@link MemoryStore}. Records are immutable values, so a read
 * never aliases a caller's object. Thread-safe: every operation is serialized on the instance.
 */
final class MemoryRepositories implements ChatSessionRepository, ChatArchiveRepository {
    private final Map<String, StoredSession> sessions = new HashMap<>();
    private final Map<String, ChatArchiveManifest> manifests = new HashMap<>();
    private final Map<String, String> summaries = new HashMap<>();
    private final Map<String, List<ChatMessage>> archivedMessages = new HashMap<>();

    // ---- session records ----

    @Override
    public synchronized CatalogPage list(CatalogQuery query) {
        List<CatalogEntry> all = new ArrayList<>(sessions.size());
        sessions.values().forEach(s -> all.add(CatalogEntry.of(s.session(), s.revision())));
        return CatalogOrder.page(all, query);
    }

    @Override
    public synchronized Optional<StoredSession> read(String sessionId) {
        ChatSession.requireId(sessionId, "session id");
        return Optional.ofNullable(sessions.get(sessionId));
    }

    @Override
    public synchronized StoredSession create(ChatSession session) {
        if (sessions.containsKey(session.id())) {
            throw new SessionAlreadyExistsException(session.id());
        }
        StoredSession stored = new StoredSession(session, 1);
        sessions.put(session.id(), stored);
        return stored;
    }

    @Override
    public synchronized Optional<StoredSession> update(ChatSession session, long expectedRevision) {
        StoredSession current = sessions.get(session.id());
        if (current == null) {
            return Optional.empty();
        }
        if (current.revision() != expectedRevision) {
            throw new RevisionConflictException(session.id(), expectedRevision, current.revision());
        }
        StoredSession next = new StoredSession(session, expectedRevision + 1);
        sessions.put(session.id(), next);
        return Optional.of(next);
    }

    @Override
    public synchronized boolean delete(String sessionId, long expectedRevision) {
        ChatSession.requireId(sessionId, "session id");
        StoredSession current = sessions.get(sessionId);
        if (current == null) {
            return false;
        }
        if (current.revision() != expectedRevision) {
            throw new RevisionConflictException(sessionId, expectedRevision, current.revision());
        }
        sessions.remove(sessionId);
        return true;
    }

    // ---- archives ----

    @Override
    public synchronized ChatArchiveManifest loadManifest(String sessionId) {
        ChatSession.requireId(sessionId, "session id");
        return manifests.getOrDefault(sessionId, ChatArchiveManifest.empty(sessionId));
    }

    @Override
    public synchronized Optional<String> readSummary(String summaryLocator) {
        return Optional.ofNullable(summaries.get(summaryLocator));
    }

    @Override
    public synchronized Optional<List<ChatMessage>> readMessages(String messagesLocator) {
        return Optional.ofNullable(archivedMessages.get(messagesLocator));
    }

    @Override
    public synchronized ArchiveAppend.Result append(ArchiveAppend request) {
        ChatArchiveManifest current = loadManifest(request.sessionId());
        String base = "memory://" + request.sessionId() + "/" + request.archive().id();
        ArchiveRecord archive = request.archive().withLocators(base + "/messages", base + "/summary");
        ChatArchiveManifest next = current.withArchive(archive); // a duplicate id fails here: nothing written
        archivedMessages.put(archive.path(), List.copyOf(request.messages()));
        summaries.put(archive.summaryPath(), request.summary());
        manifests.put(request.sessionId(), next);
        return new ArchiveAppend.Result(archive, next);
    }

    /** Removes every record and archive. */
    synchronized void clear() {
        sessions.clear();
        manifests.clear();
        summaries.clear();
        archivedMessages.clear();
    }
}
