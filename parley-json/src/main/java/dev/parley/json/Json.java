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
import dev.parley.core.log.EntryLimits;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * The shared Jackson setup and the small JSON helpers every Parley codec uses.
 *
 * <p>Numbers are kept exactly: decimals as {@link java.math.BigDecimal} with their scale ({@code 1.10} stays
 * {@code 1.10}), integers at whatever size they have (up to {@value #MAX_NUMBER_CHARS} characters).
 *
 * <p>The read limits are the write limits of the message log ({@link EntryLimits}), so that every entry an append
 * acknowledges reads back: strings and object keys up to {@value #MAX_STRING_CHARS} characters (an entry holds no
 * more text than that in all), nesting up to {@value #MAX_DEPTH} levels (a raw value's {@value #MAX_SOURCE_DEPTH}
 * and the envelope an entry adds around it). A base64 image in a tool result is typically 100 KB.
 *
 * <p>Thread-safe.
 */
public final class Json {
    /** The longest JSON string value or object key accepted, in characters: {@link EntryLimits#MAX_TEXT_CHARS}. */
    public static final int MAX_STRING_CHARS = EntryLimits.MAX_TEXT_CHARS;
    /** The longest number accepted, in characters: {@link EntryLimits#MAX_NUMBER_CHARS}. */
    public static final int MAX_NUMBER_CHARS = EntryLimits.MAX_NUMBER_CHARS;
    /**
     * How deeply stored JSON may nest. Sources are limited to {@link #MAX_SOURCE_DEPTH}; the margin is for the
     * envelope an entry and its residual add around a source record.
     */
    public static final int MAX_DEPTH = EntryLimits.MAX_RAW_DEPTH + 200;
    /** How deeply an imported source record, or any raw JSON value of an entry, may nest. */
    public static final int MAX_SOURCE_DEPTH = EntryLimits.MAX_RAW_DEPTH;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();

    /** Writes every surrogate as an escape: only used for the rare text that holds a lone surrogate. */
    private static final ObjectMapper ESCAPING = MAPPER.copy();

    static {
        for (ObjectMapper m : new ObjectMapper[] {MAPPER, ESCAPING}) {
            m.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(MAX_STRING_CHARS)
                    .maxNameLength(MAX_STRING_CHARS)
                    .maxNumberLength(MAX_NUMBER_CHARS)
                    .maxNestingDepth(MAX_DEPTH)
                    .build());
            m.getFactory().setStreamWriteConstraints(com.fasterxml.jackson.core.StreamWriteConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .build());
        }
        ESCAPING.getFactory().setCharacterEscapes(new SurrogateEscapes());
    }

    /** Escapes surrogates as backslash-u escapes, so that a lone one survives encoding to UTF-8. */
    private static final class SurrogateEscapes extends com.fasterxml.jackson.core.io.CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public com.fasterxml.jackson.core.SerializableString getEscapeSequence(int ch) {
            if (Character.isSurrogate((char) ch)) {
                return new com.fasterxml.jackson.core.io.SerializedString(String.format(Locale.ROOT, "\\u%04x", ch));
            }
            return null;
        }
    }

    /**
     * The depth of the deepest container in a value (a scalar is 0).
     *
     * @param node the value
     * @return 0 for a scalar, 1 for an array or object holding no container (an empty one too), one more for each
     *     further level of nesting
     */
    public static int depth(JsonNode node) {
        int max = 0;
        java.util.ArrayDeque<JsonNode> nodes = new java.util.ArrayDeque<>();
        java.util.ArrayDeque<Integer> depths = new java.util.ArrayDeque<>();
        nodes.push(node);
        depths.push(0);
        while (!nodes.isEmpty()) {
            JsonNode n = nodes.pop();
            int d = depths.pop();
            if (n.isContainerNode()) {
                max = Math.max(max, d + 1);
                for (JsonNode child : n) {
                    nodes.push(child);
                    depths.push(d + 1);
                }
            }
        }
        return max;
    }

    private Json() {}

    /** Reads trees as {@link #MAPPER} does. */
    private static final com.fasterxml.jackson.databind.ObjectReader TREES = MAPPER.reader();

    /**
     * Reads what Parley imports (transcript files): as {@link #parse}, and a key that appears twice in one object is an
     * error, where Jackson would silently keep the last value.
     */
    private static final com.fasterxml.jackson.databind.ObjectReader SOURCES = MAPPER.reader()
            .with(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Reads plain Java values as Jackson does by default: a number with a fraction as a {@code Double}. */
    private static final com.fasterxml.jackson.databind.ObjectReader PLAIN = MAPPER.reader()
            .without(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /**
     * A JSON value as the plain Java values of a framework's free-form map (LangChain4j's attributes, Spring AI's
     * metadata), read as Jackson reads them by default: objects as {@code LinkedHashMap}, arrays as {@code ArrayList},
     * integers as {@code Integer}, {@code Long} or {@code BigInteger} by size, and numbers with a fraction or an
     * exponent as {@code Double} — where Parley's own reading keeps them exact, as {@code BigDecimal}, which a
     * framework's {@code Double} would not equal. Thread-safe.
     *
     * @param node the value, as Parley read it
     * @param type what to read it as
     * @param <T> the type read
     * @return the value
     * @throws IllegalArgumentException if the value is not one of {@code type}
     */
    public static <T> T plainValue(JsonNode node, com.fasterxml.jackson.core.type.TypeReference<T> type) {
        try {
            // From the text, not the tree: a tree's BigDecimal number would be read back as a BigDecimal whatever
            // the reader's settings.
            return PLAIN.forType(type).readValue(write(node));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a value of " + type.getType() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The configured mapper. Do not reconfigure it.
     *
     * @return the one shared mapper
     */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * A new empty object node.
     *
     * @return a new object node of {@link #mapper()}'s node factory
     */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /**
     * Parses JSON text.
     *
     * @param text the JSON text
     * @return the value; never a missing node
     * @throws JsonProcessingException if it is not one well-formed JSON value
     */
    public static JsonNode parse(String text) throws JsonProcessingException {
        try {
            return present(MAPPER.readTree(text));
        } catch (NumberFormatException e) {
            throw malformedNumber(e);
        }
    }

    /**
     * Parses JSON text of UTF-8 bytes: as {@link #parse(String)}.
     *
     * @param bytes the buffer holding the text
     * @param offset where the text starts in {@code bytes}
     * @param length the text's length, in bytes
     * @return the value; never a missing node
     * @throws JsonProcessingException if the bytes are not one well-formed JSON value
     */
    public static JsonNode parse(byte[] bytes, int offset, int length) throws JsonProcessingException {
        return readBytes(TREES, bytes, offset, length);
    }

    /** Reads bytes in hand with {@code reader}: every failure is a {@link JsonProcessingException}, none is I/O. */
    private static JsonNode readBytes(com.fasterxml.jackson.databind.ObjectReader reader, byte[] bytes, int offset,
                                      int length) throws JsonProcessingException {
        try {
            return present(reader.readTree(bytes, offset, length));
        } catch (NumberFormatException e) {
            throw malformedNumber(e);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (java.io.IOException e) {
            throw new com.fasterxml.jackson.core.JsonParseException(null, e.getMessage(), e); // no I/O: bytes in hand
        }
    }

    private static JsonNode present(@org.jspecify.annotations.Nullable JsonNode node)
            throws com.fasterxml.jackson.core.JsonParseException {
        if (node == null || node.isMissingNode()) {
            throw new com.fasterxml.jackson.core.JsonParseException(null, "no JSON value");
        }
        return node;
    }

    /**
     * A number that Jackson cannot convert (a decimal whose exponent is beyond {@link java.math.BigDecimal}'s, which
     * the exact decimals of {@link #mapper()} need) comes as an unchecked {@link NumberFormatException}: it is
     * malformed JSON like any other, for the caller's typed error.
     */
    private static com.fasterxml.jackson.core.JsonParseException malformedNumber(NumberFormatException e) {
        return new com.fasterxml.jackson.core.JsonParseException(null, "malformed number: " + e.getMessage(), e);
    }

    /**
     * Parses a source record (a line or document of an imported transcript): as {@link #parse}, and a key repeated in
     * one object is refused ({@code Duplicate field 'k'}, with its line and column in {@link #problem}).
     *
     * @param text the record's JSON text
     * @return the value; never a missing node
     * @throws JsonProcessingException if it is not one well-formed JSON value, or repeats a key
     */
    public static JsonNode parseSource(String text) throws JsonProcessingException {
        try {
            return present(SOURCES.readTree(text));
        } catch (NumberFormatException e) {
            throw malformedNumber(e);
        }
    }

    /**
     * Parses a source document of UTF-8 bytes (a request body as it came): as {@link #parseSource}, and bytes that
     * are not UTF-8 are refused with where they are.
     *
     * @param bytes the document, whole
     * @return the value; never a missing node
     * @throws JsonProcessingException if it is not one well-formed JSON value of UTF-8 text, or repeats a key
     */
    public static JsonNode parseSource(byte[] bytes) throws JsonProcessingException {
        return readBytes(SOURCES, bytes, 0, bytes.length);
    }

    /**
     * Reads a source document (an imported JSON transcript) whole: as {@link #parseSource}.
     *
     * @param file the document's file
     * @return the value; never a missing node
     * @throws JsonProcessingException if it is not one well-formed JSON value, or repeats a key
     * @throws java.io.IOException if the file cannot be read
     */
    public static JsonNode readSource(java.nio.file.Path file) throws java.io.IOException {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            return present(SOURCES.readTree(in));
        } catch (NumberFormatException e) {
            throw malformedNumber(e);
        }
    }

    /**
     * The compact text of a node. Text with a lone surrogate (which UTF-8 cannot carry) is written with every
     * surrogate escaped, so that it survives storage unchanged.
     *
     * @param node the value
     * @return its compact JSON text
     */
    public static String write(JsonNode node) {
        try {
            String text = MAPPER.writeValueAsString(node);
            return hasLoneSurrogate(text) ? ESCAPING.writeValueAsString(node) : text;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize a JSON tree", e);
        }
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return true;
            }
            if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A node as {@link RawJson}, in compact form.
     *
     * @param node the value
     * @return its {@link #write} text as raw JSON
     */
    public static RawJson raw(JsonNode node) {
        return new RawJson(write(node));
    }

    /**
     * Why a document could not be read, with its kind first: {@code "not valid JSON: …"}, or, for valid JSON beyond
     * what Parley reads (a string longer than {@link #MAX_STRING_CHARS} characters, a number longer than
     * {@link #MAX_NUMBER_CHARS}, nesting deeper than {@link #MAX_DEPTH}), {@code "too large to read: …"}.
     *
     * @param e the failure to parse
     * @return the words, as {@link #problem} gives them, after their kind
     */
    public static String unreadable(JsonProcessingException e) {
        return (beyondLimits(e) ? "too large to read: " : "not valid JSON: ") + problem(e);
    }

    /**
     * Whether a failure to parse is valid JSON beyond what Parley reads ({@link #MAX_STRING_CHARS},
     * {@link #MAX_NUMBER_CHARS}, {@link #MAX_DEPTH}), rather than text that is not JSON.
     *
     * @param e the failure to parse
     * @return true if a limit was exceeded
     */
    public static boolean beyondLimits(JsonProcessingException e) {
        return e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException;
    }

    /**
     * What is wrong with a document, in words: Jackson's message without its source-location boilerplate
     * ({@code [Source: REDACTED (…); line: 1, column: 2]} becomes {@code line 1, column 2}).
     *
     * @param e the failure to parse
     * @return the message; the exception's simple class name when it has none
     */
    public static String problem(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        return m == null ? e.getClass().getSimpleName()
                : m.replaceAll("\\[Source: [^;\\]]*(\\([^)]*\\))?[^;\\]]*; line: (\\d+), column: (\\d+)\\]", "line $2, column $3");
    }

    /**
     * A {@link RawJson} as a node.
     *
     * @param raw the raw JSON
     * @return its parsed value
     * @throws IllegalArgumentException if its text is not well-formed JSON
     */
    public static JsonNode tree(RawJson raw) {
        try {
            return parse(raw.text());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not well-formed JSON: " + problem(e), e);
        }
    }

    /**
     * Whether two JSON values are equal as JSON: same structure, same strings, numbers equal as written
     * (an integer equals an integer of the same value whatever its Java width; {@code 1.0} is not {@code 1}), object
     * keys compared as sets.
     *
     * @param a a value
     * @param b another value
     * @return true if they are equal as JSON
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
