package com.example.mapstore;

import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The "database" of this adapter: concurrent maps, one set per scope. Repositories are views bound to a scope; any
 * number of them may share one storage, as any number of clients share a real database.
 *
 * <p>Parley's records are immutable, so the maps hold them as they are. A record can be marked damaged (what a
 * torn write or a bad disk does to a real store) so that the conformance kit's corruption scenarios can run.
 */
public final class MapStorage {
    /** A stored session: the record, its revision, and whether its stored form is damaged. */
    record Row(ChatSession session, long revision, boolean damaged) {}

    /** A stored manifest and whether its stored form is damaged. */
    record ManifestRow(ChatArchiveManifest manifest, boolean damaged) {}

    /** Archived content, keyed by locator. */
    record Content(List<ChatMessage> messages, String summary) {}

    final ConcurrentMap<String, ConcurrentMap<String, Row>> sessions = new ConcurrentHashMap<>();
    final ConcurrentMap<String, ConcurrentMap<String, ManifestRow>> manifests = new ConcurrentHashMap<>();
    final ConcurrentMap<String, ConcurrentMap<String, Content>> content = new ConcurrentHashMap<>();

    /** The session repository of a scope. */
    public ChatSessionRepository sessions(String scope) {
        return new MapSessionRepository(sessions.computeIfAbsent(scope, s -> new ConcurrentHashMap<>()));
    }

    /** The archive repository of a scope. */
    public ChatArchiveRepository archives(String scope) {
        return new MapArchiveRepository(manifests.computeIfAbsent(scope, s -> new ConcurrentHashMap<>()),
                content.computeIfAbsent(scope, s -> new ConcurrentHashMap<>()));
    }

    /** Removes every record of a scope. */
    public void dropScope(String scope) {
        sessions.remove(scope);
        manifests.remove(scope);
        content.remove(scope);
    }

    /** Marks a session's stored form damaged: reading it must fail from now on. */
    public void damageSession(String scope, String id) {
        sessions.get(scope).computeIfPresent(id, (k, row) -> new Row(row.session(), row.revision(), true));
    }

    /** Marks a manifest's stored form damaged. */
    public void damageManifest(String scope, String sessionId) {
        manifests.get(scope).computeIfPresent(sessionId, (k, row) -> new ManifestRow(row.manifest(), true));
    }

    static ArchiveRecord placed(ArchiveRecord draft, String sessionId) {
        String base = "map://" + sessionId + "/" + draft.id() + "/" + UUID.randomUUID();
        return draft.withLocators(base + "/messages", base + "/summary");
    }
}
