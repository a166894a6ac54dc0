package dev.parley.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Capability;
import dev.parley.core.store.Store;
import dev.parley.engine.LeaseClaim;
import dev.parley.engine.LeaseOwner;
import dev.parley.engine.SessionService;
import dev.parley.json.Json;
import dev.parley.json.wire.Wire;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The handlers: each parses the request, calls the store of the caller's scope, and writes the answer. No storage
 * logic lives here. Thread-safe.
 */
public final class Api {
    static final String SCOPE_ATTRIBUTE = "parley.scope";
    private static final String JSON = "application/json";

    private final Store store;
    private final Clock clock;
    private final IdGenerator ids;
    private final Signals signals;
    private final Map<String, Store> views = new ConcurrentHashMap<>();

    public Api(Store store, Clock clock, IdGenerator ids, Signals signals) {
        this.store = store;
        this.clock = clock;
        this.ids = ids;
        this.signals = signals;
    }

    /** The store of the request's scope (set by {@link Access}). */
    Store store(Context ctx) {
        String scope = ctx.attribute(SCOPE_ATTRIBUTE);
        if (scope == null || scope.equals(store.scope())) {
            return store;
        }
        return views.computeIfAbsent(scope, store::withScope);
    }

    Signals signals() {
        return signals;
    }

    // ---- request and answer helpers ----

    static JsonNode body(Context ctx) {
        return Wire.parse(ctx.bodyAsBytes(), "the request body");
    }

    static void json(Context ctx, int status, JsonNode node) {
        ctx.status(status).contentType(JSON).result(Wire.write(node).getBytes(StandardCharsets.UTF_8));
    }

    static void json(Context ctx, JsonNode node) {
        json(ctx, 200, node);
    }

    static SessionId session(Context ctx) {
        return new SessionId(ctx.pathParam("session"));
    }

    static AgentId agent(Context ctx) {
        return new AgentId(ctx.pathParam("agent"));
    }

    /**
     * A query parameter's value, or null when it is absent; refused when given more than once (read as its first
     * value, a repeated parameter would let the request say two things and the server act on one).
     *
     * @throws InvalidInputException naming the parameter if it is given more than once
     */
    static @Nullable String query(Context ctx, String name) {
        List<String> values = ctx.queryParams(name);
        if (values.size() > 1) {
            throw new InvalidInputException("the query parameter '" + name + "' is given " + values.size()
                    + " times; give it once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    static String required(Context ctx, String name) {
        String v = query(ctx, name);
        if (v == null) {
            throw new InvalidInputException("the query parameter '" + name + "' is missing");
        }
        return v;
    }

    /**
     * An integer query parameter that the store takes as an {@code int} (a page size, a maximum): refused when it
     * is beyond that range, rather than cut to its low 32 bits.
     */
    static int smallNumber(Context ctx, String name, int otherwise) {
        long v = number(ctx, name, (long) otherwise);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new InvalidInputException("the query parameter '" + name + "' is out of range: " + v);
        }
        return (int) v;
    }

    static long number(Context ctx, String name, @Nullable Long otherwise) {
        String v = query(ctx, name);
        if (v == null) {
            if (otherwise == null) {
                throw new InvalidInputException("the query parameter '" + name + "' is missing");
            }
            return otherwise;
        }
        return integer(v, "the query parameter '" + name + "'");
    }

    private static final java.util.regex.Pattern INTEGER = java.util.regex.Pattern.compile("-?[0-9]{1,19}");

    /**
     * A decimal integer written in ASCII digits, with an optional minus sign ({@link Long#parseLong} alone also takes
     * a plus sign and the digits of every script).
     *
     * @param what what holds it, for the message
     * @throws InvalidInputException if it is not one, or beyond a {@code long}
     */
    public static long integer(String v, String what) {
        if (!INTEGER.matcher(v).matches()) {
            throw new InvalidInputException(what + " is not an integer: " + v);
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(what + " is out of range: " + v, e);
        }
    }

    private static ObjectNode flag(String name, boolean value) {
        ObjectNode o = Json.object();
        o.put(name, value);
        return o;
    }

    private SessionCatalog catalog(Context ctx) {
        Store s = store(ctx);
        return s.catalog().orElseThrow(() -> new UnsupportedException("the store keeps no catalog"));
    }

    private ChatSessionRepository records(Context ctx) {
        return store(ctx).sessions().orElseThrow(() -> new UnsupportedException("the store has no session records"));
    }

    private ChatArchiveRepository archives(Context ctx) {
        return store(ctx).archives().orElseThrow(() -> new UnsupportedException("the store has no archives"));
    }

    private SessionService service(Context ctx) {
        return new SessionService(records(ctx), archives(ctx), clock, ids);
    }

    // ---- meta ----

    void health(Context ctx) {
        Store s = store(ctx);
        ObjectNode o = Json.object();
        o.put("status", "ok");
        o.put("scope", s.scope());
        var caps = o.putArray("capabilities");
        for (Capability c : s.capabilities()) {
            caps.add(c.name());
        }
        json(ctx, o);
    }

    void deleteScope(Context ctx) {
        store(ctx).deleteScope();
        ctx.status(204);
    }

    // ---- the message log ----

    void append(Context ctx) {
        SessionId session = session(ctx);
        AgentId agent = agent(ctx);
        Wire.Batch batch = Wire.decodeBatch(body(ctx), agent);
        AppendResult result = batch.conditional()
                ? store(ctx).log().appendIfLast(session, agent, batch.expectedLast(), batch.entries(), batch.usage())
                : store(ctx).log().append(session, agent, batch.entries(), batch.usage());
        signals.signal(store(ctx).scope(), session);
        json(ctx, Wire.encodeAppendResult(result));
    }

    /**
     * The session's entries: all of them (of one agent with {@code agent}), or with {@code after} and/or {@code limit}
     * one window of every agent's entries in seq order ({@code MessageLog.loadAfter}), for paging through a long
     * session.
     */
    void load(Context ctx) {
        String agent = query(ctx, "agent");
        if (query(ctx, "after") != null || query(ctx, "limit") != null) {
            if (agent != null) {
                throw new InvalidInputException("the query parameter 'agent' cannot be combined with 'after' or"
                        + " 'limit': a window holds every agent's entries");
            }
            long limit = number(ctx, "limit", (long) DEFAULT_WINDOW);
            if (limit < 1) {
                throw new InvalidInputException("the query parameter 'limit' must be at least 1, not " + limit);
            }
            // A window holds at most MAX_WINDOW entries, as loadAfter promises "at most limit": a reader pages on.
            json(ctx, Wire.encodeEntries(store(ctx).log().loadAfter(session(ctx), number(ctx, "after", 0L),
                    (int) Math.min(limit, MAX_WINDOW))));
            return;
        }
        json(ctx, Wire.encodeEntries(store(ctx).log().load(session(ctx), agent == null ? null : new AgentId(agent))));
    }

    /** The entries of a window when {@code limit} is not given, and the most one window answers. */
    static final int DEFAULT_WINDOW = 1_000;
    static final int MAX_WINDOW = 10_000;

    void lastEntry(Context ctx) {
        json(ctx, Wire.encodeEntry(store(ctx).log().lastEntry(session(ctx), agent(ctx)).orElseThrow(() ->
                new NotFoundException("agent " + agent(ctx) + " has no entry in session " + session(ctx)))));
    }

    /** The seq alone, so that a client checking for news does not download the entry (it may be large). */
    void lastSeq(Context ctx) {
        json(ctx, Wire.encodeLastSeq(store(ctx).log().lastSeq(session(ctx), agent(ctx))));
    }

    void truncate(Context ctx) {
        SessionId session = session(ctx);
        store(ctx).log().truncateAfter(session, new EntryId(Wire.text(body(ctx), "after")));
        signals.signal(store(ctx).scope(), session);
        ctx.status(204);
    }

    void usage(Context ctx) {
        json(ctx, Wire.encodeUsage(store(ctx).log().loadUsage(session(ctx), agent(ctx))));
    }

    void listSessions(Context ctx) {
        json(ctx, Wire.encodeSessionPage(catalog(ctx).list(query(ctx, "cursor"),
                smallNumber(ctx, "limit", 50))));
    }

    void createSession(Context ctx) {
        json(ctx, 201, Wire.encodeSessionInfo(catalog(ctx).create(Wire.decodeNewSession(body(ctx)))));
    }

    void findSession(Context ctx) {
        SessionId session = session(ctx);
        json(ctx, Wire.encodeSessionInfo(catalog(ctx).find(session).orElseThrow(() ->
                new NotFoundException("no session " + session))));
    }

    void mostRecent(Context ctx) {
        json(ctx, Wire.encodeSessionInfo(catalog(ctx).findMostRecent().orElseThrow(() ->
                new NotFoundException("the store has no session"))));
    }

    void byPrefix(Context ctx) {
        ObjectNode o = Json.object();
        var array = o.putArray("ids");
        catalog(ctx).findByPrefix(required(ctx, "prefix"), smallNumber(ctx, "max", 10))
                .forEach(id -> array.add(id.value()));
        json(ctx, o);
    }

    void byOrigin(Context ctx) {
        json(ctx, Wire.encodeSessionList(catalog(ctx).findByOrigin(required(ctx, "origin"))));
    }

    void deleteSession(Context ctx) {
        SessionId session = session(ctx);
        boolean deleted = catalog(ctx).delete(session);
        signals.signal(store(ctx).scope(), session);
        json(ctx, flag("deleted", deleted));
    }

    // ---- session records ----

    void listRecords(Context ctx) {
        String archived = query(ctx, "archived");
        if (archived != null && !archived.equals("true") && !archived.equals("false")) {
            throw new InvalidInputException("the query parameter 'archived' must be true or false, not " + archived);
        }
        CatalogQuery query = new CatalogQuery(query(ctx, "cursor"), smallNumber(ctx, "limit", 50),
                query(ctx, "workspace"), archived == null ? null : Boolean.valueOf(archived));
        json(ctx, Wire.encodeCatalogPage(records(ctx).list(query)));
    }

    void createRecord(Context ctx) {
        json(ctx, 201, Wire.encodeStored(records(ctx).create(Wire.decodeSession(body(ctx)))));
    }

    void readRecord(Context ctx) {
        String id = required(ctx, "id");
        json(ctx, Wire.encodeStored(records(ctx).read(id).orElseThrow(() ->
                new NotFoundException("no session record " + id))));
    }

    void updateRecord(Context ctx) {
        var session = Wire.decodeSession(body(ctx));
        String id = required(ctx, "id");
        if (!session.id().equals(id)) {
            throw new InvalidInputException("the record's id is " + session.id() + ", not " + id);
        }
        json(ctx, Wire.encodeStored(records(ctx).update(session, number(ctx, "expectedRevision", null))
                .orElseThrow(() -> new NotFoundException("no session record " + id))));
    }

    void deleteRecord(Context ctx) {
        json(ctx, flag("deleted", records(ctx).delete(required(ctx, "id"), number(ctx, "expectedRevision", null))));
    }

    // ---- archives ----

    void manifest(Context ctx) {
        json(ctx, Wire.encodeManifest(archives(ctx).loadManifest(required(ctx, "session"))));
    }

    void appendArchive(Context ctx) {
        json(ctx, 201, Wire.encodeArchiveResult(archives(ctx).append(Wire.decodeArchiveAppend(body(ctx)))));
    }

    void summary(Context ctx) {
        String locator = required(ctx, "locator");
        ObjectNode o = Json.object();
        o.put("summary", archives(ctx).readSummary(locator).orElseThrow(() ->
                new NotFoundException("no summary at " + locator)));
        json(ctx, o);
    }

    void archivedMessages(Context ctx) {
        String locator = required(ctx, "locator");
        json(ctx, Wire.encodeArchivedMessages(archives(ctx).readMessages(locator).orElseThrow(() ->
                new NotFoundException("no archived messages at " + locator))));
    }

    // ---- the session service ----

    void ensure(Context ctx) {
        json(ctx, Wire.encodeStored(service(ctx).ensure(required(ctx, "id"))));
    }

    void enqueue(Context ctx) {
        ObjectNode o = Json.object();
        o.put("position", service(ctx).enqueuePrompt(required(ctx, "id"), Wire.text(body(ctx), "prompt")));
        json(ctx, o);
    }

    void updateQueued(Context ctx) {
        service(ctx).updateQueuedPrompt(required(ctx, "id"), required(ctx, "promptId"), Wire.text(body(ctx), "prompt"));
        ctx.status(204);
    }

    void deleteQueued(Context ctx) {
        service(ctx).deleteQueuedPrompt(required(ctx, "id"), required(ctx, "promptId"));
        ctx.status(204);
    }

    void dequeue(Context ctx) {
        ObjectNode o = Json.object();
        o.set("prompt", service(ctx).dequeuePrompt(required(ctx, "id")).<JsonNode>map(Wire::encodeQueued)
                .orElse(o.nullNode()));
        json(ctx, o);
    }

    void acquireLease(Context ctx) {
        JsonNode body = body(ctx);
        LeaseOwner owner = new LeaseOwner(Wire.text(body, "kind"), Wire.optionalText(body, "hostId"),
                Wire.text(body, "ownerId"), Wire.optionalText(body, "clientLabel"));
        json(ctx, claim(service(ctx).acquireLease(required(ctx, "id"), owner)));
    }

    void refreshLease(Context ctx) {
        service(ctx).refreshLease(claim(body(ctx)));
        ctx.status(204);
    }

    void releaseLease(Context ctx) {
        service(ctx).releaseLease(claim(body(ctx)));
        ctx.status(204);
    }

    private static ObjectNode claim(LeaseClaim claim) {
        ObjectNode o = Json.object();
        o.put("sessionId", claim.sessionId());
        o.put("kind", claim.owner().kind());
        o.put("hostId", claim.owner().hostId());
        o.put("ownerId", claim.owner().ownerId());
        o.put("clientLabel", claim.owner().clientLabel());
        o.put("fencingToken", claim.fencingToken());
        return o;
    }

    private static LeaseClaim claim(JsonNode body) {
        JsonNode token = body.get("fencingToken");
        if (token == null || !token.isIntegralNumber() || !token.canConvertToLong() || token.asLong() < 0) {
            throw new InvalidInputException("the request body needs an integer 'fencingToken' of 0 or more, not "
                    + (token == null ? "none" : token.toString()));
        }
        return new LeaseClaim(Wire.text(body, "sessionId"), new LeaseOwner(Wire.text(body, "kind"),
                Wire.optionalText(body, "hostId"), Wire.text(body, "ownerId"), Wire.optionalText(body, "clientLabel")),
                token.asLong());
    }
}
