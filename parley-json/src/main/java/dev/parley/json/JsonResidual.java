package dev.parley.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Source residuals: what an imported record has beyond what the model holds, as a patch that turns the
 * exporter's output back into the source record (see {@code docs/01-source-residuals.md}).
 *
 * <p>{@code apply(encoded, diff(source, encoded))} is JSON-equal to {@code source} for every pair of JSON values.
 * In the common case the residual is just the source's unknown fields, verbatim:
 * <pre>{"cwd":"/home/u/p","version":"2.1.39","gitBranch":"main"}</pre>
 * The patch language, applied to an object:
 * <ul>
 *   <li>a key the encoded object lacks is added with its value, verbatim;</li>
 *   <li>a key it has is patched recursively: an object patches an object, {@code {"$items":{"3":…}}} patches the
 *       listed elements of an array of the same length, {@code {"$replace":v}} replaces with any value, and any
 *       non-object value replaces;</li>
 *   <li>{@code "$delete":[k…]} removes keys the source did not have;</li>
 *   <li>source keys that start with {@code $} are written with one more {@code $}.</li>
 * </ul>
 * A pair of non-objects (or an object and a non-object) gives {@code {"$replace":source}}.
 *
 * <p>Stateless and thread-safe.
 */
public final class JsonResidual {
    private static final String DELETE = "$delete";
    private static final String ITEMS = "$items";
    private static final String REPLACE = "$replace";

    private JsonResidual() {}

    /**
     * The residual of {@code source} relative to {@code encoded}.
     *
     * @param source the record as imported; not modified (the patch may share its nodes)
     * @param encoded the exporter's output for the model of that record; not modified
     * @return the patch, or null when the two are JSON-equal
     */
    public static @Nullable JsonNode diff(JsonNode source, JsonNode encoded) {
        if (Json.same(source, encoded)) {
            return null;
        }
        if (source.isObject() && encoded.isObject()) {
            return diffObjects((ObjectNode) source, (ObjectNode) encoded);
        }
        return replace(source);
    }

    /**
     * Applies a residual to an exporter's output.
     *
     * @param encoded the exporter's output for the model; not modified
     * @param residual the residual, or null for none
     * @return the source record
     * @throws IllegalArgumentException if the residual does not fit the encoded value (it was made against a
     *     different encoding)
     */
    public static JsonNode apply(JsonNode encoded, @Nullable JsonNode residual) {
        if (residual == null) {
            return encoded;
        }
        return applyChild(encoded, residual);
    }

    private static ObjectNode diffObjects(ObjectNode source, ObjectNode encoded) {
        ObjectNode patch = Json.object();
        ArrayNode deleted = null;
        Iterator<String> names = encoded.fieldNames();
        while (names.hasNext()) {
            String key = names.next();
            if (!source.has(key)) {
                if (deleted == null) {
                    deleted = Json.mapper().createArrayNode();
                }
                deleted.add(key);
            }
        }
        Iterator<Map.Entry<String, JsonNode>> fields = source.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode encodedValue = encoded.get(field.getKey());
            if (encodedValue == null) {
                patch.set(escape(field.getKey()), field.getValue());
                continue;
            }
            JsonNode child = diffChild(field.getValue(), encodedValue);
            if (child != null) {
                patch.set(escape(field.getKey()), child);
            }
        }
        if (deleted != null) {
            patch.set(DELETE, deleted);
        }
        return patch;
    }

    private static @Nullable JsonNode diffChild(JsonNode source, JsonNode encoded) {
        if (Json.same(source, encoded)) {
            return null;
        }
        if (source.isObject() && encoded.isObject()) {
            return diffObjects((ObjectNode) source, (ObjectNode) encoded);
        }
        if (source.isArray() && encoded.isArray() && source.size() == encoded.size()) {
            ObjectNode items = Json.object();
            for (int i = 0; i < source.size(); i++) {
                JsonNode child = diffChild(source.get(i), encoded.get(i));
                if (child != null) {
                    items.set(Integer.toString(i), child);
                }
            }
            ObjectNode wrapper = Json.object();
            wrapper.set(ITEMS, items);
            return wrapper;
        }
        if (source.isObject()) {
            return replace(source);
        }
        return source;
    }

    private static ObjectNode replace(JsonNode value) {
        ObjectNode wrapper = Json.object();
        wrapper.set(REPLACE, value);
        return wrapper;
    }

    private static JsonNode applyChild(JsonNode encoded, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        if (isWrapper(patch, REPLACE)) {
            return patch.get(REPLACE);
        }
        if (encoded.isObject()) {
            return applyObject((ObjectNode) encoded, (ObjectNode) patch);
        }
        if (encoded.isArray() && isWrapper(patch, ITEMS)) {
            ArrayNode out = ((ArrayNode) encoded).deepCopy();
            Iterator<Map.Entry<String, JsonNode>> items = patch.get(ITEMS).fields();
            while (items.hasNext()) {
                Map.Entry<String, JsonNode> item = items.next();
                int index = parseIndex(item.getKey(), out.size());
                out.set(index, applyChild(out.get(index), item.getValue()));
            }
            return out;
        }
        throw new IllegalArgumentException("residual patches an object where the encoded value is "
                + encoded.getNodeType());
    }

    private static ObjectNode applyObject(ObjectNode encoded, ObjectNode patch) {
        ObjectNode out = encoded.deepCopy();
        JsonNode deleted = patch.get(DELETE);
        if (deleted != null) {
            if (!deleted.isArray()) {
                throw new IllegalArgumentException(DELETE + " is not an array");
            }
            deleted.forEach(k -> out.remove(k.asText()));
        }
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getKey().equals(DELETE)) {
                continue;
            }
            String key = unescape(field.getKey());
            JsonNode current = out.get(key);
            out.set(key, current == null ? field.getValue() : applyChild(current, field.getValue()));
        }
        return out;
    }

    private static boolean isWrapper(JsonNode patch, String key) {
        return patch.size() == 1 && patch.has(key) && (!key.equals(ITEMS) || patch.get(key).isObject());
    }

    private static int parseIndex(String key, int size) {
        try {
            int index = Integer.parseInt(key);
            if (index >= 0 && index < size) {
                return index;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new IllegalArgumentException("residual names element " + key + " of an array of " + size);
    }

    private static String escape(String key) {
        return key.startsWith("$") ? "$" + key : key;
    }

    private static String unescape(String key) {
        if (key.startsWith("$$")) {
            return key.substring(1);
        }
        if (key.startsWith("$")) {
            throw new IllegalArgumentException("unknown residual directive " + key);
        }
        return key;
    }
}
