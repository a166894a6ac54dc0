package dev.parley.json.repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.Lease;
import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.TurnSummary;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.StrictObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The session record as JSON (Heddle's field names). {@link #parseStrict} rejects unknown keys, missing required
 * fields and wrong types with a {@link StorageCorruptionException} naming where — for stores whose records must never
 * be partly read. {@link #parseTolerant} reads legacy local files: a bad element of a list is dropped and a bad
 * optional field falls back to its default, but a record without its required fields still fails. Instants are
 * written with fixed milliseconds. {@code parseStrict(encode(s))} equals {@code s}.
 *
 * <p>A record reads back as it was written. {@link #encode} writes an optional key exactly when the record has it:
 * {@code "archives": []} and {@code "toolCalls": []} come back as empty lists, and a record without those keys comes
 * back without them (the model keeps the difference as null versus empty). So for a strictly valid document {@code d}
 * in Heddle's format, {@code encode(parseStrict(d))} is {@code d} as a JSON tree: the same keys, values and numbers
 * ({@code 1.50} stays {@code 1.50}, integers keep every digit). What is not kept: the order of the record's own keys
 * (written in one canonical order; opaque values such as {@code context}, tool-call {@code input} or
 * {@code providerContinuation} keep theirs), the case of an exponent ({@code 1e-7} is written {@code 1E-7}), and a
 * JSON {@code null} on an optional key, which reads as the key being absent (Heddle's schema has no null there).
 *
 * <p>Stateless and thread-safe.
 */
public final class ChatSessionCodec {
    static final Set<String> SESSION_KEYS = Set.of("id", "name", "retention", "workspaceId", "pinned", "archivedAt",
            "history", "messages", "turns", "createdAt", "updatedAt", "model", "reasoningEffort", "driftEnabled",
            "lastContinuePrompt", "context", "archives", "leaseEpoch", "lease", "queuedPrompts");
    /** Exactly the keys a catalog entry may have (Heddle's {@code CatalogEntryWriteSchema}). */
    public static final Set<String> CATALOG_KEYS = Set.of("id", "revision", "name", "retention", "workspaceId",
            "pinned", "archivedAt", "createdAt", "updatedAt", "model", "reasoningEffort", "driftEnabled",
            "lastContinuePrompt", "context", "archives", "leaseEpoch", "lease");

    private ChatSessionCodec() {}

    // ---- encoding ----

    /**
     * The record as JSON.
     *
     * @param s the record
     * @return a new object: {@code history}, {@code messages}, {@code turns} and {@code queuedPrompts} always, each
     *     optional key only when the record has it
     */
    public static ObjectNode encode(ChatSession s) {
        ObjectNode o = Json.object();
        o.put("id", s.id());
        o.put("name", s.name());
        putText(o, "retention", s.retention());
        putText(o, "workspaceId", s.workspaceId());
        o.put("pinned", s.pinned());
        putInstant(o, "archivedAt", s.archivedAt());
        ArrayNode history = o.putArray("history");
        s.history().forEach(m -> history.add(encodeMessage(m)));
        ArrayNode lines = o.putArray("messages");
        s.messages().forEach(l -> lines.add(encodeLine(l)));
        ArrayNode turns = o.putArray("turns");
        s.turns().forEach(t -> turns.add(encodeTurn(t)));
        o.put("createdAt", Instants.format(s.createdAt()));
        o.put("updatedAt", Instants.format(s.updatedAt()));
        putText(o, "model", s.model());
        putText(o, "reasoningEffort", s.reasoningEffort());
        if (s.driftEnabled() != null) {
            o.put("driftEnabled", s.driftEnabled());
        }
        putText(o, "lastContinuePrompt", s.lastContinuePrompt());
        putRaw(o, "context", s.context());
        putArchives(o, s.archives());
        if (s.leaseEpoch() != null) {
            o.put("leaseEpoch", s.leaseEpoch());
        }
        if (s.lease() != null) {
            o.set("lease", encodeLease(s.lease()));
        }
        ArrayNode queue = o.putArray("queuedPrompts");
        s.queuedPrompts().forEach(q -> queue.add(encodeQueued(q)));
        return o;
    }

    /**
     * A catalog entry as JSON: exactly {@link #CATALOG_KEYS}, never more.
     *
     * @param e the catalog entry
     * @return a new object; each optional key only when the entry has it
     */
    public static ObjectNode encodeCatalogEntry(CatalogEntry e) {
        ObjectNode o = Json.object();
        o.put("id", e.id());
        o.put("revision", e.revision());
        o.put("name", e.name());
        putText(o, "retention", e.retention());
        putText(o, "workspaceId", e.workspaceId());
        o.put("pinned", e.pinned());
        putInstant(o, "archivedAt", e.archivedAt());
        o.put("createdAt", Instants.format(e.createdAt()));
        o.put("updatedAt", Instants.format(e.updatedAt()));
        putText(o, "model", e.model());
        putText(o, "reasoningEffort", e.reasoningEffort());
        if (e.driftEnabled() != null) {
            o.put("driftEnabled", e.driftEnabled());
        }
        putText(o, "lastContinuePrompt", e.lastContinuePrompt());
        putRaw(o, "context", e.context());
        putArchives(o, e.archives());
        if (e.leaseEpoch() != null) {
            o.put("leaseEpoch", e.leaseEpoch());
        }
        if (e.lease() != null) {
            o.set("lease", encodeLease(e.lease()));
        }
        return o;
    }

    /**
     * The messages an archive holds, as stored: one {@code {"index": i, …message}} object per message, in order (the
     * elements of a JSON array, or the lines of a JSONL file).
     *
     * @param messages the archived messages, in order
     * @return a new array, {@code index} counting from 0; empty for no messages
     */
    public static ArrayNode encodeArchivedMessages(List<ChatMessage> messages) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (int i = 0; i < messages.size(); i++) {
            ObjectNode line = out.addObject();
            line.put("index", i);
            line.setAll(encodeMessageNode(messages.get(i)));
        }
        return out;
    }

    /**
     * {@link #encodeArchivedMessages} as JSONL: one object per line, each line ended by a newline.
     *
     * @param messages the archived messages, in order
     * @return the JSONL text; empty for no messages
     */
    public static String archivedMessagesJsonl(List<ChatMessage> messages) {
        StringBuilder out = new StringBuilder();
        for (JsonNode line : encodeArchivedMessages(messages)) {
            out.append(Json.write(line)).append('\n');
        }
        return out.toString();
    }

    /**
     * Decodes what {@link #encodeArchivedMessages} wrote: the elements of a JSON array, each {@code {"index": i,
     * …message}} with {@code i} counting from 0.
     *
     * @param array the JSON array
     * @param location where the messages are stored, for error messages
     * @return the messages, in order; empty for an empty array
     * @throws StorageCorruptionException naming {@code location} (and the element) if anything does not decode
     */
    public static List<ChatMessage> parseArchivedMessages(JsonNode array, String location) {
        if (!array.isArray()) {
            throw new StorageCorruptionException(location, "the archived messages are not a JSON array", null, true);
        }
        List<ChatMessage> out = new ArrayList<>(array.size());
        for (JsonNode element : array) {
            String where = location + " message " + out.size();
            try {
                if (!element.isObject()) {
                    throw new StorageCorruptionException(where, "not a JSON object", null, true);
                }
                ObjectNode copy = ((ObjectNode) element).deepCopy();
                JsonNode index = copy.remove("index");
                if (index == null || !index.canConvertToInt() || index.asInt() != out.size()) {
                    throw new StorageCorruptionException(where, "its index is " + index + ", expected " + out.size(),
                            null, true);
                }
                out.add(parseMessage(StrictObject.of(copy, where)));
            } catch (CorruptRecordException | InvalidInputException e) {
                StorageCorruptionException c = corrupt(where, e);
                throw new StorageCorruptionException(c.location(), c.detail(), e, true);
            }
        }
        return out;
    }

    /**
     * Decodes what {@link #archivedMessagesJsonl} wrote: one {@code {"index": i, …message}} object per line.
     *
     * @param text the JSONL text; the last line's newline may be missing
     * @param location where the messages are stored, for error messages; a line's number is appended to it
     * @return the messages, in order; empty for an empty text
     * @throws StorageCorruptionException naming {@code location} and the line if anything does not decode
     */
    public static List<ChatMessage> parseArchivedMessagesJsonl(String text, String location) {
        com.fasterxml.jackson.databind.node.ArrayNode array = Json.mapper().createArrayNode();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isEmpty() && i == lines.length - 1) {
                break;
            }
            try {
                array.add(EntryCodec.parseRecord(lines[i], location + ":" + (i + 1)));
            } catch (CorruptRecordException e) {
                throw new StorageCorruptionException(e.location(), e.detail(), e, true);
            }
        }
        return parseArchivedMessages(array, location);
    }

    /**
     * A transcript message as JSON (archives keep removed messages in this form).
     *
     * @param m the message
     * @return a new object: {@code role}, {@code content}, and {@code toolCalls}, {@code toolCallId} and
     *     {@code providerContinuation} only when the message has them
     */
    public static ObjectNode encodeMessageNode(ChatMessage m) {
        return encodeMessage(m);
    }

    static ObjectNode encodeMessage(ChatMessage m) {
        ObjectNode o = Json.object();
        o.put("role", m.role());
        o.put("content", m.content());
        if (m.toolCalls() != null) {
            ArrayNode calls = o.putArray("toolCalls");
            for (ChatMessage.ToolCall c : m.toolCalls()) {
                ObjectNode co = calls.addObject();
                co.put("id", c.id());
                co.put("tool", c.tool());
                co.set("input", EntryCodec.rawToNode(c.input()));
            }
        }
        putText(o, "toolCallId", m.toolCallId());
        putRaw(o, "providerContinuation", m.providerContinuation());
        return o;
    }

    static ObjectNode encodeLine(ConversationLine l) {
        ObjectNode o = Json.object();
        o.put("id", l.id());
        o.put("role", l.role());
        o.put("text", l.text());
        if (l.isStreaming() != null) {
            o.put("isStreaming", l.isStreaming());
        }
        if (l.isPending() != null) {
            o.put("isPending", l.isPending());
        }
        putRaw(o, "directShellResult", l.directShellResult());
        return o;
    }

    static ObjectNode encodeTurn(TurnSummary t) {
        ObjectNode o = Json.object();
        o.put("id", t.id());
        o.put("prompt", t.prompt());
        o.put("outcome", t.outcome());
        o.put("summary", t.summary());
        o.put("steps", t.steps());
        o.put("traceFile", t.traceFile());
        ArrayNode events = o.putArray("events");
        t.events().forEach(events::add);
        putRaw(o, "presentation", t.presentation());
        putRaw(o, "agent", t.agent());
        putRaw(o, "agentSnapshot", t.agentSnapshot());
        return o;
    }

    /**
     * An archive record as JSON.
     *
     * @param a the archive record
     * @return a new object; {@code shortDescription} and {@code summaryModel} only when not null
     */
    public static ObjectNode encodeArchive(ArchiveRecord a) {
        ObjectNode o = Json.object();
        o.put("id", a.id());
        o.put("path", a.path());
        o.put("summaryPath", a.summaryPath());
        putText(o, "shortDescription", a.shortDescription());
        o.put("messageCount", a.messageCount());
        o.put("createdAt", Instants.format(a.createdAt()));
        putText(o, "summaryModel", a.summaryModel());
        return o;
    }

    /**
     * A lease as JSON: {@code hostId} and {@code clientLabel} only when known.
     *
     * @param l the lease
     * @return a new object
     */
    public static ObjectNode encodeLease(Lease l) {
        ObjectNode o = Json.object();
        o.put("ownerKind", l.ownerKind());
        putText(o, "hostId", l.hostId());
        o.put("ownerId", l.ownerId());
        o.put("fencingToken", l.fencingToken());
        o.put("acquiredAt", Instants.format(l.acquiredAt()));
        o.put("lastSeenAt", Instants.format(l.lastSeenAt()));
        putText(o, "clientLabel", l.clientLabel());
        return o;
    }

    /**
     * A queued prompt as JSON: its optional keys only when known.
     *
     * @param q the queued prompt
     * @return a new object
     */
    public static ObjectNode encodeQueued(QueuedPrompt q) {
        ObjectNode o = Json.object();
        o.put("id", q.id());
        o.put("prompt", q.prompt());
        putText(o, "agentProfileId", q.agentProfileId());
        putRaw(o, "agentSnapshot", q.agentSnapshot());
        putText(o, "systemContext", q.systemContext());
        o.put("createdAt", Instants.format(q.createdAt()));
        o.put("updatedAt", Instants.format(q.updatedAt()));
        return o;
    }

    // ---- strict decoding ----

    /**
     * Parses a record strictly.
     *
     * @param node the record's JSON
     * @param location where the record is stored, for error messages
     * @return the record
     * @throws StorageCorruptionException naming {@code location} if the JSON is not a valid record
     */
    public static ChatSession parseStrict(JsonNode node, String location) {
        return parse(node, location, true);
    }

    /**
     * Parses a legacy local record tolerantly: bad list elements are dropped, bad optional fields fall back.
     *
     * @param node the record's JSON
     * @param location where the record is stored, for error messages
     * @return the record; a missing {@code history}, {@code messages}, {@code turns} or {@code queuedPrompts} reads as
     *     an empty list, and a missing or non-text {@code name} as {@code "Session"}
     * @throws StorageCorruptionException if the required fields are missing or invalid
     */
    public static ChatSession parseTolerant(JsonNode node, String location) {
        return parse(node, location, false);
    }

    /**
     * Parses a catalog entry strictly: only {@link #CATALOG_KEYS}.
     *
     * @param node the entry's JSON
     * @param location where the entry is stored, for error messages
     * @return the entry
     * @throws StorageCorruptionException naming {@code location} if the JSON is not a valid catalog entry
     */
    public static CatalogEntry parseCatalogEntry(JsonNode node, String location) {
        try {
            StrictObject o = StrictObject.of(node, location).allowOnly(CATALOG_KEYS);
            return new CatalogEntry(o.string("id"), o.longValue("revision"), o.string("name"),
                    o.optionalString("retention"), o.optionalString("workspaceId"), bool(o, "pinned"),
                    o.optionalInstant("archivedAt"), o.instant("createdAt"), o.instant("updatedAt"),
                    o.optionalString("model"), o.optionalString("reasoningEffort"), optionalBool(o, "driftEnabled"),
                    o.optionalString("lastContinuePrompt"), raw(o, "context"),
                    optionalList(o, "archives", true, ChatSessionCodec::parseArchive), o.optionalLong("leaseEpoch"),
                    o.has("lease") ? parseLease(o.object("lease")) : null);
        } catch (CorruptRecordException | InvalidInputException e) {
            throw corrupt(location, e);
        }
    }

    private static ChatSession parse(JsonNode node, String location, boolean strict) {
        try {
            StrictObject o = StrictObject.of(node, location);
            if (strict) {
                o.allowOnly(SESSION_KEYS);
                for (String required : List.of("history", "messages", "turns", "queuedPrompts", "pinned")) {
                    o.required(required);
                }
            }
            return new ChatSession(o.string("id"), strict ? o.string("name") : orDefault(o, "name", "Session"),
                    text(o, "retention", strict), text(o, "workspaceId", strict),
                    strict ? bool(o, "pinned") : o.node().path("pinned").asBoolean(false),
                    strict ? o.optionalInstant("archivedAt") : lenientInstant(o, "archivedAt"),
                    list(o, "history", strict, ChatSessionCodec::parseMessage),
                    list(o, "messages", strict, ChatSessionCodec::parseLine),
                    list(o, "turns", strict, ChatSessionCodec::parseTurn),
                    o.instant("createdAt"), o.instant("updatedAt"), text(o, "model", strict),
                    text(o, "reasoningEffort", strict), strict ? optionalBool(o, "driftEnabled") : lenientBool(o),
                    text(o, "lastContinuePrompt", strict), raw(o, "context"),
                    optionalList(o, "archives", strict, ChatSessionCodec::parseArchive),
                    strict ? o.optionalLong("leaseEpoch") : lenientLong(o, "leaseEpoch"),
                    lease(o, strict), list(o, "queuedPrompts", strict, ChatSessionCodec::parseQueued));
        } catch (CorruptRecordException | InvalidInputException e) {
            throw corrupt(location, e);
        }
    }

    static ChatMessage parseMessage(StrictObject o) {
        o.allowOnly(Set.of("role", "content", "toolCalls", "toolCallId", "providerContinuation"));
        List<ChatMessage.ToolCall> calls = null;
        JsonNode array = o.optional("toolCalls");
        if (array != null) {
            requireArray(array, o, "toolCalls");
            calls = new ArrayList<>(array.size());
            for (JsonNode c : array) {
                StrictObject co = StrictObject.of(c, o.location() + " toolCalls").allowOnly(Set.of("id", "tool", "input"));
                calls.add(new ChatMessage.ToolCall(co.string("id"), co.string("tool"), EntryCodec.nodeToRaw(co.required("input"))));
            }
        }
        return new ChatMessage(o.string("role"), o.string("content"), calls, o.optionalString("toolCallId"),
                raw(o, "providerContinuation"));
    }

    static ConversationLine parseLine(StrictObject o) {
        o.allowOnly(Set.of("id", "role", "text", "isStreaming", "isPending", "directShellResult"));
        return new ConversationLine(o.string("id"), o.string("role"), o.string("text"), optionalBool(o, "isStreaming"),
                optionalBool(o, "isPending"), raw(o, "directShellResult"));
    }

    static TurnSummary parseTurn(StrictObject o) {
        o.allowOnly(Set.of("id", "prompt", "outcome", "summary", "steps", "traceFile", "events", "presentation",
                "agent", "agentSnapshot"));
        List<String> events = new ArrayList<>();
        JsonNode array = o.required("events");
        requireArray(array, o, "events");
        for (JsonNode e : array) {
            if (!e.isTextual()) {
                throw o.fail("events must be strings");
            }
            events.add(e.textValue());
        }
        return new TurnSummary(o.string("id"), o.string("prompt"), o.string("outcome"), o.string("summary"),
                o.longValue("steps"), o.string("traceFile"), events, raw(o, "presentation"), raw(o, "agent"),
                raw(o, "agentSnapshot"));
    }

    /**
     * Parses an archive record strictly.
     *
     * @param o the archive record's object; failures name its location
     * @return the archive record
     * @throws CorruptRecordException if a key is unknown, a required one is missing, or a value has the wrong type
     * @throws InvalidInputException if the values make no valid {@link ArchiveRecord} (a negative
     *     {@code messageCount}, an empty locator)
     */
    public static ArchiveRecord parseArchive(StrictObject o) {
        o.allowOnly(Set.of("id", "path", "summaryPath", "shortDescription", "messageCount", "createdAt", "summaryModel"));
        return new ArchiveRecord(o.string("id"), o.string("path"), o.string("summaryPath"),
                o.optionalString("shortDescription"), o.longValue("messageCount"), o.instant("createdAt"),
                o.optionalString("summaryModel"));
    }

    static Lease parseLease(StrictObject o) {
        o.allowOnly(Set.of("ownerKind", "hostId", "ownerId", "fencingToken", "acquiredAt", "lastSeenAt", "clientLabel"));
        return new Lease(o.string("ownerKind"), o.optionalString("hostId"), o.string("ownerId"),
                o.optionalLong("fencingToken", 0), o.instant("acquiredAt"), o.instant("lastSeenAt"),
                o.optionalString("clientLabel"));
    }

    static QueuedPrompt parseQueued(StrictObject o) {
        o.allowOnly(Set.of("id", "prompt", "agentProfileId", "agentSnapshot", "systemContext", "createdAt", "updatedAt"));
        return new QueuedPrompt(o.string("id"), o.string("prompt"), o.optionalString("agentProfileId"),
                raw(o, "agentSnapshot"), o.optionalString("systemContext"), o.instant("createdAt"), o.instant("updatedAt"));
    }

    // ---- helpers ----

    /** A list the record must have (strict), or an empty one when a legacy record lacks it (tolerant). */
    private static <T> List<T> list(StrictObject o, String key, boolean strict, Function<StrictObject, T> parse) {
        List<T> out = elements(o, key, strict, parse);
        return out == null ? List.of() : out;
    }

    /** A list the record may have: null when the key is absent (or, tolerantly, not a list), else its elements. */
    private static <T> @Nullable List<T> optionalList(StrictObject o, String key, boolean strict,
                                                      Function<StrictObject, T> parse) {
        return o.optional(key) == null ? null : elements(o, key, strict, parse);
    }

    private static <T> @Nullable List<T> elements(StrictObject o, String key, boolean strict,
                                                  Function<StrictObject, T> parse) {
        JsonNode array = strict ? o.required(key) : o.optional(key);
        if (array == null) {
            return null;
        }
        if (!array.isArray()) {
            if (strict) {
                throw o.fail("field '" + key + "' is not a list");
            }
            return null;
        }
        List<T> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            try {
                out.add(parse.apply(StrictObject.of(array.get(i), o.location() + " " + key + "[" + i + "]")));
            } catch (CorruptRecordException | InvalidInputException e) {
                if (strict) {
                    throw e;
                }
                // tolerant: an invalid element is dropped, as Heddle's legacy file read does
            }
        }
        return out;
    }

    private static @Nullable Lease lease(StrictObject o, boolean strict) {
        if (!o.has("lease")) {
            return null;
        }
        try {
            return parseLease(o.object("lease"));
        } catch (CorruptRecordException | InvalidInputException e) {
            if (strict) {
                throw e;
            }
            return null;
        }
    }

    private static void requireArray(JsonNode node, StrictObject o, String key) {
        if (!node.isArray()) {
            throw o.fail("field '" + key + "' is not a list");
        }
    }

    private static boolean bool(StrictObject o, String key) {
        JsonNode v = o.required(key);
        if (!v.isBoolean()) {
            throw o.fail("field '" + key + "' is not a boolean");
        }
        return v.booleanValue();
    }

    private static @Nullable Boolean optionalBool(StrictObject o, String key) {
        return o.has(key) ? bool(o, key) : null;
    }

    private static @Nullable Boolean lenientBool(StrictObject o) {
        JsonNode v = o.optional("driftEnabled");
        return v != null && v.isBoolean() ? v.booleanValue() : null;
    }

    private static @Nullable Long lenientLong(StrictObject o, String key) {
        JsonNode v = o.optional(key);
        return v != null && v.isIntegralNumber() && v.longValue() >= 0 ? v.longValue() : null;
    }

    private static @Nullable Instant lenientInstant(StrictObject o, String key) {
        JsonNode v = o.optional(key);
        return v != null && v.isTextual() ? Instants.parseOrNull(v.textValue()) : null;
    }

    private static @Nullable String text(StrictObject o, String key, boolean strict) {
        if (strict) {
            return o.optionalString(key);
        }
        JsonNode v = o.optional(key);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    private static String orDefault(StrictObject o, String key, String otherwise) {
        JsonNode v = o.optional(key);
        return v != null && v.isTextual() ? v.textValue() : otherwise;
    }

    private static @Nullable RawJson raw(StrictObject o, String key) {
        JsonNode v = o.optional(key);
        return v == null ? null : EntryCodec.nodeToRaw(v);
    }

    private static void putArchives(ObjectNode o, @Nullable List<ArchiveRecord> archives) {
        if (archives != null) {
            ArrayNode array = o.putArray("archives");
            archives.forEach(a -> array.add(encodeArchive(a)));
        }
    }

    private static void putText(ObjectNode o, String key, @Nullable String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    private static void putInstant(ObjectNode o, String key, @Nullable Instant value) {
        if (value != null) {
            o.put(key, Instants.format(value));
        }
    }

    private static void putRaw(ObjectNode o, String key, @Nullable RawJson value) {
        if (value != null) {
            o.set(key, EntryCodec.rawToNode(value));
        }
    }

    private static StorageCorruptionException corrupt(String location, RuntimeException e) {
        if (e instanceof StorageCorruptionException s) {
            return s;
        }
        if (e instanceof CorruptRecordException c) {
            return new StorageCorruptionException(c.location(), c.detail(), e, false);
        }
        return new StorageCorruptionException(location, e.getMessage(), e, false);
    }
}
