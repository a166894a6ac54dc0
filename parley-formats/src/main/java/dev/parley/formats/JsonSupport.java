package dev.parley.formats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.EntryId;
import dev.parley.core.Ids;
import dev.parley.core.RawJson;
import dev.parley.core.model.SourceRecord;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.JsonResidual;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Small JSON helpers shared by the format codecs. */
final class JsonSupport {
    private JsonSupport() {}

    static ObjectNode object() {
        return Json.object();
    }

    static ArrayNode array() {
        return Json.mapper().createArrayNode();
    }

    /** The text of a string field, or null when absent, null or not a string. */
    static @Nullable String text(JsonNode node, String key) {
        JsonNode v = node.get(key);
        return v != null && v.isTextual() ? v.textValue() : null;
    }

    /** The value of an integral field, or null when absent or not an integer that fits a long. */
    static @Nullable Long longOrNull(JsonNode node, String key) {
        JsonNode v = node.get(key);
        return v != null && v.isIntegralNumber() && v.canConvertToLong() ? v.longValue() : null;
    }

    static long longOr(JsonNode node, String key, long otherwise) {
        Long v = longOrNull(node, key);
        return v == null || v < 0 ? otherwise : v;
    }

    /** An ISO-8601 instant field, or null. */
    static @Nullable Instant instant(JsonNode node, String key) {
        String t = text(node, key);
        return t == null ? null : Instants.parseOrNull(t);
    }

    /** An epoch-milliseconds field as an instant, or null. */
    static @Nullable Instant epochMillis(JsonNode node, String key) {
        Long ms = longOrNull(node, key);
        return ms == null ? null : Instant.ofEpochMilli(ms);
    }

    static void putText(ObjectNode o, String key, @Nullable String value) {
        if (value != null) {
            o.put(key, value);
        }
    }

    static void putNullable(ObjectNode o, String key, @Nullable String value) {
        if (value == null) {
            o.set(key, NullNode.getInstance());
        } else {
            o.put(key, value);
        }
    }

    static void putId(ObjectNode o, String key, @Nullable EntryId id) {
        putNullable(o, key, id == null ? null : id.value());
    }

    static @Nullable EntryId entryIdOrNull(@Nullable String value) {
        return value != null && Ids.isValid(value) ? new EntryId(value) : null;
    }

    /** Raw JSON that holds a parsed value, in compact form. */
    static RawJson raw(JsonNode node) {
        return Json.raw(node);
    }

    /** Raw JSON as a node: parsed when it is JSON, otherwise the text as a JSON string. */
    static JsonNode node(RawJson raw) {
        try {
            return Json.parse(raw.text());
        } catch (JsonProcessingException e) {
            return JsonNodeFactory.instance.textNode(raw.text());
        }
    }

    /** The source record of an imported entry: its format and what the encoder cannot reproduce. */
    static SourceRecord source(Format format, JsonNode sourceRecord, JsonNode encoded) {
        JsonNode residual = JsonResidual.diff(sourceRecord, encoded);
        return new SourceRecord(format.cliName(), residual == null ? null : Json.raw(residual));
    }

    /** Applies an entry's residual to the encoder's output. */
    static JsonNode restore(JsonNode encoded, SourceRecord source) {
        return source.residual() == null ? encoded : JsonResidual.apply(encoded, Json.tree(source.residual()));
    }
}
