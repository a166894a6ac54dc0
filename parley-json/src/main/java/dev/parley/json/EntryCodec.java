package dev.parley.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryKind;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.SourceRecord;
import dev.parley.core.model.Usage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Parley's canonical JSON for entries, messages, content blocks and usage. {@code decode(encode(x))} equals
 * {@code x} for every value of the model; decoding is strict.
 *
 * <p>An entry looks like:
 * <pre>{"seq":7,"id":"…","parentId":"…","agent":"main","timestamp":"2025-12-08T22:41:05.306Z","kind":"message",
 *  "message":{"role":"user","content":"hello"},"source":{"format":"pi","residual":{…}}}</pre>
 * The payload sits under a key named for its kind ({@code message}, {@code compaction}, {@code modelChange},
 * {@code thinkingLevelChange}, {@code label}, {@code branchSummary}, {@code sessionName}, {@code custom}). A
 * message's content is a string when it was given as plain text, otherwise a list of blocks. Absent optional
 * values are left out. {@link RawJson} values are embedded as JSON when their text is already in compact form,
 * otherwise as {@code {"$json":"<text>"}} so that the exact text comes back.
 *
 * <p>Stateless and thread-safe.
 */
public final class EntryCodec {
    private static final String RAW_TEXT = "$json";
    private static final Set<String> ENTRY_KEYS = Set.of("seq", "id", "parentId", "agent", "timestamp", "kind",
            "message", "compaction", "modelChange", "thinkingLevelChange", "label", "branchSummary", "sessionName",
            "custom", "source");
    private static final Set<String> MESSAGE_KEYS = Set.of("role", "content", "provider", "model", "usage",
            "stopReason", "errorMessage", "createdAt", "responseId", "metadata");

    private EntryCodec() {}

    // ---- entries ----

    /**
     * The canonical JSON of an entry.
     *
     * @param entry the entry
     * @return a new object, {@code seq} first, then the other fields in canonical order
     */
    public static ObjectNode encode(Entry entry) {
        ObjectNode out = Json.object();
        out.put("seq", entry.seq());
        return encodeFields(out, entry.toNewEntry(), entry.agentId());
    }

    /** The fields of an entry after its seq, in canonical order. */
    private static ObjectNode encodeFields(ObjectNode out, NewEntry entry, AgentId agent) {
        out.put("id", entry.id().value());
        out.put("parentId", entry.parentId() == null ? null : entry.parentId().value());
        out.put("agent", agent.value());
        if (entry.timestamp() != null) {
            out.put("timestamp", Instants.format(entry.timestamp()));
        }
        EntryKind kind = entry.payload().kind();
        out.put("kind", kind.wireName());
        out.set(payloadKey(kind), encodePayload(entry.payload()));
        if (entry.source() != null) {
            out.set("source", encodeSource(entry.source()));
        }
        return out;
    }

    /**
     * Decodes an entry.
     *
     * @param node the entry's canonical JSON, with its {@code seq}
     * @param location where the record is stored, named in errors
     * @return the entry
     * @throws CorruptRecordException if the JSON is not a valid entry
     */
    public static Entry decode(JsonNode node, String location) {
        StrictObject o = StrictObject.of(node, location).allowOnly(ENTRY_KEYS);
        return decode(o, o.longValue("seq"), location);
    }

    /** Decodes an entry whose seq is given apart from its fields (which a {@code seq} field there does not override). */
    private static Entry decode(StrictObject o, long seq, String location) {
        try {
            EntryKind kind = EntryKind.fromWireName(o.string("kind"));
            String key = payloadKey(kind);
            for (EntryKind other : EntryKind.values()) {
                if (other != kind && o.node().has(payloadKey(other))) {
                    throw o.fail("entry of kind " + kind.wireName() + " has a '" + payloadKey(other) + "' field");
                }
            }
            EntryPayload payload = decodePayload(kind, o.required(key), location + " " + key);
            String parent = o.optionalString("parentId");
            SourceRecord source = o.has("source") ? decodeSource(o.object("source")) : null;
            return new Entry(seq, new EntryId(o.string("id")), parent == null ? null : new EntryId(parent),
                    new AgentId(o.string("agent")), o.optionalInstant("timestamp"), payload, source);
        } catch (InvalidInputException e) {
            throw new CorruptRecordException(location, e.getMessage(), e);
        }
    }

    /**
     * Decodes an entry from JSON text.
     *
     * @param text the entry's canonical JSON text, with its {@code seq}
     * @param location where the record is stored, named in errors
     * @return the entry, as {@link #decode(JsonNode, String)} of the parsed text returns it
     * @throws CorruptRecordException if the text is not a valid entry
     */
    public static Entry decode(String text, String location) {
        Entry entry = EntryStreamDecoder.decodeRecord(parser(text), null);
        return entry != null ? entry : decode(parseRecord(text, location), location);
    }

    /**
     * Reads the fields that a container of entries adds around an entry's own fields in one record (a file's line
     * type, a batch marker), for {@link #tryDecode}.
     */
    @FunctionalInterface
    public interface EnvelopeReader {
        /**
         * Reads the value of the field {@code name}, whose first token is the parser's current token, leaving the
         * parser at its last token ({@link JsonParser#skipChildren()} for a container).
         *
         * @param name the field's name
         * @param p the parser, at the field value's first token
         * @return false if {@code name} is not a field of the envelope, or its value is not one the reader takes: the
         *     record is then not decoded here
         * @throws IOException if the parser fails
         */
        boolean read(String name, JsonParser p) throws IOException;
    }

    /**
     * Decodes a record of UTF-8 bytes that holds an entry and the fields of an envelope, in one pass over its tokens,
     * for the common shape of a record only (a message entry). It accepts nothing that {@link #decode(JsonNode,
     * String)} of the record less its envelope would refuse, and returns what that returns.
     *
     * @param bytes the buffer holding the record
     * @param offset where the record starts in {@code bytes}
     * @param length the record's length, in bytes
     * @param envelope reads the envelope's fields; any field that neither it nor an entry has declines the record
     * @return the entry, or null when the record is not of the common shape or is not valid: decode it through the
     *     tree then, which returns the entry or throws the {@link CorruptRecordException} that names the fault
     */
    public static @Nullable Entry tryDecode(byte[] bytes, int offset, int length, EnvelopeReader envelope) {
        try {
            return EntryStreamDecoder.decodeRecord(Json.mapper().getFactory().createParser(bytes, offset, length),
                    envelope);
        } catch (IOException e) {
            return null;
        }
    }

    private static JsonParser parser(String text) {
        try {
            return Json.mapper().getFactory().createParser(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a parser over a String reads no I/O
        }
    }

    /**
     * An entry as a database row stores it: its canonical JSON without the seq, which the row keeps in a column of its
     * own (the store assigns it on insert).
     *
     * @param entry the entry
     * @return the compact JSON text of its canonical form, without {@code seq}
     */
    public static String encodeRow(Entry entry) {
        return encodeRow(entry.toNewEntry(), entry.agentId());
    }

    /**
     * An entry about to be appended by {@code agent}, as a database row stores it: {@link #encodeRow(Entry)} of the
     * entry it becomes, whatever seq the store then assigns.
     *
     * @param entry the entry to append
     * @param agent the agent appending it
     * @return the compact JSON text of its canonical form, without {@code seq}
     */
    public static String encodeRow(NewEntry entry, AgentId agent) {
        return Json.write(encodeFields(Json.object(), entry, agent));
    }

    /**
     * Decodes a row written by {@link #encodeRow}: the body, the seq column, and the entry id column, which must agree
     * with the body.
     *
     * @param body the row's JSON body, as {@link #encodeRow} wrote it
     * @param seq the row's seq; a {@code seq} field in the body does not override it
     * @param entryId the row's entry id
     * @param location where the row is, named in errors
     * @return the entry, with {@code seq}
     * @throws CorruptRecordException naming {@code location} if the body is not a valid entry or names another id
     */
    public static Entry decodeRow(String body, long seq, String entryId, String location) {
        return decodeRow(body, seq, entryId, () -> location);
    }

    /**
     * As {@link #decodeRow(String, long, String, String)}, with the location made only when a fault is named (a load
     * decodes every row of a session, and almost all of them are sound).
     *
     * @param body the row's JSON body, as {@link #encodeRow} wrote it
     * @param seq the row's seq; a {@code seq} field in the body does not override it
     * @param entryId the row's entry id
     * @param where makes the location of the row, named in errors; called only when the body is not decoded on the
     *     fast path
     * @return the entry, with {@code seq}
     * @throws CorruptRecordException naming the location if the body is not a valid entry or names another id
     */
    public static Entry decodeRow(String body, long seq, String entryId, Supplier<String> where) {
        Entry streamed = EntryStreamDecoder.decodeRow(parser(body), seq);
        if (streamed != null && streamed.id().value().equals(entryId)) {
            return streamed;
        }
        String location = where.get();
        Entry entry = decode(StrictObject.of(parseRecord(body, location), location).allowOnly(ENTRY_KEYS), seq,
                location);
        if (!entry.id().value().equals(entryId)) {
            throw new CorruptRecordException(location, "the body's id " + entry.id() + " differs from the row's "
                    + entryId);
        }
        return entry;
    }

    /**
     * Parses JSON text, failing with a {@link CorruptRecordException} naming {@code location}.
     *
     * @param text the JSON text
     * @param location where the text is stored, named in errors
     * @return the value, of any JSON type
     * @throws CorruptRecordException if the text is not one well-formed JSON value
     */
    public static JsonNode parseRecord(String text, String location) {
        try {
            return Json.parse(text);
        } catch (JsonProcessingException e) {
            throw new CorruptRecordException(location, Json.unreadable(e), e);
        }
    }

    /**
     * The key an entry's payload is stored under, for its kind.
     *
     * @param kind the entry kind
     * @return the key ({@code message}, {@code modelChange}, …)
     */
    public static String payloadKey(EntryKind kind) {
        return switch (kind) {
            case MESSAGE -> "message";
            case COMPACTION -> "compaction";
            case MODEL_CHANGE -> "modelChange";
            case THINKING_LEVEL_CHANGE -> "thinkingLevelChange";
            case LABEL -> "label";
            case BRANCH_SUMMARY -> "branchSummary";
            case SESSION_NAME -> "sessionName";
            case CUSTOM -> "custom";
        };
    }

    /**
     * The canonical JSON of a payload (without its kind).
     *
     * @param payload the payload
     * @return a new object of the payload's fields; absent optional values are left out
     */
    public static ObjectNode encodePayload(EntryPayload payload) {
        ObjectNode out = Json.object();
        if (payload instanceof Message m) {
            return encodeMessage(m);
        } else if (payload instanceof EntryPayload.Compaction c) {
            putIfNotNull(out, "summary", c.summary());
            putIfNotNull(out, "firstKeptEntryId", c.firstKeptEntryId() == null ? null : c.firstKeptEntryId().value());
            if (c.tokensBefore() != null) {
                out.put("tokensBefore", c.tokensBefore());
            }
        } else if (payload instanceof EntryPayload.ModelChange mc) {
            putIfNotNull(out, "provider", mc.provider());
            out.put("model", mc.model());
        } else if (payload instanceof EntryPayload.ThinkingLevelChange t) {
            out.put("level", t.level());
        } else if (payload instanceof EntryPayload.Label l) {
            out.put("targetId", l.targetId().value());
            putIfNotNull(out, "label", l.label());
        } else if (payload instanceof EntryPayload.BranchSummary b) {
            putIfNotNull(out, "fromId", b.fromId() == null ? null : b.fromId().value());
            out.put("summary", b.summary());
        } else if (payload instanceof EntryPayload.SessionName s) {
            putIfNotNull(out, "name", s.name());
        } else if (payload instanceof EntryPayload.Custom c) {
            out.put("customType", c.customType());
            out.set("data", rawToNode(c.data()));
        }
        return out;
    }

    /**
     * Decodes a payload of the given kind.
     *
     * @param kind the kind the payload must be of
     * @param node the payload's JSON
     * @param location where the payload is stored, named in errors
     * @return the payload, of {@code kind}
     * @throws CorruptRecordException if it is not valid
     */
    public static EntryPayload decodePayload(EntryKind kind, JsonNode node, String location) {
        StrictObject o = StrictObject.of(node, location);
        try {
            return switch (kind) {
                case MESSAGE -> decodeMessage(node, location);
                case COMPACTION -> {
                    o.allowOnly(Set.of("summary", "firstKeptEntryId", "tokensBefore"));
                    String kept = o.optionalString("firstKeptEntryId");
                    yield new EntryPayload.Compaction(o.optionalString("summary"),
                            kept == null ? null : new EntryId(kept), o.optionalLong("tokensBefore"));
                }
                case MODEL_CHANGE -> {
                    o.allowOnly(Set.of("provider", "model"));
                    yield new EntryPayload.ModelChange(o.optionalString("provider"), o.string("model"));
                }
                case THINKING_LEVEL_CHANGE -> {
                    o.allowOnly(Set.of("level"));
                    yield new EntryPayload.ThinkingLevelChange(o.string("level"));
                }
                case LABEL -> {
                    o.allowOnly(Set.of("targetId", "label"));
                    yield new EntryPayload.Label(new EntryId(o.string("targetId")), o.optionalString("label"));
                }
                case BRANCH_SUMMARY -> {
                    o.allowOnly(Set.of("fromId", "summary"));
                    String from = o.optionalString("fromId");
                    yield new EntryPayload.BranchSummary(from == null ? null : new EntryId(from), o.string("summary"));
                }
                case SESSION_NAME -> {
                    o.allowOnly(Set.of("name"));
                    yield new EntryPayload.SessionName(o.optionalString("name"));
                }
                case CUSTOM -> {
                    o.allowOnly(Set.of("customType", "data"));
                    yield new EntryPayload.Custom(o.string("customType"), nodeToRaw(o.required("data")));
                }
            };
        } catch (InvalidInputException e) {
            throw new CorruptRecordException(location, e.getMessage(), e);
        }
    }

    // ---- messages ----

    /**
     * The canonical JSON of a message.
     *
     * @param m the message
     * @return a new object; {@code content} is a string for plain text, else a list of blocks
     */
    public static ObjectNode encodeMessage(Message m) {
        ObjectNode out = Json.object();
        out.put("role", m.role().name());
        if (m.plainText()) {
            out.put("content", ((ContentBlock.Text) m.content().get(0)).text());
        } else {
            out.set("content", encodeBlocks(m.content()));
        }
        putIfNotNull(out, "provider", m.provider());
        putIfNotNull(out, "model", m.model());
        if (m.usage() != null) {
            out.set("usage", encodeUsage(m.usage()));
        }
        putIfNotNull(out, "stopReason", m.stopReason());
        putIfNotNull(out, "errorMessage", m.errorMessage());
        if (m.createdAt() != null) {
            out.put("createdAt", Instants.format(m.createdAt()));
        }
        putIfNotNull(out, "responseId", m.responseId());
        if (!m.metadata().isEmpty()) {
            out.set("metadata", encodeRawMap(m.metadata()));
        }
        return out;
    }

    /**
     * Decodes a message.
     *
     * @param node the message's JSON
     * @param location where the message is stored, named in errors
     * @return the message
     * @throws CorruptRecordException if it is not valid
     */
    public static Message decodeMessage(JsonNode node, String location) {
        StrictObject o = StrictObject.of(node, location).allowOnly(MESSAGE_KEYS);
        try {
            Message.Builder b = Message.builder(Role.of(o.string("role")));
            JsonNode content = o.required("content");
            if (content.isTextual()) {
                b.plainText(content.textValue());
            } else if (content.isArray()) {
                b.content(decodeBlocks(content, location + " content"));
            } else {
                throw o.fail("message content is neither a string nor a list");
            }
            b.provider(o.optionalString("provider"))
                    .model(o.optionalString("model"))
                    .usage(o.has("usage") ? decodeUsage(o.required("usage"), location + " usage") : null)
                    .stopReason(o.optionalString("stopReason"))
                    .errorMessage(o.optionalString("errorMessage"))
                    .createdAt(o.optionalInstant("createdAt"))
                    .responseId(o.optionalString("responseId"));
            if (o.has("metadata")) {
                b.metadata(decodeRawMap(o.required("metadata"), location + " metadata"));
            }
            return b.build();
        } catch (InvalidInputException e) {
            throw new CorruptRecordException(location, e.getMessage(), e);
        }
    }

    /**
     * The canonical JSON of content blocks.
     *
     * @param blocks the blocks, in order
     * @return a new array, one object per block in order
     */
    public static ArrayNode encodeBlocks(List<ContentBlock> blocks) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (ContentBlock block : blocks) {
            out.add(encodeBlock(block));
        }
        return out;
    }

    /**
     * The canonical JSON of one content block.
     *
     * @param block the block
     * @return a new object, its {@code type} naming the kind of block
     */
    public static ObjectNode encodeBlock(ContentBlock block) {
        ObjectNode o = Json.object();
        if (block instanceof ContentBlock.Text t) {
            o.put("type", "text");
            o.put("text", t.text());
        } else if (block instanceof ContentBlock.Thinking t) {
            o.put("type", "thinking");
            o.put("text", t.text());
            putIfNotNull(o, "signature", t.signature());
        } else if (block instanceof ContentBlock.ToolCall c) {
            o.put("type", "toolCall");
            putIfNotNull(o, "id", c.id());
            o.put("name", c.name());
            o.set("arguments", rawToNode(c.arguments()));
        } else if (block instanceof ContentBlock.ToolResult r) {
            o.put("type", "toolResult");
            o.put("callId", r.callId());
            putIfNotNull(o, "toolName", r.toolName());
            if (r.plainText()) {
                o.put("content", ((ContentBlock.Text) r.content().get(0)).text());
            } else {
                o.set("content", encodeBlocks(r.content()));
            }
            if (r.isError()) {
                o.put("isError", true);
            }
        } else if (block instanceof ContentBlock.Image i) {
            o.put("type", "image");
            putIfNotNull(o, "mediaType", i.mediaType());
            putIfNotNull(o, "data", i.data());
            putIfNotNull(o, "url", i.url());
        } else if (block instanceof ContentBlock.File f) {
            o.put("type", "file");
            putIfNotNull(o, "mediaType", f.mediaType());
            putIfNotNull(o, "data", f.data());
            putIfNotNull(o, "url", f.url());
            putIfNotNull(o, "name", f.name());
        } else if (block instanceof ContentBlock.ProviderItem p) {
            o.put("type", "providerItem");
            o.put("itemType", p.type());
            o.set("item", rawToNode(p.item()));
        }
        return o;
    }

    /**
     * Decodes content blocks.
     *
     * @param node the JSON array of blocks
     * @param location where the blocks are stored, named in errors with the failing block's index
     * @return the blocks, in order; empty for an empty array
     * @throws CorruptRecordException if {@code node} is not an array, or one is not valid
     */
    public static List<ContentBlock> decodeBlocks(JsonNode node, String location) {
        if (!node.isArray()) {
            throw new CorruptRecordException(location, "content is not a list");
        }
        List<ContentBlock> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            out.add(decodeBlock(node.get(i), location + "[" + i + "]"));
        }
        return out;
    }

    /**
     * Decodes one content block.
     *
     * @param node the block's JSON
     * @param location where the block is stored, named in errors
     * @return the block
     * @throws CorruptRecordException if it is not valid
     */
    public static ContentBlock decodeBlock(JsonNode node, String location) {
        StrictObject o = StrictObject.of(node, location);
        try {
            String type = o.string("type");
            return switch (type) {
                case "text" -> {
                    o.allowOnly(Set.of("type", "text"));
                    yield new ContentBlock.Text(o.string("text"));
                }
                case "thinking" -> {
                    o.allowOnly(Set.of("type", "text", "signature"));
                    yield new ContentBlock.Thinking(o.string("text"), o.optionalString("signature"));
                }
                case "toolCall" -> {
                    o.allowOnly(Set.of("type", "id", "name", "arguments"));
                    yield new ContentBlock.ToolCall(o.optionalString("id"), o.string("name"),
                            nodeToRaw(o.required("arguments")));
                }
                case "toolResult" -> {
                    o.allowOnly(Set.of("type", "callId", "toolName", "content", "isError"));
                    JsonNode content = o.required("content");
                    boolean plain = content.isTextual();
                    List<ContentBlock> blocks = plain ? List.of(new ContentBlock.Text(content.textValue()))
                            : decodeBlocks(content, location + " content");
                    yield new ContentBlock.ToolResult(o.string("callId"), o.optionalString("toolName"), blocks,
                            o.bool("isError", false), plain);
                }
                case "image" -> {
                    o.allowOnly(Set.of("type", "mediaType", "data", "url"));
                    yield new ContentBlock.Image(o.optionalString("mediaType"), o.optionalString("data"),
                            o.optionalString("url"));
                }
                case "file" -> {
                    o.allowOnly(Set.of("type", "mediaType", "data", "url", "name"));
                    yield new ContentBlock.File(o.optionalString("mediaType"), o.optionalString("data"),
                            o.optionalString("url"), o.optionalString("name"));
                }
                case "providerItem" -> {
                    o.allowOnly(Set.of("type", "itemType", "item"));
                    yield new ContentBlock.ProviderItem(o.string("itemType"), nodeToRaw(o.required("item")));
                }
                default -> throw o.fail("unknown content block type '" + type + "'");
            };
        } catch (InvalidInputException e) {
            throw new CorruptRecordException(location, e.getMessage(), e);
        }
    }

    // ---- usage ----

    /**
     * The canonical JSON of usage; zero counts are left out.
     *
     * @param u the usage
     * @return a new object; empty for {@link Usage#ZERO}
     */
    public static ObjectNode encodeUsage(Usage u) {
        ObjectNode o = Json.object();
        putIfPositive(o, "input", u.inputTokens());
        putIfPositive(o, "output", u.outputTokens());
        putIfPositive(o, "cacheRead", u.cacheReadTokens());
        putIfPositive(o, "cacheWrite", u.cacheWriteTokens());
        putIfPositive(o, "reasoning", u.reasoningTokens());
        if (u.costUsd() != null) {
            o.put("costUsd", u.costUsd());
        }
        return o;
    }

    /**
     * Decodes usage.
     *
     * @param node the usage's JSON
     * @param location where the usage is stored, named in errors
     * @return the usage; a count left out is 0, and a cost left out is null
     * @throws CorruptRecordException if it is not valid
     */
    public static Usage decodeUsage(JsonNode node, String location) {
        StrictObject o = StrictObject.of(node, location)
                .allowOnly(Set.of("input", "output", "cacheRead", "cacheWrite", "reasoning", "costUsd"));
        try {
            return new Usage(o.optionalLong("input", 0), o.optionalLong("output", 0), o.optionalLong("cacheRead", 0),
                    o.optionalLong("cacheWrite", 0), o.optionalLong("reasoning", 0), o.optionalDecimal("costUsd"));
        } catch (InvalidInputException e) {
            throw new CorruptRecordException(location, e.getMessage(), e);
        }
    }

    // ---- source records and raw JSON ----

    private static ObjectNode encodeSource(SourceRecord source) {
        ObjectNode o = Json.object();
        o.put("format", source.format());
        if (source.residual() != null) {
            o.set("residual", rawToNode(source.residual()));
        }
        return o;
    }

    static SourceRecord decodeSource(StrictObject o) {
        o.allowOnly(Set.of("format", "residual"));
        JsonNode residual = o.optional("residual");
        return new SourceRecord(o.string("format"), residual == null ? null : nodeToRaw(residual));
    }

    /**
     * A {@link RawJson} as a JSON value: embedded when its text is the compact form of itself, otherwise wrapped as
     * {@code {"$json":"<text>"}} so that the exact text survives.
     *
     * @param raw the raw JSON
     * @return the parsed value, or the wrapper when the text is not the compact form of itself (or parses to such a
     *     wrapper)
     */
    public static JsonNode rawToNode(RawJson raw) {
        JsonNode parsed;
        try {
            parsed = Json.parse(raw.text());
        } catch (JsonProcessingException e) {
            return wrapRaw(raw.text());
        }
        if (!Json.write(parsed).equals(raw.text()) || isRawWrapper(parsed)) {
            return wrapRaw(raw.text());
        }
        return parsed;
    }

    /**
     * A payload as JSON for comparing what two payloads say: as {@link #encodePayload}, with each raw JSON value (tool
     * arguments, provider items, metadata, custom data) as the JSON it holds, where {@link #encodePayload} may keep its
     * exact text. Two payloads whose raw values differ only in spacing or key order give nodes that are
     * {@link Json#same} (objects compared by their members, numbers as written).
     *
     * @param payload the payload
     * @return a new node, to compare with {@link Json#same}
     */
    public static JsonNode comparable(EntryPayload payload) {
        ObjectNode node = encodePayload(payload);
        if (payload instanceof Message) {
            comparableBlocks(node.get("content"));
            comparableValues(node.get("metadata"));
        } else if (payload instanceof EntryPayload.Custom) {
            node.set("data", rawValue(node.get("data")));
        }
        return node;
    }

    /**
     * A source record as JSON for comparing what two say: its format, and its residual as the JSON it holds.
     *
     * @param source the source record
     * @return a new node, to compare with {@link Json#same}
     */
    public static JsonNode comparable(SourceRecord source) {
        ObjectNode node = encodeSource(source);
        if (node.has("residual")) {
            node.set("residual", rawValue(node.get("residual")));
        }
        return node;
    }

    /** The raw values of content blocks (encoded, changed in place), through tool results' own blocks. */
    private static void comparableBlocks(@Nullable JsonNode blocks) {
        if (blocks == null || !blocks.isArray()) {
            return; // plain text
        }
        for (JsonNode block : blocks) {
            ObjectNode b = (ObjectNode) block;
            for (String raw : new String[] {"arguments", "item"}) {
                if (b.has(raw)) {
                    b.set(raw, rawValue(b.get(raw)));
                }
            }
            comparableBlocks(b.get("content"));
        }
    }

    private static void comparableValues(@Nullable JsonNode map) {
        if (map instanceof ObjectNode o) {
            List<String> keys = new ArrayList<>();
            o.fieldNames().forEachRemaining(keys::add);
            keys.forEach(k -> o.set(k, rawValue(o.get(k))));
        }
    }

    /** An encoded raw value ({@link #rawToNode}) as the JSON its text holds: a wrapper's text parsed, if it parses. */
    private static JsonNode rawValue(JsonNode encoded) {
        if (isRawWrapper(encoded)) {
            try {
                return Json.parse(encoded.get(RAW_TEXT).textValue());
            } catch (JsonProcessingException e) {
                return encoded; // not JSON: compared by its text
            }
        }
        return encoded;
    }

    /**
     * The inverse of {@link #rawToNode}.
     *
     * @param node a value as {@link #rawToNode} gives it
     * @return the wrapped text of a {@code {"$json":…}} wrapper, else the node's compact text
     */
    public static RawJson nodeToRaw(JsonNode node) {
        if (isRawWrapper(node)) {
            return new RawJson(node.get(RAW_TEXT).textValue());
        }
        return new RawJson(Json.write(node));
    }

    /**
     * A map of raw JSON values (message or session metadata) as one JSON object.
     *
     * @param map the values by key
     * @return a new object, its keys in the map's iteration order, each value as {@link #rawToNode} gives it
     */
    public static ObjectNode encodeRawMap(Map<String, RawJson> map) {
        ObjectNode out = Json.object();
        map.forEach((k, v) -> out.set(k, rawToNode(v)));
        return out;
    }

    /**
     * The inverse of {@link #encodeRawMap}.
     *
     * @param node the JSON object
     * @param location where the object is stored, named in errors
     * @return a new map in the object's key order; empty for an empty object
     * @throws CorruptRecordException if the node is not an object
     */
    public static Map<String, RawJson> decodeRawMap(JsonNode node, String location) {
        StrictObject o = StrictObject.of(node, location);
        Map<String, RawJson> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = o.node().fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), nodeToRaw(e.getValue()));
        }
        return out;
    }

    private static ObjectNode wrapRaw(String text) {
        ObjectNode o = Json.object();
        o.set(RAW_TEXT, TextNode.valueOf(text));
        return o;
    }

    private static boolean isRawWrapper(JsonNode node) {
        return node.isObject() && node.size() == 1 && node.has(RAW_TEXT) && node.get(RAW_TEXT).isTextual();
    }

    private static void putIfNotNull(ObjectNode o, String key, @Nullable String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    private static void putIfPositive(ObjectNode o, String key, long value) {
        if (value != 0) {
            o.put(key, value);
        }
    }
}
