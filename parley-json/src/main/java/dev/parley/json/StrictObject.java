package dev.parley.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.CorruptRecordException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Iterator;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Strict reading of one JSON object: every accessor fails with a {@link CorruptRecordException} that names the
 * record's location and the field, and {@link #allowOnly} rejects unknown keys.
 */
public final class StrictObject {
    private final ObjectNode node;
    private final String location;

    private StrictObject(ObjectNode node, String location) {
        this.node = node;
        this.location = location;
    }

    /**
     * Wraps a node that must be an object.
     *
     * @param node the node to read
     * @param location where the record is (a file and line, a table and key), for error messages
     * @return the object, read strictly; not a copy: it reads {@code node} as it is
     * @throws CorruptRecordException if the node is not an object
     */
    public static StrictObject of(JsonNode node, String location) {
        if (node == null || !node.isObject()) {
            throw new CorruptRecordException(location, "expected a JSON object, found "
                    + (node == null ? "nothing" : typeOf(node)));
        }
        return new StrictObject((ObjectNode) node, location);
    }

    /**
     * The wrapped node.
     *
     * @return the node given to {@link #of}, not a copy
     */
    public ObjectNode node() {
        return node;
    }

    /**
     * Where the record is.
     *
     * @return the location given to {@link #of}
     */
    public String location() {
        return location;
    }

    /**
     * Checks that the object has no key but the allowed ones; it need not have them all.
     *
     * @param allowed the keys the object may have
     * @return this object, for chaining
     * @throws CorruptRecordException if the object has a key outside {@code allowed}
     */
    public StrictObject allowOnly(Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw fail("unknown field '" + name + "'");
            }
        }
        return this;
    }

    /**
     * Whether the key is present with a non-null value.
     *
     * @param key the key
     * @return true if the key is present and its value is not JSON {@code null}
     */
    public boolean has(String key) {
        JsonNode v = node.get(key);
        return v != null && !v.isNull();
    }

    /**
     * The value, which must be present; a JSON {@code null} is returned as it is (a {@code NullNode}), for the caller
     * to accept or refuse.
     *
     * @param key the key
     * @return the value, a {@code NullNode} for JSON {@code null}
     * @throws CorruptRecordException if the key is absent, naming it and this record's location
     */
    public JsonNode required(String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            throw fail("missing field '" + key + "'");
        }
        return v;
    }

    /**
     * The value, or null when absent or JSON null.
     *
     * @param key the key
     * @return the value, of any type; null when the key is absent or its value is JSON {@code null}
     */
    public @Nullable JsonNode optional(String key) {
        JsonNode v = node.get(key);
        return v == null || v.isNull() ? null : v;
    }

    /**
     * The text of a required string field.
     *
     * @param key the key
     * @return the string, possibly empty
     * @throws CorruptRecordException if the field is missing, JSON null, or not a string
     */
    public String string(String key) {
        JsonNode v = required(key);
        if (!v.isTextual()) {
            throw fail("field '" + key + "' is not a string");
        }
        return v.textValue();
    }

    /**
     * The text of an optional string field, or null when it is absent or JSON null.
     *
     * @param key the key
     * @return the string, possibly empty; null when the key is absent or its value is JSON {@code null}
     * @throws CorruptRecordException if the field is present and neither JSON null nor a string
     */
    public @Nullable String optionalString(String key) {
        JsonNode v = optional(key);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw fail("field '" + key + "' is not a string");
        }
        return v.textValue();
    }

    /**
     * The value of a required integer field. A number with a fraction part, even {@code 1.0}, is not an integer.
     *
     * @param key the key
     * @return the integer
     * @throws CorruptRecordException if the field is missing, JSON null, not an integer, or outside the range of
     *     {@code long}
     */
    public long longValue(String key) {
        JsonNode v = required(key);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw fail("field '" + key + "' is not an integer");
        }
        return v.longValue();
    }

    /**
     * The value of an optional integer field, or {@code otherwise} when it is absent or JSON null.
     *
     * @param key the key
     * @param otherwise the value when the key is absent or its value is JSON {@code null}
     * @return the integer, or {@code otherwise}
     * @throws CorruptRecordException if the field is present and not an integer in the range of {@code long}
     */
    public long optionalLong(String key, long otherwise) {
        return has(key) ? longValue(key) : otherwise;
    }

    /**
     * The value of an optional integer field, or null when it is absent or JSON null.
     *
     * @param key the key
     * @return the integer; null when the key is absent or its value is JSON {@code null}
     * @throws CorruptRecordException if the field is present and not an integer in the range of {@code long}
     */
    public @Nullable Long optionalLong(String key) {
        return has(key) ? longValue(key) : null;
    }

    /**
     * The value of an optional boolean field, or {@code otherwise} when it is absent or JSON null.
     *
     * @param key the key
     * @param otherwise the value when the key is absent or its value is JSON {@code null}
     * @return the boolean, or {@code otherwise}
     * @throws CorruptRecordException if the field is present and neither JSON null nor a boolean
     */
    public boolean bool(String key, boolean otherwise) {
        JsonNode v = optional(key);
        if (v == null) {
            return otherwise;
        }
        if (!v.isBoolean()) {
            throw fail("field '" + key + "' is not a boolean");
        }
        return v.booleanValue();
    }

    /**
     * The value of an optional number field, integer or not, exactly as a decimal; null when it is absent or JSON
     * null.
     *
     * @param key the key
     * @return the number as a decimal; null when the key is absent or its value is JSON {@code null}
     * @throws CorruptRecordException if the field is present and neither JSON null nor a number
     */
    public @Nullable BigDecimal optionalDecimal(String key) {
        JsonNode v = optional(key);
        if (v == null) {
            return null;
        }
        if (!v.isNumber()) {
            throw fail("field '" + key + "' is not a number");
        }
        return v.decimalValue();
    }

    /**
     * The instant of an optional ISO-8601 string field ({@code Z} or an offset, any precision, kept as written); null
     * when it is absent or JSON null. The years 0000 to 9999 are not enforced here.
     *
     * @param key the key
     * @return the instant; null when the key is absent or its value is JSON {@code null}
     * @throws CorruptRecordException if the field is present and not a string that parses as an instant
     */
    public @Nullable Instant optionalInstant(String key) {
        String text = optionalString(key);
        if (text == null) {
            return null;
        }
        Instant at = Instants.parseOrNull(text);
        if (at == null) {
            throw fail("field '" + key + "' is not an ISO-8601 instant: " + text);
        }
        return at;
    }

    /**
     * The instant of a required ISO-8601 string field, read as by {@link #optionalInstant(String)}.
     *
     * @param key the key
     * @return the instant
     * @throws CorruptRecordException if the field is missing or JSON null, or not a string that parses as an instant
     */
    public Instant instant(String key) {
        Instant at = optionalInstant(key);
        if (at == null) {
            throw fail("missing field '" + key + "'");
        }
        return at;
    }

    /**
     * A required object field, wrapped; its failures name the location {@code <this location> field '<key>'}.
     *
     * @param key the key
     * @return the field's object, read strictly
     * @throws CorruptRecordException if the field is missing or is not an object (JSON null included)
     */
    public StrictObject object(String key) {
        return of(required(key), location + " field '" + key + "'");
    }

    /**
     * A field that must be a JSON array.
     *
     * @param key the key
     * @return the field's array, not a copy
     * @throws CorruptRecordException if the field is missing or is not an array (JSON null included)
     */
    public ArrayNode array(String key) {
        JsonNode v = required(key);
        if (!v.isArray()) {
            throw fail("field '" + key + "' is " + typeOf(v) + ", not an array");
        }
        return (ArrayNode) v;
    }

    private static String typeOf(JsonNode node) {
        return node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * A failure naming this record's location.
     *
     * @param detail what is wrong, without the location
     * @return the exception, for the caller to throw; this method does not throw it
     */
    public CorruptRecordException fail(String detail) {
        return new CorruptRecordException(location, detail);
    }
}
