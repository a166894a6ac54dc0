package dev.parley.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A JSON value kept as text: tool-call arguments, opaque provider items, custom entry data and unknown source
 * fields. {@code parley-core} never parses it (the core has no JSON library); codecs in {@code parley-json}
 * produce and consume it.
 *
 * <p>The text is kept exactly as given, so a value that arrived as a JSON string (OpenAI's tool-call
 * {@code arguments}) goes back out byte for byte. Equality is textual.
 *
 * @param text JSON text, never null; whether it is well-formed is the producer's responsibility
 */
public record RawJson(String text) {
    /** The JSON {@code null} literal. */
    public static final RawJson NULL = new RawJson("null");
    /** The empty JSON object. */
    public static final RawJson EMPTY_OBJECT = new RawJson("{}");

    /**
     * Keeps {@code text} as given; nothing is parsed or trimmed.
     *
     * @param text the JSON text
     * @throws NullPointerException if {@code text} is null
     */
    public RawJson {
        Objects.requireNonNull(text, "text");
    }

    /**
     * Shorthand for {@code new RawJson(text)}.
     *
     * @param text the JSON text, kept as given
     * @return the value
     * @throws NullPointerException if {@code text} is null
     */
    public static RawJson of(String text) {
        return new RawJson(text);
    }

    /**
     * An unmodifiable copy of a map of named JSON values (a session's or a message's metadata), in its iteration
     * order; {@link Map#of()} for an empty one.
     *
     * @param map the map to copy
     * @param what what the map is, for the message of a null key or value
     * @return the copy, or {@link Map#of()} when {@code map} is empty
     * @throws NullPointerException if {@code map} is null or holds a null key or value
     */
    public static Map<String, RawJson> copyOf(Map<String, RawJson> map, String what) {
        if (map.isEmpty()) {
            return Map.of();
        }
        Map<String, RawJson> copy = new LinkedHashMap<>(map.size() * 2);
        map.forEach((key, value) -> copy.put(Objects.requireNonNull(key, () -> what + " has a null key"),
                Objects.requireNonNull(value, () -> what + " has a null value for '" + key + "'")));
        return Collections.unmodifiableMap(copy);
    }

    @Override
    public String toString() {
        return text;
    }
}
