package dev.parley.remote.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.json.Json;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One call of the server's API: method, path, query and body. A write that fell back is journaled as its request and
 * replayed by sending it again.
 *
 * @param method the HTTP method
 * @param path the path, already escaped (ids are URL-safe)
 * @param query the query parameters, in order (escaped when sent)
 * @param body the JSON body, or null
 */
public record Request(String method, String path, Map<String, String> query, @Nullable JsonNode body) {
    public Request {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        query = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(query));
    }

    static Request get(String path) {
        return new Request("GET", path, Map.of(), null);
    }

    /** The path and query, escaped. */
    String target() {
        StringBuilder out = new StringBuilder(path);
        char sep = '?';
        for (Map.Entry<String, String> e : query.entrySet()) {
            out.append(sep).append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            sep = '&';
        }
        return out.toString();
    }

    ObjectNode toJson() {
        ObjectNode o = Json.object();
        o.put("method", method);
        o.put("path", path);
        ObjectNode q = o.putObject("query");
        query.forEach(q::put);
        if (body != null) {
            o.set("body", body);
        }
        return o;
    }

    static Request fromJson(JsonNode o) {
        Map<String, String> q = new LinkedHashMap<>();
        o.path("query").fields().forEachRemaining(e -> q.put(e.getKey(), e.getValue().asText()));
        return new Request(o.path("method").asText(), o.path("path").asText(), q, o.get("body"));
    }

    /** {@code METHOD path}, for logs. */
    @Override
    public String toString() {
        return method + " " + path;
    }
}
