package dev.parley.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryKind;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.SourceRecord;
import dev.parley.core.model.Usage;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the common shape of a stored entry — a message entry — in one pass over the parser's tokens, without
 * building the tree that {@link EntryCodec#decode(JsonNode, String)} walks. Loading a session decodes every entry it
 * holds, and the tree (a map per object, a node per value) cost as much as the parse itself.
 *
 * <p>It is a shortcut and never a second definition of the format: it accepts only what the tree decoder accepts,
 * and returns what the tree decoder returns. Whatever it does not handle — any other kind of entry, a key it does
 * not know or meets twice, a value of an unexpected type, anything the model refuses, trailing text — makes it
 * return null, and the caller decodes the record through the tree, which returns the entry or throws the error that
 * names what is wrong and where. Text, thinking and tool call blocks and usage are read here too; raw JSON values
 * (a tool call's arguments, metadata) and source records are read as trees of their own and handed to the tree
 * decoder's methods for those values.
 *
 * <p>Stateless and thread-safe.
 */
final class EntryStreamDecoder {
    /** Reads a value within a record: the record's trailing tokens are not this read's business. */
    private static final ObjectReader VALUE = Json.mapper().reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final int SEQ = 1;
    private static final int ID = 1 << 1;
    private static final int PARENT = 1 << 2;
    private static final int AGENT = 1 << 3;
    private static final int TIMESTAMP = 1 << 4;
    private static final int KIND = 1 << 5;
    private static final int MESSAGE = 1 << 6;
    private static final int SOURCE = 1 << 7;

    private static final int ROLE = 1;
    private static final int CONTENT = 1 << 1;
    private static final int PROVIDER = 1 << 2;
    private static final int MODEL = 1 << 3;
    private static final int USAGE = 1 << 4;
    private static final int STOP_REASON = 1 << 5;
    private static final int ERROR_MESSAGE = 1 << 6;
    private static final int CREATED_AT = 1 << 7;
    private static final int RESPONSE_ID = 1 << 8;
    private static final int METADATA = 1 << 9;

    private EntryStreamDecoder() {}

    /**
     * Decodes an entry record: the JSON object the parser is about to read (its next token must start it), with its
     * {@code seq} field, and requires the parser to end after it. Closes the parser.
     *
     * @param envelope reads the fields around the entry that the record's container adds, or null for none
     * @return the entry, or null when the record is not one this decoder handles (decode it through the tree then)
     */
    static @Nullable Entry decodeRecord(JsonParser p, EntryCodec.@Nullable EnvelopeReader envelope) {
        return decode(p, false, 0, envelope);
    }

    /**
     * Decodes a row's body, as {@link #decodeRecord} does a record, with the row's seq: a {@code seq} field in the
     * body is ignored, as {@code EntryCodec.decodeRow} ignores it, once it is an integer (anything else is declined,
     * for the tree to read or refuse).
     */
    static @Nullable Entry decodeRow(JsonParser p, long seq) {
        return decode(p, true, seq, null);
    }

    private static @Nullable Entry decode(JsonParser p, boolean rowSeq, long seq,
            EntryCodec.@Nullable EnvelopeReader envelope) {
        try (p) {
            Entry entry = read(p, rowSeq, seq, envelope);
            return entry != null && p.nextToken() == null ? entry : null;
        } catch (IOException | RuntimeException e) {
            return null; // the tree decoder names the fault, or accepts what this one declined
        }
    }

    private static @Nullable Entry read(JsonParser p, boolean rowSeq, long seq,
            EntryCodec.@Nullable EnvelopeReader envelope) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        int seen = 0;
        String id = null;
        String parent = null;
        String agent = null;
        Instant timestamp = null;
        String kind = null;
        Message message = null;
        SourceRecord source = null;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            int bit;
            switch (name) {
                case "seq" -> {
                    bit = SEQ;
                    if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        return null;
                    }
                    long field = p.getLongValue();
                    seq = rowSeq ? seq : field;
                }
                case "id" -> {
                    bit = ID;
                    id = text(p, t);
                }
                case "parentId" -> {
                    bit = PARENT;
                    parent = optionalText(p, t);
                }
                case "agent" -> {
                    bit = AGENT;
                    agent = text(p, t);
                }
                case "timestamp" -> {
                    bit = TIMESTAMP;
                    timestamp = optionalInstant(p, t);
                }
                case "kind" -> {
                    bit = KIND;
                    kind = text(p, t);
                }
                case "message" -> {
                    bit = MESSAGE;
                    message = t == JsonToken.START_OBJECT ? readMessage(p) : null;
                    if (message == null) {
                        return null;
                    }
                }
                case "source" -> {
                    bit = SOURCE;
                    if (t == JsonToken.START_OBJECT) {
                        source = EntryCodec.decodeSource(StrictObject.of(VALUE.readTree(p), "source"));
                    } else if (t != JsonToken.VALUE_NULL) {
                        return null;
                    }
                }
                default -> {
                    if (envelope == null || !envelope.read(name, p)) {
                        return null; // another kind's payload, or a key the format does not have
                    }
                    bit = 0;
                }
            }
            if ((seen & bit) != 0) {
                return null; // a repeated key: the tree keeps the last value, and says so through its own reading
            }
            seen |= bit;
        }
        if (id == null || agent == null || message == null || kind == null
                || EntryKind.fromWireName(kind) != EntryKind.MESSAGE || !rowSeq && (seen & SEQ) == 0) {
            return null;
        }
        return new Entry(seq, new EntryId(id), parent == null ? null : new EntryId(parent), new AgentId(agent),
                timestamp, message, source);
    }

    /** The message object whose START_OBJECT the parser is at, or null if it is not one this decoder handles. */
    private static @Nullable Message readMessage(JsonParser p) throws IOException {
        int seen = 0;
        String role = null;
        String plain = null;
        List<ContentBlock> blocks = null;
        String provider = null;
        String model = null;
        Usage usage = null;
        String stopReason = null;
        String errorMessage = null;
        Instant createdAt = null;
        String responseId = null;
        Map<String, RawJson> metadata = null;
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            int bit;
            switch (name) {
                case "role" -> {
                    bit = ROLE;
                    role = text(p, t);
                }
                case "content" -> {
                    bit = CONTENT;
                    if (t == JsonToken.VALUE_STRING) {
                        plain = p.getText();
                    } else if (t == JsonToken.START_ARRAY) {
                        blocks = readBlocks(p);
                        if (blocks == null) {
                            return null;
                        }
                    } else {
                        return null;
                    }
                }
                case "provider" -> {
                    bit = PROVIDER;
                    provider = optionalText(p, t);
                }
                case "model" -> {
                    bit = MODEL;
                    model = optionalText(p, t);
                }
                case "usage" -> {
                    bit = USAGE;
                    if (t == JsonToken.START_OBJECT) {
                        usage = readUsage(p);
                    } else if (t != JsonToken.VALUE_NULL) {
                        return null;
                    }
                }
                case "stopReason" -> {
                    bit = STOP_REASON;
                    stopReason = optionalText(p, t);
                }
                case "errorMessage" -> {
                    bit = ERROR_MESSAGE;
                    errorMessage = optionalText(p, t);
                }
                case "createdAt" -> {
                    bit = CREATED_AT;
                    createdAt = optionalInstant(p, t);
                }
                case "responseId" -> {
                    bit = RESPONSE_ID;
                    responseId = optionalText(p, t);
                }
                case "metadata" -> {
                    bit = METADATA;
                    if (t != JsonToken.VALUE_NULL) {
                        JsonNode node = VALUE.readTree(p);
                        metadata = EntryCodec.decodeRawMap(node, "metadata");
                    }
                }
                default -> {
                    return null;
                }
            }
            if ((seen & bit) != 0) {
                return null;
            }
            seen |= bit;
        }
        if (role == null || plain == null && blocks == null) {
            return null;
        }
        Message.Builder b = Message.builder(Role.of(role));
        if (plain != null) {
            b.plainText(plain);
        } else {
            b.content(blocks);
        }
        b.provider(provider).model(model).usage(usage).stopReason(stopReason).errorMessage(errorMessage)
                .createdAt(createdAt).responseId(responseId);
        if (metadata != null) {
            b.metadata(metadata);
        }
        return b.build();
    }

    /** The content blocks whose START_ARRAY the parser is at, or null if one is not of a shape handled here. */
    private static @Nullable List<ContentBlock> readBlocks(JsonParser p) throws IOException {
        List<ContentBlock> blocks = new ArrayList<>(4);
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            ContentBlock block = t == JsonToken.START_OBJECT ? readBlock(p) : null;
            if (block == null) {
                return null;
            }
            blocks.add(block);
        }
        return blocks;
    }

    private static final int B_TYPE = 1;
    private static final int B_TEXT = 1 << 1;
    private static final int B_SIGNATURE = 1 << 2;
    private static final int B_ID = 1 << 3;
    private static final int B_NAME = 1 << 4;
    private static final int B_ARGUMENTS = 1 << 5;

    /**
     * The block whose START_OBJECT the parser is at. Text, thinking and tool call blocks (the blocks of almost every
     * message) are read here when their {@code type} comes first, as Parley writes it; any other block is read into a
     * tree and decoded by the tree decoder. Null if the block is not valid.
     */
    private static @Nullable ContentBlock readBlock(JsonParser p) throws IOException {
        String first = p.nextFieldName();
        if (first == null) {
            return null;
        }
        JsonToken t = p.nextToken();
        String type = first.equals("type") && t == JsonToken.VALUE_STRING ? p.getText() : null;
        if (type == null || !(type.equals("text") || type.equals("thinking") || type.equals("toolCall"))) {
            ObjectNode block = Json.object();
            String field = first;
            while (field != null) {
                block.set(field, valueTree(p, t));
                field = p.nextFieldName();
                if (field != null) {
                    t = p.nextToken();
                }
            }
            return EntryCodec.decodeBlock(block, "content");
        }
        int seen = B_TYPE;
        String text = null;
        String signature = null;
        String id = null;
        String name = null;
        RawJson arguments = null;
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            t = p.nextToken();
            int bit;
            switch (field) {
                case "type" -> {
                    bit = B_TYPE;
                    type = text(p, t);
                }
                case "text" -> {
                    bit = B_TEXT;
                    text = text(p, t);
                }
                case "signature" -> {
                    bit = B_SIGNATURE;
                    signature = optionalText(p, t);
                }
                case "id" -> {
                    bit = B_ID;
                    id = optionalText(p, t);
                }
                case "name" -> {
                    bit = B_NAME;
                    name = text(p, t);
                }
                case "arguments" -> {
                    bit = B_ARGUMENTS;
                    arguments = EntryCodec.nodeToRaw(valueTree(p, t));
                }
                default -> {
                    return null;
                }
            }
            if ((seen & bit) != 0) {
                return null;
            }
            seen |= bit;
        }
        return switch (type) {
            case "text" -> seen == (B_TYPE | B_TEXT) ? new ContentBlock.Text(text) : null;
            case "thinking" -> (seen & ~B_SIGNATURE) == (B_TYPE | B_TEXT) ? new ContentBlock.Thinking(text, signature)
                    : null;
            case "toolCall" -> (seen & ~B_ID) == (B_TYPE | B_NAME | B_ARGUMENTS)
                    ? new ContentBlock.ToolCall(id, name, arguments) : null;
            default -> null;
        };
    }

    private static final String[] USAGE_COUNTS = {"input", "output", "cacheRead", "cacheWrite", "reasoning"};

    /** The usage object whose START_OBJECT the parser is at; {@link Declined} for anything but counts and a cost. */
    private static Usage readUsage(JsonParser p) throws IOException {
        long[] counts = new long[USAGE_COUNTS.length];
        int seen = 0;
        BigDecimal cost = null;
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            int i = 0;
            while (i < USAGE_COUNTS.length && !USAGE_COUNTS[i].equals(field)) {
                i++;
            }
            int bit = 1 << i;
            if ((seen & bit) != 0) {
                throw new Declined();
            }
            seen |= bit;
            if (i < USAGE_COUNTS.length) {
                if (t == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    counts[i] = p.getLongValue();
                } else if (t != JsonToken.VALUE_NULL) {
                    throw new Declined();
                }
            } else if (field.equals("costUsd")) {
                if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                    cost = p.getDecimalValue();
                } else if (t == JsonToken.VALUE_NUMBER_INT) {
                    cost = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            ? new BigDecimal(p.getBigIntegerValue()) : BigDecimal.valueOf(p.getLongValue());
                } else if (t != JsonToken.VALUE_NULL) {
                    throw new Declined();
                }
            } else {
                throw new Declined();
            }
        }
        return new Usage(counts[0], counts[1], counts[2], counts[3], counts[4], cost);
    }

    /** The value whose first token {@code t} is, as the tree decoder sees it (JSON null as a null node). */
    private static JsonNode valueTree(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_NULL ? NullNode.getInstance() : VALUE.readTree(p);
    }

    /** A required string: any other token (JSON null too) is a value the tree decoder refuses. */
    private static String text(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_STRING) {
            throw new Declined();
        }
        return p.getText();
    }

    /** An optional string: JSON null reads as absent, as {@link StrictObject#optionalString} reads it. */
    private static @Nullable String optionalText(JsonParser p, JsonToken t) throws IOException {
        return t == JsonToken.VALUE_NULL ? null : text(p, t);
    }

    private static @Nullable Instant optionalInstant(JsonParser p, JsonToken t) throws IOException {
        String text = optionalText(p, t);
        if (text == null) {
            return null;
        }
        Instant at = Instants.parseOrNull(text);
        if (at == null) {
            throw new Declined();
        }
        return at;
    }

    /** Leaves a record to the tree decoder; carries no stack trace (it is caught in {@link #decode}). */
    private static final class Declined extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Declined() {
            super(null, null, false, false);
        }
    }
}
