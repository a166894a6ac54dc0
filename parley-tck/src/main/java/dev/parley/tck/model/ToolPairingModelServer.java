package dev.parley.tck.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.parley.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * An OpenAI-compatible chat-completions server on loopback ({@code POST /v1/chat/completions}), for proving a
 * framework memory adapter end to end without a network or a mock. Scripted and stateless: a user message last gets a call of
 * {@code get_weather} for the city named after "in "; a tool result last gets a final answer quoting it. Like the
 * real service, it refuses (HTTP 400, {@code invalid_request_error}) a history whose tool calls and tool results do
 * not pair up — which is what a reloaded memory that dropped tool messages runs into.
 *
 * <p>The tool's parameter is named as the request's first tool declares it. Thread-safe; close it to stop it.
 */
public final class ToolPairingModelServer implements AutoCloseable {
    private final HttpServer server;
    /** Every request body received, in order. */
    public final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    /** The reason of every request refused, in order. */
    public final List<String> refusals = new CopyOnWriteArrayList<>();

    /**
     * Starts the server on an ephemeral loopback port.
     *
     * @throws IOException if no port could be bound
     */
    public ToolPairingModelServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    /**
     * {@code http://127.0.0.1:PORT/v1}, the base URL OpenAI clients take.
     *
     * @return the URL, with the port the server listens on
     */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    private void handle(HttpExchange exchange) throws IOException {
        JsonNode body = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        requests.add(body);
        JsonNode messages = body.get("messages");
        String problem = pairingProblem(messages);
        if (problem != null) {
            refusals.add(problem);
            send(exchange, 400, "{\"error\":{\"message\":" + Json.mapper().writeValueAsString(problem)
                    + ",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":null}}");
            return;
        }
        JsonNode last = messages.get(messages.size() - 1);
        ObjectNode message = Json.object().put("role", "assistant");
        String finish;
        if (last.path("role").asText().equals("tool")) {
            message.put("content", "Forecast: " + last.path("content").asText());
            finish = "stop";
        } else {
            String text = last.path("content").isTextual() ? last.path("content").asText()
                    : last.path("content").path(0).path("text").asText();
            String city = text.contains("in ") ? text.substring(text.lastIndexOf("in ") + 3).replace("?", "").trim()
                    : "Lisbon";
            // the tool's one parameter, by the name its declaration gave it
            String parameter = body.path("tools").path(0).path("function").path("parameters").path("properties")
                    .fieldNames().next();
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            calls.addObject().put("id", "call_" + requests.size()).put("type", "function").putObject("function")
                    .put("name", "get_weather").put("arguments", "{\"" + parameter + "\":\"" + city + "\"}");
            finish = "tool_calls";
        }
        ObjectNode reply = Json.object().put("id", "chatcmpl-" + requests.size()).put("object", "chat.completion")
                .put("created", 1764400000).put("model", body.path("model").asText("gpt-4o-mini"));
        reply.putArray("choices").addObject().put("index", 0).put("finish_reason", finish).set("message", message);
        reply.putObject("usage").put("prompt_tokens", 50).put("completion_tokens", 10).put("total_tokens", 60);
        send(exchange, 200, Json.write(reply));
    }

    /**
     * What OpenAI would refuse in this history, or null: tool results must answer the calls just before them.
     *
     * @param messages the request's {@code messages} array, in the chat-completions format
     * @return the refusal's message, worded as OpenAI words it, or null when every tool call is answered before the
     *     next message that is not a tool result, and every tool result answers an open call
     */
    public static @Nullable String pairingProblem(JsonNode messages) {
        Set<String> open = new HashSet<>();
        for (JsonNode m : messages) {
            String role = m.path("role").asText();
            if (role.equals("tool")) {
                if (!open.remove(m.path("tool_call_id").asText())) {
                    return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
                            + "with 'tool_calls' (" + m.path("tool_call_id").asText() + ").";
                }
                continue;
            }
            if (!open.isEmpty()) {
                return "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                        + "'tool_call_id'. The following tool_call_ids did not have response messages: " + open;
            }
            if (role.equals("assistant")) {
                m.path("tool_calls").forEach(c -> open.add(c.path("id").asText()));
            }
        }
        return open.isEmpty() ? null : "An assistant message with 'tool_calls' must be followed by tool messages "
                + "responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + open;
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Stops the server. */
    @Override
    public void close() {
        server.stop(0);
    }
}
