package dev.parley.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.Json;
import dev.parley.json.repository.CatalogCursorCodec;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Session and archive repositories held in memory, for tests and ephemeral use: the same contract as every durable
 * backend (records are kept as their JSON, so a read never aliases a caller's object and a damaged record fails the
 * read). One instance is one "database" holding any number of scopes; {@link #sessions} and {@link #archives} give
 * repositories bound to one scope. Thread-safe: each scope's operations are serialized.
 */
public final class MemoryRepositories implements dev.parley.core.repository.Repositories {
    private final Map<String, Scope> scopes = new ConcurrentHashMap<>();

    private static final class Scope {
        final Map<String, Row> sessions = new HashMap<>();
        final Map<String, String> manifests = new HashMap<>();
        final Map<String, String> content = new HashMap<>();
    }

    private record Row(long revision, String json) {}

    private Scope scope(String scope) {
        return scopes.computeIfAbsent(dev.parley.core.repository.Repositories.requireScope(scope), s -> new Scope());
    }

    /** The session repository of a scope. */
    @Override
    public ChatSessionRepository sessions(String scope) {
        return new Sessions(scope, scope(scope));
    }

    /** The archive repository of a scope. */
    @Override
    public ChatArchiveRepository archives(String scope) {
        return new Archives(scope, scope(scope));
    }

    /** Removes everything stored in a scope. */
    @Override
    public void dropScope(String scope) {
        scopes.remove(dev.parley.core.repository.Repositories.requireScope(scope));
    }

    /** Damages a stored session record (for the conformance kit's corruption scenario). */
    public void corruptSession(String scope, String sessionId) {
        Scope s = scope(scope);
        synchronized (s) {
            Row row = s.sessions.get(sessionId);
            if (row == null) {
                throw new IllegalStateException("no session " + sessionId + " to corrupt");
            }
            s.sessions.put(sessionId, new Row(row.revision(), "{\"id\":"));
        }
    }

    /** Damages a stored manifest (for the conformance kit's corruption scenario). */
    public void corruptManifest(String scope, String sessionId) {
        Scope s = scope(scope);
        synchronized (s) {
            s.manifests.put(sessionId, "{\"version\":1,\"sessionId\":");
        }
    }

    private static final class Sessions implements ChatSessionRepository {
        private final String name;
        private final Scope scope;

        Sessions(String name, Scope scope) {
            this.name = name;
            this.scope = scope;
        }

        @Override
        public CatalogPage list(CatalogQuery query) {
            List<CatalogEntry> all = new ArrayList<>();
            synchronized (scope) {
                for (Map.Entry<String, Row> e : scope.sessions.entrySet()) {
                    all.add(CatalogEntry.of(decode(e.getKey(), e.getValue()), e.getValue().revision()));
                }
            }
            return CatalogCursorCodec.page(all, query);
        }

        @Override
        public Optional<StoredSession> read(String sessionId) {
            ChatSession.requireId(sessionId, "session id");
            synchronized (scope) {
                Row row = scope.sessions.get(sessionId);
                return row == null ? Optional.empty() : Optional.of(new StoredSession(decode(sessionId, row), row.revision()));
            }
        }

        @Override
        public StoredSession create(ChatSession session) {
            synchronized (scope) {
                if (scope.sessions.containsKey(session.id())) {
                    throw new SessionAlreadyExistsException(session.id());
                }
                scope.sessions.put(session.id(), new Row(1, Json.write(ChatSessionCodec.encode(session))));
                return new StoredSession(session, 1);
            }
        }

        @Override
        public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
            synchronized (scope) {
                Row row = scope.sessions.get(session.id());
                if (row == null) {
                    return Optional.empty();
                }
                if (row.revision() != expectedRevision) {
                    throw new RevisionConflictException(session.id(), expectedRevision, row.revision());
                }
                long next = expectedRevision + 1;
                scope.sessions.put(session.id(), new Row(next, Json.write(ChatSessionCodec.encode(session))));
                return Optional.of(new StoredSession(session, next));
            }
        }

        @Override
        public boolean delete(String sessionId, long expectedRevision) {
            ChatSession.requireId(sessionId, "session id");
            synchronized (scope) {
                Row row = scope.sessions.get(sessionId);
                if (row == null) {
                    return false;
                }
                if (row.revision() != expectedRevision) {
                    throw new RevisionConflictException(sessionId, expectedRevision, row.revision());
                }
                scope.sessions.remove(sessionId);
                return true;
            }
        }

        private ChatSession decode(String id, Row row) {
            String where = "memory scope " + name + " session " + id;
            try {
                return ChatSessionCodec.parseStrict(Json.parse(row.json()), where);
            } catch (JsonProcessingException e) {
                throw new StorageCorruptionException(where, "not valid JSON: " + Json.problem(e), e, false);
            }
        }
    }

    private static final class Archives implements ChatArchiveRepository, ArchivedMessageReader {
        private final String name;
        private final Scope scope;

        Archives(String name, Scope scope) {
            this.name = name;
            this.scope = scope;
        }

        @Override
        public ChatArchiveManifest loadManifest(String sessionId) {
            ChatSession.requireId(sessionId, "session id");
            synchronized (scope) {
                return manifest(sessionId);
            }
        }

        private ChatArchiveManifest manifest(String sessionId) {
            String text = scope.manifests.get(sessionId);
            return text == null ? ChatArchiveManifest.empty(sessionId)
                    : ChatArchiveCodec.parseManifest(text, sessionId, "memory scope " + name + " manifest " + sessionId);
        }

        @Override
        public Optional<String> readSummary(String summaryLocator) {
            synchronized (scope) {
                return Optional.ofNullable(scope.content.get(summaryLocator));
            }
        }

        @Override
        public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
            String text;
            synchronized (scope) {
                text = scope.content.get(messagesLocator);
            }
            if (text == null || !messagesLocator.endsWith("/messages")) {
                return Optional.empty();
            }
            return Optional.of(decodeArchivedMessages(text, "memory scope " + name + " archive " + messagesLocator));
        }

        @Override
        public ArchiveAppend.Result append(ArchiveAppend request) {
            synchronized (scope) {
                ChatArchiveManifest current = manifest(request.sessionId());
                String base = "memory://" + request.sessionId() + "/" + request.archive().id();
                ArchiveRecord archive = request.archive().withLocators(base + "/messages", base + "/summary");
                ChatArchiveManifest next = current.withArchive(archive);
                // content first, then the manifest
                scope.content.put(archive.path(), ChatSessionCodec.archivedMessagesJsonl(request.messages()));
                scope.content.put(archive.summaryPath(), request.summary());
                scope.manifests.put(request.sessionId(), Json.write(ChatArchiveCodec.encodeManifest(next)));
                return new ArchiveAppend.Result(archive, next);
            }
        }
    }

    /**
     * Decodes what {@link ChatSessionCodec#archivedMessagesJsonl} wrote: one {@code {"index": i, …message}} object per
     * line, indexes 0, 1, 2… in order.
     *
     * @throws StorageCorruptionException naming {@code where} if a line is not the next archived message
     */
    static List<ChatMessage> decodeArchivedMessages(String jsonl, String where) {
        ArrayNode history = Json.mapper().createArrayNode();
        int index = 0;
        for (String line : jsonl.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode node;
            try {
                node = Json.parse(line);
            } catch (JsonProcessingException e) {
                throw new StorageCorruptionException(where, "line " + (index + 1) + " is not valid JSON: " + Json.problem(e),
                        e, true);
            }
            if (!(node instanceof ObjectNode o) || !o.path("index").isIntegralNumber() || o.get("index").asLong() != index) {
                throw new StorageCorruptionException(where, "line " + (index + 1) + " is not archived message " + index,
                        null, true);
            }
            ObjectNode message = o.deepCopy();
            message.remove("index");
            history.add(message);
            index++;
        }
        // The codec decodes transcript messages as part of a record only (no message decoder of its own is public):
        // decode them as the history of a minimal record, with the same strict rules.
        ObjectNode record = ChatSessionCodec.encode(ChatSession.builder("archive", ChatSession.MIN_INSTANT).build());
        record.set("history", history);
        return ChatSessionCodec.parseStrict(record, where).history();
    }
}
