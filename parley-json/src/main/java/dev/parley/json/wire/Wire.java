package dev.parley.json.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.Lease;
import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.StrictObject;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The envelopes of the Parley HTTP API around the canonical JSON of the model. Every {@code encode…} has a
 * {@code decode…} that gives back an equal value. Decoders fail with {@link InvalidInputException} naming what was
 * wrong (a wire document is input, not a stored record). Request bodies and the canonical JSON of entries are read
 * strictly: a missing member, one of the wrong type and an unknown one are refused. Some envelopes of answers are
 * read more leniently: {@code decodeEntries}, {@code decodeLease} and {@code decodeStored} pass over members they do
 * not know, the pages read a {@code nextCursor} that is not text as none, and {@code decodeStored} takes a
 * {@code revision} written as text.
 *
 * <p>Stateless and thread-safe.
 */
public final class Wire {
    private Wire() {}

    /**
     * Parses a JSON document.
     *
     * @param text the JSON text
     * @param what what the text is, for the message ("the request body")
     * @return the value, of any JSON type
     * @throws InvalidInputException if the text is not one JSON value
     */
    public static JsonNode parse(String text, String what) {
        try {
            return Json.parse(text);
        } catch (JsonProcessingException e) {
            throw unparsable(what, e);
        }
    }

    private static InvalidInputException unparsable(String what, JsonProcessingException e) {
        return new InvalidInputException(what + (Json.beyondLimits(e) ? " is too large to read: " : " is not JSON: ")
                + Json.problem(e), e);
    }

    /**
     * Parses a JSON document of UTF-8 bytes (a request body as it came): bytes that are not UTF-8 are refused with
     * where they are, never replaced, and so is a key repeated in one object (which a lossless store could only keep
     * by dropping one of its values).
     *
     * @param bytes the document, whole
     * @param what what the bytes are, for the message ("the request body")
     * @return the value, of any JSON type
     * @throws InvalidInputException if the bytes are not UTF-8 text of one JSON value, or repeat a key
     */
    public static JsonNode parse(byte[] bytes, String what) {
        try {
            return Json.parseSource(bytes);
        } catch (JsonProcessingException e) {
            throw unparsable(what, e);
        }
    }

    /**
     * The compact text of a document.
     *
     * @param node the document
     * @return its compact text ({@link Json#write})
     */
    public static String write(JsonNode node) {
        return Json.write(node);
    }

    /** Runs a decoder, turning a decoding failure into {@link InvalidInputException}. */
    private static <T> T strict(Supplier<T> decoder) {
        try {
            return decoder.get();
        } catch (CorruptRecordException e) {
            throw new InvalidInputException(e.location() + ": " + e.detail(), e);
        }
    }

    /**
     * The field {@code key} of an answer, which must be there and be of {@code type}.
     *
     * @param node the answer
     * @param key the field's name
     * @param type the type the field's value must have
     * @param what what the answer is, for the message
     * @return the field's value
     * @throws InvalidInputException naming the field, when it is missing or of another type
     */
    public static JsonNode field(JsonNode node, String key, JsonNodeType type, String what) {
        JsonNode value = node.get(key);
        if (value == null || value.getNodeType() != type) {
            throw new InvalidInputException(what + ": " + (value == null ? "missing field '" + key + "'"
                    : "field '" + key + "' is " + value.getNodeType() + ", not " + type));
        }
        return value;
    }

    // ---- the message log ----

    /**
     * A batch to append and the usage it cost.
     *
     * @param entries the entries, in order
     * @param usage the usage
     * @param conditional whether the request carried {@code "expectedLast"} (even as JSON null), making the append
     *     conditional ({@code MessageLog.appendIfLast})
     * @param expectedLast the agent's latest entry the batch continues from, or null for none; meaningful only when
     *     {@code conditional}
     */
    public record Batch(List<NewEntry> entries, Usage usage, boolean conditional, @Nullable EntryId expectedLast) {
        /**
         * Copies {@code entries} into an unmodifiable list; {@code usage} is not checked.
         *
         * @param entries the entries, in order
         * @param usage the usage
         * @param conditional whether the append is conditional
         * @param expectedLast the agent's latest entry the batch continues from, or null for none
         * @throws NullPointerException if {@code entries} is null or holds a null
         */
        public Batch {
            entries = List.copyOf(entries);
        }
    }

    /**
     * {@code {"entries":[entry without seq…],"usage":{…}}}: an append request of {@code agent}.
     *
     * @param agent the agent appending
     * @param batch the entries, in order
     * @param usage what producing the batch cost
     * @return a new object, without {@code "expectedLast"}: an unconditional append
     */
    public static ObjectNode encodeBatch(AgentId agent, List<NewEntry> batch, Usage usage) {
        return encodeBatch(agent, batch, usage, false, null);
    }

    /**
     * An append request of {@code agent}; a conditional one ({@code MessageLog.appendIfLast}) also carries
     * {@code "expectedLast"}: the agent's latest entry the batch continues from, or null for none.
     *
     * @param agent the agent appending
     * @param batch the entries, in order
     * @param usage what producing the batch cost
     * @param conditional whether the append is conditional: then {@code "expectedLast"} is written
     * @param expectedLast the agent's latest entry the batch continues from, or null for none (written as JSON
     *     {@code null}); ignored unless {@code conditional}
     * @return a new object
     */
    public static ObjectNode encodeBatch(AgentId agent, List<NewEntry> batch, Usage usage, boolean conditional,
                                         @Nullable EntryId expectedLast) {
        ObjectNode o = Json.object();
        if (conditional) {
            if (expectedLast == null) {
                o.putNull("expectedLast");
            } else {
                o.put("expectedLast", expectedLast.value());
            }
        }
        ArrayNode entries = o.putArray("entries");
        for (NewEntry e : batch) {
            entries.add(parse(EntryCodec.encodeRow(e, agent), "an entry"));
        }
        o.set("usage", EntryCodec.encodeUsage(usage));
        return o;
    }

    /**
     * Decodes an append request of {@code agent}.
     *
     * @param node the request body
     * @param agent the agent the request appends for; every entry must name it
     * @return the batch; its usage is {@link Usage#ZERO} when the request has none
     * @throws InvalidInputException if it is malformed or an entry names another agent
     */
    public static Batch decodeBatch(JsonNode node, AgentId agent) {
        return strict(() -> {
            StrictObject o = StrictObject.of(node, "append request").allowOnly(Set.of("entries", "usage",
                    "expectedLast"));
            List<NewEntry> entries = new ArrayList<>();
            ArrayNode array = o.array("entries");
            for (int i = 0; i < array.size(); i++) {
                JsonNode e = array.get(i);
                if (!e.isObject()) {
                    throw o.fail("entries[" + i + "] is not an object");
                }
                ObjectNode copy = ((ObjectNode) e).deepCopy();
                copy.put("seq", 1);
                Entry entry = EntryCodec.decode(copy, "append request entries[" + i + "]");
                if (!entry.agentId().equals(agent)) {
                    throw o.fail("entries[" + i + "] names agent " + entry.agentId() + ", not " + agent);
                }
                entries.add(entry.toNewEntry());
            }
            Usage usage = o.has("usage") ? EntryCodec.decodeUsage(o.required("usage"), "append request usage")
                    : Usage.ZERO;
            boolean conditional = node.has("expectedLast"); // present, even as null ("the agent has no entry yet")
            String expected = conditional ? o.optionalString("expectedLast") : null;
            return new Batch(entries, usage, conditional, expected == null ? null : new EntryId(expected));
        });
    }

    /**
     * {@code {"entries":[…],"written":n}}.
     *
     * @param result the result of an append
     * @return a new object
     */
    public static ObjectNode encodeAppendResult(AppendResult result) {
        ObjectNode o = encodeEntries(result.entries());
        o.put("written", result.written());
        return o;
    }

    /**
     * @param node the answer, as {@link #encodeAppendResult} writes it
     * @return the result
     * @throws InvalidInputException if malformed
     */
    public static AppendResult decodeAppendResult(JsonNode node) {
        List<Entry> entries = decodeEntries(node);
        return strict(() -> {
            StrictObject o = StrictObject.of(node, "append result");
            long written = o.longValue("written");
            if (written < 0 || written > entries.size()) {
                throw o.fail("\"written\" is " + written + ", not between 0 and the " + entries.size()
                        + " entries it answers for");
            }
            return new AppendResult(entries, (int) written);
        });
    }

    /**
     * {@code {"entries":[…]}}, each in the canonical JSON with its seq.
     *
     * @param entries the entries, in order
     * @return a new object
     */
    public static ObjectNode encodeEntries(List<Entry> entries) {
        ObjectNode o = Json.object();
        ArrayNode array = o.putArray("entries");
        entries.forEach(e -> array.add(EntryCodec.encode(e)));
        return o;
    }

    /**
     * @param node an object with {@code "entries"}, as {@link #encodeEntries} writes it; its other keys are not read
     * @return the entries, in order
     * @throws InvalidInputException if malformed
     */
    public static List<Entry> decodeEntries(JsonNode node) {
        return strict(() -> {
            ArrayNode array = StrictObject.of(node, "entries").array("entries");
            List<Entry> out = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                out.add(EntryCodec.decode(array.get(i), "entries[" + i + "]"));
            }
            return out;
        });
    }

    /**
     * One entry in the canonical JSON.
     *
     * @param entry the entry
     * @return a new object, with the seq
     */
    public static ObjectNode encodeEntry(Entry entry) {
        return EntryCodec.encode(entry);
    }

    /**
     * @param node the entry in the canonical JSON, with its seq
     * @return the entry
     * @throws InvalidInputException if malformed
     */
    public static Entry decodeEntry(JsonNode node) {
        return strict(() -> EntryCodec.decode(node, "entry"));
    }

    /**
     * The seq of an agent's most recent entry ({@code MessageLog.lastSeq}): {@code {"seq": 42}}, or
     * {@code {"seq": null}} when the agent has no entry in the session.
     *
     * @param seq the seq, or empty when the agent has no entry
     * @return a new object
     */
    public static ObjectNode encodeLastSeq(OptionalLong seq) {
        ObjectNode o = Json.object();
        if (seq.isPresent()) {
            o.put("seq", seq.getAsLong());
        } else {
            o.putNull("seq");
        }
        return o;
    }

    /**
     * @param node the answer, as {@link #encodeLastSeq} writes it
     * @return the seq; empty for {@code {"seq": null}}
     * @throws InvalidInputException if malformed: not an object whose {@code seq} is a positive integer or null
     */
    public static OptionalLong decodeLastSeq(JsonNode node) {
        JsonNode seq = node.isObject() ? node.get("seq") : null;
        if (seq == null || !(seq.isNull() || (seq.isIntegralNumber() && seq.canConvertToLong() && seq.asLong() > 0))) {
            throw new InvalidInputException("the last seq must be {\"seq\": a positive integer or null}, not " + node);
        }
        return seq.isNull() ? OptionalLong.empty() : OptionalLong.of(seq.asLong());
    }

    /**
     * Usage in the canonical JSON.
     *
     * @param usage the usage
     * @return a new object; zero counts are left out
     */
    public static ObjectNode encodeUsage(Usage usage) {
        return EntryCodec.encodeUsage(usage);
    }

    /**
     * @param node the usage in the canonical JSON
     * @return the usage
     * @throws InvalidInputException if malformed
     */
    public static Usage decodeUsage(JsonNode node) {
        return strict(() -> EntryCodec.decodeUsage(node, "usage"));
    }

    /**
     * A session of the log's catalog.
     *
     * @param s the session
     * @return a new object; {@code title} and {@code origin} only when not null
     */
    public static ObjectNode encodeSessionInfo(SessionInfo s) {
        ObjectNode o = Json.object();
        o.put("id", s.id().value());
        o.put("createdAt", Instants.format(s.createdAt()));
        o.put("updatedAt", Instants.format(s.updatedAt()));
        if (s.title() != null) {
            o.put("title", s.title());
        }
        if (s.origin() != null) {
            o.put("origin", s.origin());
        }
        o.put("entryCount", s.entryCount());
        o.put("messageCount", s.messageCount());
        o.set("metadata", EntryCodec.encodeRawMap(s.metadata()));
        return o;
    }

    /**
     * @param node the session, as {@link #encodeSessionInfo} writes it
     * @return the session
     * @throws InvalidInputException if malformed
     */
    public static SessionInfo decodeSessionInfo(JsonNode node) {
        return strict(() -> {
            StrictObject o = StrictObject.of(node, "session").allowOnly(Set.of("id", "createdAt", "updatedAt", "title",
                    "origin", "entryCount", "messageCount", "metadata"));
            return new SessionInfo(new SessionId(o.string("id")), o.instant("createdAt"), o.instant("updatedAt"),
                    o.optionalString("title"), o.optionalString("origin"), o.longValue("entryCount"),
                    o.longValue("messageCount"), EntryCodec.decodeRawMap(o.required("metadata"), "session metadata"));
        });
    }

    /**
     * A session to create in the log's catalog.
     *
     * @param s the session to create
     * @return a new object; {@code title}, {@code origin} and {@code createdAt} only when not null
     */
    public static ObjectNode encodeNewSession(NewSession s) {
        ObjectNode o = Json.object();
        o.put("id", s.id().value());
        if (s.title() != null) {
            o.put("title", s.title());
        }
        if (s.origin() != null) {
            o.put("origin", s.origin());
        }
        o.set("metadata", EntryCodec.encodeRawMap(s.metadata()));
        if (s.createdAt() != null) { // only then: a server of an earlier Parley refuses the key
            o.put("createdAt", Instants.format(s.createdAt()));
        }
        return o;
    }

    /**
     * A restored session's creation time, refused when it is more than a day ahead of this clock: its activity time
     * would be that far ahead too, and the session would head the catalog's "newest activity first" until then.
     */
    private static @Nullable Instant notInTheFuture(@Nullable Instant createdAt) {
        if (createdAt != null && createdAt.isAfter(Instant.now().plus(Duration.ofDays(1)))) {
            throw new InvalidInputException("createdAt " + createdAt + " is in the future");
        }
        return createdAt;
    }

    /**
     * @param node the session to create, as {@link #encodeNewSession} writes it
     * @return the session to create; its metadata empty and its {@code createdAt} null when the document has none
     * @throws InvalidInputException if malformed, or createdAt is more than a day in the future
     */
    public static NewSession decodeNewSession(JsonNode node) {
        return strict(() -> {
            StrictObject o = StrictObject.of(node, "new session")
                    .allowOnly(Set.of("id", "title", "origin", "metadata", "createdAt"));
            return new NewSession(new SessionId(o.string("id")), o.optionalString("title"), o.optionalString("origin"),
                    o.has("metadata") ? EntryCodec.decodeRawMap(o.required("metadata"), "session metadata")
                            : java.util.Map.of(), notInTheFuture(o.optionalInstant("createdAt")));
        });
    }

    /**
     * {@code {"sessions":[…],"nextCursor":…}}.
     *
     * @param page the page
     * @return a new object; {@code nextCursor} is JSON {@code null} on the last page
     */
    public static ObjectNode encodeSessionPage(SessionPage page) {
        ObjectNode o = encodeSessionList(page.sessions());
        o.put("nextCursor", page.nextCursor());
        return o;
    }

    /**
     * @param node the page, as {@link #encodeSessionPage} writes it
     * @return the page; a {@code nextCursor} that is not text reads as null (the last page)
     * @throws InvalidInputException if malformed
     */
    public static SessionPage decodeSessionPage(JsonNode node) {
        return new SessionPage(decodeSessionList(node), node.path("nextCursor").isTextual()
                ? node.get("nextCursor").asText() : null);
    }

    /**
     * {@code {"sessions":[…]}}.
     *
     * @param sessions the sessions, in order
     * @return a new object
     */
    public static ObjectNode encodeSessionList(List<SessionInfo> sessions) {
        ObjectNode o = Json.object();
        ArrayNode array = o.putArray("sessions");
        sessions.forEach(s -> array.add(encodeSessionInfo(s)));
        return o;
    }

    /**
     * @param node an object with {@code "sessions"}, as {@link #encodeSessionList} writes it
     * @return the sessions, in order
     * @throws InvalidInputException if malformed
     */
    public static List<SessionInfo> decodeSessionList(JsonNode node) {
        List<SessionInfo> out = new ArrayList<>();
        for (JsonNode s : field(node, "sessions", JsonNodeType.ARRAY, "session list")) {
            out.add(decodeSessionInfo(s));
        }
        return out;
    }

    // ---- session records ----

    /**
     * A record in the canonical JSON ({@link ChatSessionCodec#encode}).
     *
     * @param session the record
     * @return a new object
     */
    public static ObjectNode encodeSession(ChatSession session) {
        return ChatSessionCodec.encode(session);
    }

    /**
     * @param node the record in the canonical JSON
     * @return the record
     * @throws InvalidInputException if it is not a valid record (strictly)
     */
    public static ChatSession decodeSession(JsonNode node) {
        return strict(() -> ChatSessionCodec.parseStrict(node, "session record"));
    }

    /**
     * {@code {"revision":r,"session":{…}}}.
     *
     * @param stored the record and its revision
     * @return a new object
     */
    public static ObjectNode encodeStored(StoredSession stored) {
        ObjectNode o = Json.object();
        o.put("revision", stored.revision());
        o.set("session", encodeSession(stored.session()));
        return o;
    }

    /**
     * @param node the record and its revision, as {@link #encodeStored} writes them
     * @return the record and its revision
     * @throws InvalidInputException if malformed
     */
    public static StoredSession decodeStored(JsonNode node) {
        return new StoredSession(decodeSession(node.path("session")), node.path("revision").asLong());
    }

    /**
     * {@code {"items":[catalog entry…],"nextCursor":…}}.
     *
     * @param page the page
     * @return a new object; {@code nextCursor} is JSON {@code null} on the last page
     */
    public static ObjectNode encodeCatalogPage(CatalogPage page) {
        ObjectNode o = Json.object();
        ArrayNode items = o.putArray("items");
        page.items().forEach(e -> items.add(ChatSessionCodec.encodeCatalogEntry(e)));
        o.put("nextCursor", page.nextCursor());
        return o;
    }

    /**
     * @param node the page, as {@link #encodeCatalogPage} writes it
     * @return the page; a {@code nextCursor} that is not text reads as null (the last page)
     * @throws InvalidInputException if malformed
     */
    public static CatalogPage decodeCatalogPage(JsonNode node) {
        return strict(() -> {
            List<CatalogEntry> items = new ArrayList<>();
            for (JsonNode item : field(node, "items", JsonNodeType.ARRAY, "catalog page")) {
                items.add(ChatSessionCodec.parseCatalogEntry(item, "catalog entry"));
            }
            return new CatalogPage(items, node.path("nextCursor").isTextual() ? node.get("nextCursor").asText() : null);
        });
    }

    // ---- archives ----

    /**
     * {@code {"sessionId":…,"archive":{…},"messages":[…],"summary":…}}.
     *
     * @param request the archive to append
     * @return a new object
     */
    public static ObjectNode encodeArchiveAppend(ArchiveAppend request) {
        ObjectNode o = Json.object();
        o.put("sessionId", request.sessionId());
        o.set("archive", ChatSessionCodec.encodeArchive(request.archive()));
        o.set("messages", ChatSessionCodec.encodeArchivedMessages(request.messages()));
        o.put("summary", request.summary());
        return o;
    }

    /**
     * @param node the request, as {@link #encodeArchiveAppend} writes it
     * @return the archive to append
     * @throws InvalidInputException if malformed
     */
    public static ArchiveAppend decodeArchiveAppend(JsonNode node) {
        return strict(() -> {
            StrictObject o = StrictObject.of(node, "archive append").allowOnly(Set.of("sessionId", "archive",
                    "messages", "summary"));
            return new ArchiveAppend(o.string("sessionId"), ChatSessionCodec.parseArchive(o.object("archive")),
                    ChatSessionCodec.parseArchivedMessages(o.required("messages"), "archive append messages"),
                    o.string("summary"));
        });
    }

    /**
     * {@code {"archive":{…},"manifest":{…}}}.
     *
     * @param result the stored archive and the manifest
     * @return a new object
     */
    public static ObjectNode encodeArchiveResult(ArchiveAppend.Result result) {
        ObjectNode o = Json.object();
        o.set("archive", ChatSessionCodec.encodeArchive(result.archive()));
        o.set("manifest", ChatArchiveCodec.encodeManifest(result.manifest()));
        return o;
    }

    /**
     * @param node the answer, as {@link #encodeArchiveResult} writes it
     * @param sessionId the session the manifest must belong to
     * @return the stored archive and the manifest
     * @throws InvalidInputException if malformed
     */
    public static ArchiveAppend.Result decodeArchiveResult(JsonNode node, String sessionId) {
        return strict(() -> new ArchiveAppend.Result(
                ChatSessionCodec.parseArchive(StrictObject.of(node.path("archive"), "archive")),
                ChatArchiveCodec.parseManifest(node.path("manifest"), sessionId, "manifest")));
    }

    /**
     * A manifest in the canonical JSON.
     *
     * @param manifest the manifest
     * @return a new object
     */
    public static ObjectNode encodeManifest(ChatArchiveManifest manifest) {
        return ChatArchiveCodec.encodeManifest(manifest);
    }

    /**
     * @param node the manifest in the canonical JSON
     * @param sessionId the session the manifest must belong to
     * @return the manifest
     * @throws InvalidInputException if it is not a manifest of {@code sessionId}
     */
    public static ChatArchiveManifest decodeManifest(JsonNode node, String sessionId) {
        return strict(() -> ChatArchiveCodec.parseManifest(node, sessionId, "manifest"));
    }

    /**
     * {@code {"messages":[…]}}: archived messages.
     *
     * @param messages the archived messages, in order
     * @return a new object
     */
    public static ObjectNode encodeArchivedMessages(List<dev.parley.core.repository.ChatMessage> messages) {
        ObjectNode o = Json.object();
        o.set("messages", ChatSessionCodec.encodeArchivedMessages(messages));
        return o;
    }

    /**
     * @param node an object with {@code "messages"}, as {@link #encodeArchivedMessages} writes it
     * @return the messages, in order
     * @throws InvalidInputException if malformed
     */
    public static List<dev.parley.core.repository.ChatMessage> decodeArchivedMessages(JsonNode node) {
        return strict(() -> ChatSessionCodec.parseArchivedMessages(node.path("messages"), "archived messages"));
    }

    // ---- the session service ----

    /**
     * A lease, as a session record holds it ({@link ChatSessionCodec#encodeLease}): absent optional keys left out.
     *
     * @param l the lease
     * @return a new object
     */
    public static ObjectNode encodeLease(Lease l) {
        return ChatSessionCodec.encodeLease(l);
    }

    /**
     * @param node the lease, as {@link #encodeLease} writes it
     * @return the lease
     * @throws InvalidInputException if malformed
     */
    public static Lease decodeLease(JsonNode node) {
        return strict(() -> {
            StrictObject o = StrictObject.of(node, "lease");
            return new Lease(o.string("ownerKind"), o.optionalString("hostId"), o.string("ownerId"),
                    o.longValue("fencingToken"), o.instant("acquiredAt"), o.instant("lastSeenAt"),
                    o.optionalString("clientLabel"));
        });
    }

    /**
     * A queued prompt, as a session record holds it ({@link ChatSessionCodec#encodeQueued}): its agent snapshot
     * included, absent optional keys left out.
     *
     * @param q the queued prompt
     * @return a new object
     */
    public static ObjectNode encodeQueued(QueuedPrompt q) {
        return ChatSessionCodec.encodeQueued(q);
    }

    /**
     * A text field of a request body, required.
     *
     * @param body the request body
     * @param key the field's name
     * @return the text, possibly empty
     * @throws InvalidInputException if missing or not text
     */
    public static String text(JsonNode body, String key) {
        JsonNode v = body.get(key);
        if (v == null || !v.isTextual()) {
            throw new InvalidInputException("the request body needs a text field '" + key + "'");
        }
        return v.asText();
    }

    /**
     * A text field of a request body, or null.
     *
     * @param body the request body
     * @param key the field's name
     * @return the text; null when the field is absent or not text
     */
    public static @Nullable String optionalText(JsonNode body, String key) {
        JsonNode v = body.get(key);
        return v == null || !v.isTextual() ? null : v.asText();
    }
}
