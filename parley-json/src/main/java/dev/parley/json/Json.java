package dev.parley.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.RawJson;
import java.util.Iterator;
import java.util.Map;

/**
 * The shared Jackson setup and the small JSON helpers every Parley codec uses.
 *
 * <p>Numbers are kept exactly: decimals as {@link java.math.BigDecimal} with their scale ({@code 1.10} stays
 * {@code 1.10}), integers at whatever size they have. Strings up to {@value #MAX_STRING_CHARS} characters are
 * accepted (a base64 image in a tool result is typically 100 KB).
 *
 * <p>Thread-safe.
 */
public final class Json {
    /** The longest JSON string value accepted, in characters. */
    public static final int MAX_STRING_CHARS = 64 * 1024 * 1024;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(MAX_STRING_CHARS)
                .maxNumberLength(10_000)
                .build());
    }

    private Json() {}

    /** The configured mapper. Do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** A new empty object node. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /**
     * Parses JSON text.
     *
     * @throws JsonProcessingException if it is not one well-formed JSON value
     */
    public static JsonNode parse(String text) throws JsonProcessingException {
        JsonNode node = MAPPER.readTree(text);
        if (node == null || node.isMissingNode()) {
            throw new com.fasterxml.jackson.core.JsonParseException(null, "no JSON value");
        }
        return node;
    }

    /** The compact text of a node. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a JSON tree", e);
        }
    }

    /** A node as {@link RawJson}, in compact form. */
    public static RawJson raw(JsonNode node) {
        return new RawJson(write(node));
    }

    /**
     * A {@link RawJson} as a node.
     *
     * @throws IllegalArgumentException if its text is not well-formed JSON
     */
    public static JsonNode tree(RawJson raw) {
        try {
            return parse(raw.text());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not well-formed JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Whether two JSON values are equal as JSON: same structure, same strings, numbers equal as written
     * (an integer equals an integer of the same value whatever its Java width; {@code 1.0} is not {@code 1}), object
     * keys compared as sets.
     */
    public static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            if (a.isIntegralNumber() && b.isIntegralNumber()) {
                return a.bigIntegerValue().equals(b.bigIntegerValue());
            }
            if (!a.isIntegralNumber() && !b.isIntegralNumber()) {
                return a.decimalValue().equals(b.decimalValue());
            }
            return false;
        }
        if (a.getNodeType() != b.getNodeType()) {
            return false;
        }
        if (a.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            Iterator<Map.Entry<String, JsonNode>> it = a.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode other = b.get(e.getKey());
                if (other == null || !same(e.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!same(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
