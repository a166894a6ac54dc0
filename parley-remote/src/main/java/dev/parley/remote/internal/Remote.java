package dev.parley.remote.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.NotFoundException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.EntryLimits;
import dev.parley.core.log.LogWindows;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import dev.parley.json.wire.Wire;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The contracts of one scope of a remote store, over its {@link Node}: the message log and catalog (which fall
 * back), the session records and archives (which do not). Thread-safe.
 */
public final class Remote {
    private final Node node;
    private final @Nullable String scope;
    /**
     * Whether the server answered that it does not route {@code …/last-seq} (a server of an earlier Parley): from then
     * on this store asks for the last entry instead, without a request that is known to fail first.
     */
    private volatile boolean noLastSeqRoute;

    /** @param scope the scope to name on every call, or null for the token's (or the server's default) */
    public Remote(Node node, @Nullable String scope) {
        this.node = node;
        this.scope = scope;
    }

    private static String log(SessionId session) {
        return "/v1/log/sessions/" + session.value();
    }

    private static String agent(SessionId session, AgentId agent) {
        return log(session) + "/agents/" + agent.value();
    }

    private static Map<String, String> query(String... pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                out.put(pairs[i], pairs[i + 1]);
            }
        }
        return out;
    }

    /** The {@code deleted} of a deletion's answer. */
    private static boolean deleted(JsonNode answer) {
        return Wire.field(answer, "deleted", JsonNodeType.BOOLEAN, "deletion").asBoolean();
    }

    /** A read whose 404 NOT_FOUND means "none". */
    private <T> Optional<T> optional(Supplier<T> call) {
        try {
            return Optional.of(call.get());
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }

    private <T> T read(String label, Request request, Function<JsonNode, T> decode, Function<Store, T> fallback) {
        return node.read(scope, label, request, decode, fallback);
    }

    private <T> T write(String label, Request request, Function<JsonNode, T> decode, Function<Store, T> fallback) {
        return node.write(scope, label, request, decode, fallback);
    }

    private <T> T strict(Request request, Function<JsonNode, T> decode) {
        return node.strict(scope, request, decode);
    }

    /**
     * A conditional append carried out by the fallback store, which holds only part of a session: what fell back, and
     * what it held before. Where it holds the expected entry, its latest entry decides, atomically, as the server's
     * would: another writer continued after it during the outage, and the append is refused
     * ({@link dev.parley.core.log.LastEntryMovedException}, nothing journaled). Where it does not (the expected entry is
     * on the server alone, or none is expected), the batch is appended plainly — a message is never refused for want of
     * a check the server cannot make — and the fallback's parent check decides.
     */
    private static AppendResult appendIfLastInFallback(MessageLog log, SessionId session, AgentId agent,
                                                       @Nullable EntryId expectedLast, List<NewEntry> batch,
                                                       Usage usage) {
        EntryId actual = log.lastEntry(session, agent).map(Entry::id).orElse(null);
        boolean holdsExpected = expectedLast != null && (expectedLast.equals(actual)
                || actual != null && log.load(session, agent).stream().anyMatch(e -> e.id().equals(expectedLast)));
        return holdsExpected ? log.appendIfLast(session, agent, expectedLast, batch, usage)
                : log.append(session, agent, batch, usage);
    }

    /** The message log of this scope. */
    public MessageLog log() {
        return new MessageLog() {
            @Override
            public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
                EntryLimits.check(session, batch); // refused here, not sent (the server refuses it too, with 413)
                Request r = new Request("POST", agent(session, agent) + "/entries", Map.of(),
                        Wire.encodeBatch(agent, batch, usage));
                return write("append", r, Wire::decodeAppendResult, f -> f.log().append(session, agent, batch, usage));
            }

            /**
             * The condition is checked by the server, atomically with the append. When the server cannot be reached,
             * the fallback store checks it where it can ({@link #appendIfLastInFallback}); the replay to the server is a
             * plain, idempotent append of what the fallback stored.
             */
            @Override
            public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                             List<NewEntry> batch, Usage usage) {
                EntryLimits.check(session, batch);
                Request r = new Request("POST", agent(session, agent) + "/entries", Map.of(),
                        Wire.encodeBatch(agent, batch, usage, true, expectedLast));
                Request plain = new Request("POST", agent(session, agent) + "/entries", Map.of(),
                        Wire.encodeBatch(agent, batch, usage));
                return node.write(scope, "append", r, plain, Wire::decodeAppendResult,
                        f -> appendIfLastInFallback(f.log(), session, agent, expectedLast, batch, usage));
            }

            @Override
            public List<Entry> load(SessionId session, @Nullable AgentId agent) {
                Request r = new Request("GET", log(session) + "/entries",
                        query("agent", agent == null ? null : agent.value()), null);
                return read("load", r, Wire::decodeEntries, f -> f.log().load(session, agent));
            }

            @Override
            public List<Entry> loadAfter(SessionId session, long afterSeq, int limit) {
                LogWindows.check(afterSeq, limit);
                Request r = new Request("GET", log(session) + "/entries",
                        query("after", Long.toString(afterSeq), "limit", Integer.toString(limit)), null);
                List<Entry> window = read("loadAfter", r, Wire::decodeEntries,
                        f -> f.log().loadAfter(session, afterSeq, limit));
                // A server of an earlier Parley ignores the window and answers the whole session: cut it here, so
                // that a reader paging to the end still gets to an empty window.
                return LogWindows.cut(window, afterSeq, limit);
            }

            @Override
            public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
                return optional(() -> read("lastEntry", Request.get(agent(session, agent) + "/last"),
                        Wire::decodeEntry, f -> f.log().lastEntry(session, agent).orElseThrow(() ->
                                new NotFoundException("no entry"))));
            }

            /**
             * Asks for the seq alone ({@code GET …/last-seq}), so that a check for news does not download the entry. A
             * server of an earlier Parley, which has no such route (404), is asked for the entry instead, and this
             * store remembers it: it asks for the entry at once from then on (restarting the client after the server
             * was upgraded brings the cheaper request back).
             */
            @Override
            public OptionalLong lastSeq(SessionId session, AgentId agent) {
                if (!noLastSeqRoute) {
                    try {
                        return read("lastSeq", Request.get(agent(session, agent) + "/last-seq"), Wire::decodeLastSeq,
                                f -> f.log().lastSeq(session, agent));
                    } catch (NoSuchRoute earlierServer) {
                        noLastSeqRoute = true;
                    }
                }
                return lastEntry(session, agent).map(last -> OptionalLong.of(last.seq())).orElse(OptionalLong.empty());
            }

            @Override
            public void truncateAfter(SessionId session, EntryId entry) {
                ObjectNode body = Json.object();
                body.put("after", entry.value());
                write("truncateAfter", new Request("POST", log(session) + "/truncate", Map.of(), body), a -> null,
                        f -> {
                            f.log().truncateAfter(session, entry);
                            return null;
                        });
            }

            @Override
            public Usage loadUsage(SessionId session, AgentId agent) {
                return read("loadUsage", Request.get(agent(session, agent) + "/usage"), Wire::decodeUsage,
                        f -> f.log().loadUsage(session, agent));
            }

            @Override
            public void close() {
                // closed with the store
            }
        };
    }

    /** The catalog of this scope. */
    public SessionCatalog catalog() {
        return new SessionCatalog() {
            /**
             * Sent as it is; when it falls back, it is created, journaled and later replayed with the time of this
             * call as its creation time (unless it names one), so that the server keeps the time the fallback store
             * has, not the time of the replay. (A server of Parley before creation times refuses such a replay.)
             */
            @Override
            public SessionInfo create(NewSession session) {
                NewSession timed = session.createdAt() != null ? session : new NewSession(session.id(),
                        session.title(), session.origin(), session.metadata(), node.clock().instant());
                return node.write(scope, "createSession", new Request("POST", "/v1/log/sessions", Map.of(),
                        Wire.encodeNewSession(session)), new Request("POST", "/v1/log/sessions", Map.of(),
                        Wire.encodeNewSession(timed)), Wire::decodeSessionInfo,
                        f -> f.catalog().orElseThrow().create(timed));
            }

            @Override
            public Optional<SessionInfo> find(SessionId session) {
                return optional(() -> read("find", Request.get(log(session)), Wire::decodeSessionInfo,
                        f -> f.catalog().orElseThrow().find(session).orElseThrow(() ->
                                new NotFoundException("no session"))));
            }

            @Override
            public SessionPage list(@Nullable String cursor, int limit) {
                return read("list", new Request("GET", "/v1/log/sessions", query("cursor", cursor, "limit",
                        Integer.toString(limit)), null), Wire::decodeSessionPage,
                        f -> f.catalog().orElseThrow().list(cursor, limit));
            }

            @Override
            public Optional<SessionInfo> findMostRecent() {
                return optional(() -> read("findMostRecent", Request.get("/v1/log/most-recent"),
                        Wire::decodeSessionInfo, f -> f.catalog().orElseThrow().findMostRecent().orElseThrow(() ->
                                new NotFoundException("no session"))));
            }

            @Override
            public List<SessionInfo> findByOrigin(String origin) {
                return read("findByOrigin", new Request("GET", "/v1/log/by-origin", query("origin", origin), null),
                        Wire::decodeSessionList, f -> f.catalog().orElseThrow().findByOrigin(origin));
            }

            @Override
            public List<SessionId> findByPrefix(String prefix, int max) {
                return read("findByPrefix", new Request("GET", "/v1/log/by-prefix", query("prefix", prefix, "max",
                        Integer.toString(max)), null), a -> {
                            List<SessionId> ids = new java.util.ArrayList<>();
                            Wire.field(a, "ids", JsonNodeType.ARRAY, "session ids")
                                    .forEach(id -> ids.add(new SessionId(id.asText())));
                            return ids;
                        }, f -> f.catalog().orElseThrow().findByPrefix(prefix, max));
            }

            @Override
            public boolean delete(SessionId session) {
                return write("delete", new Request("DELETE", log(session), Map.of(), null),
                        Remote::deleted, f -> f.catalog().orElseThrow().delete(session));
            }
        };
    }

    /** The session records of this scope; calls never fall back. */
    public ChatSessionRepository sessions() {
        return new ChatSessionRepository() {
            @Override
            public CatalogPage list(CatalogQuery q) {
                return strict(new Request("GET", "/v1/records", query("cursor", q.cursor(),
                        "limit", Integer.toString(q.limit()), "workspace", q.workspaceId(), "archived",
                        q.archived() == null ? null : q.archived().toString()), null), Wire::decodeCatalogPage);
            }

            @Override
            public Optional<StoredSession> read(String sessionId) {
                ChatSession.requireId(sessionId, "session id");
                return optional(() -> strict(new Request("GET", "/v1/record", query("id", sessionId), null),
                        Wire::decodeStored));
            }

            @Override
            public StoredSession create(ChatSession session) {
                return strict(new Request("POST", "/v1/records", Map.of(), Wire.encodeSession(session)),
                        Wire::decodeStored);
            }

            @Override
            public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
                return optional(() -> strict(new Request("PUT", "/v1/record",
                        query("id", session.id(), "expectedRevision", Long.toString(expectedRevision)),
                        Wire.encodeSession(session)), Wire::decodeStored));
            }

            @Override
            public boolean delete(String sessionId, long expectedRevision) {
                ChatSession.requireId(sessionId, "session id");
                return strict(new Request("DELETE", "/v1/record", query("id", sessionId, "expectedRevision",
                        Long.toString(expectedRevision)), null), Remote::deleted);
            }
        };
    }

    /** The archives of this scope; calls never fall back. */
    public ChatArchiveRepository archives() {
        return new ChatArchiveRepository() {
            @Override
            public ChatArchiveManifest loadManifest(String sessionId) {
                ChatSession.requireId(sessionId, "session id");
                return strict(new Request("GET", "/v1/archives/manifest", query("session", sessionId), null),
                        a -> Wire.decodeManifest(a, sessionId));
            }

            @Override
            public Optional<String> readSummary(String summaryLocator) {
                return optional(() -> strict(new Request("GET", "/v1/archives/summary",
                        query("locator", summaryLocator), null),
                        a -> Wire.field(a, "summary", JsonNodeType.STRING, "archive summary").asText()));
            }

            @Override
            public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
                return optional(() -> strict(new Request("GET", "/v1/archives/messages",
                        query("locator", messagesLocator), null), Wire::decodeArchivedMessages));
            }

            @Override
            public ArchiveAppend.Result append(ArchiveAppend request) {
                return strict(new Request("POST", "/v1/archives", Map.of(), Wire.encodeArchiveAppend(request)),
                        a -> Wire.decodeArchiveResult(a, request.sessionId()));
            }
        };
    }

    /** Removes everything the scope holds on the server (never falls back). */
    public void deleteScope() {
        strict(new Request("DELETE", "/v1/scope", Map.of(), null), a -> a);
    }

    /**
     * The server's health document for this scope (its status and capabilities), or null when it does not answer.
     *
     * @throws UnavailableException if what answers is not a Parley server: not a health document
     */
    public @Nullable JsonNode health() {
        Request request = Request.get("/v1/health");
        JsonNode answer;
        try {
            answer = node.sendNotingAnswer(request, scope);
        } catch (Outage e) {
            return null;
        }
        return node.decoded(request, answer, a -> {
            if (!"ok".equals(a.path("status").asText())) {
                throw new InvalidInputException("a health document without status \"ok\"");
            }
            return a;
        });
    }
}
