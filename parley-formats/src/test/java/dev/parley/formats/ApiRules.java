package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The message rules each target API enforces on a conversation, as their public API references state them; each
 * check returns the violations found (empty: acceptable).
 */
final class ApiRules {
    private ApiRules() {}

    /**
     * OpenAI chat completions: roles system, user, assistant, tool; an assistant message has content or tool calls;
     * every tool message answers a call of the assistant message before it (after other tool messages); every call is
     * answered before the next message that is not a tool message.
     */
    static List<String> openAiChat(JsonNode doc) {
        List<String> bad = new ArrayList<>();
        Set<String> pending = new LinkedHashSet<>();
        int i = 0;
        for (JsonNode m : doc.path("messages")) {
            String at = "message " + i++ + ": ";
            String role = m.path("role").asText();
            if (!Set.of("system", "user", "assistant", "tool").contains(role)) {
                bad.add(at + "role " + role);
            }
            if (role.equals("tool")) {
                if (!pending.remove(m.path("tool_call_id").asText())) {
                    bad.add(at + "tool message answers no pending call " + m.path("tool_call_id"));
                }
                if (!m.path("content").isTextual() && !m.path("content").isArray()) {
                    bad.add(at + "tool content is not text");
                }
                continue;
            }
            if (!pending.isEmpty()) {
                bad.add(at + "calls not answered before it: " + pending);
                pending.clear();
            }
            JsonNode content = m.get("content");
            boolean hasCalls = m.path("tool_calls").isArray() && m.path("tool_calls").size() > 0;
            if (role.equals("assistant")) {
                if ((content == null || content.isNull()) && !hasCalls) {
                    bad.add(at + "assistant message with neither content nor tool calls");
                }
                for (JsonNode c : m.path("tool_calls")) {
                    if (!c.path("id").isTextual() || !c.path("function").path("arguments").isTextual()
                            || !c.path("function").path("name").isTextual()) {
                        bad.add(at + "malformed tool call " + c);
                    }
                    pending.add(c.path("id").asText());
                }
            } else if (content == null || !(content.isTextual() || content.isArray())) {
                bad.add(at + role + " message without content");
            } else if (content.isArray()) {
                for (JsonNode part : content) {
                    if (!Set.of("text", "image_url", "input_audio", "file").contains(part.path("type").asText())) {
                        bad.add(at + "content part of type " + part.path("type"));
                    }
                }
            }
        }
        if (!pending.isEmpty()) {
            bad.add("calls never answered: " + pending);
        }
        return bad;
    }

    /**
     * Anthropic Messages: roles user and assistant, strictly alternating, starting with the user; no empty content
     * or text block that is empty or white space only; every {@code tool_use} answered by a {@code tool_result} in the user message right after it,
     * results first; every result answers a call of the assistant message right before it; inputs are objects.
     */
    static List<String> anthropic(JsonNode doc) {
        List<String> bad = new ArrayList<>();
        String previous = null;
        Set<String> calls = new HashSet<>();
        int i = 0;
        for (JsonNode m : doc.path("messages")) {
            String at = "message " + i++ + ": ";
            String role = m.path("role").asText();
            if (!role.equals("user") && !role.equals("assistant")) {
                bad.add(at + "role " + role);
            }
            if (previous == null && !role.equals("user")) {
                bad.add(at + "the first message is not the user's");
            }
            if (role.equals(previous)) {
                bad.add(at + "two " + role + " messages in a row");
            }
            JsonNode content = m.get("content");
            List<JsonNode> blocks = new ArrayList<>();
            if (content != null && content.isArray()) {
                content.forEach(blocks::add);
            } else if (content == null || !content.isTextual() || content.asText().isEmpty()) {
                bad.add(at + "empty content");
            }
            if (content != null && content.isArray() && content.isEmpty()) {
                bad.add(at + "empty content");
            }
            Set<String> answered = new HashSet<>();
            boolean textSeen = false;
            for (JsonNode b : blocks) {
                String type = b.path("type").asText();
                if (type.equals("text") && b.path("text").asText().isBlank()) {
                    // "text content blocks must contain non-whitespace text" (found by a break-it pass)
                    bad.add(at + "empty or white-space text block");
                }
                if (type.equals("tool_result")) {
                    if (!role.equals("user") || !calls.contains(b.path("tool_use_id").asText())) {
                        bad.add(at + "tool_result " + b.path("tool_use_id") + " answers no call of the message before");
                    }
                    if (textSeen) {
                        bad.add(at + "tool_result after other content");
                    }
                    answered.add(b.path("tool_use_id").asText());
                } else {
                    textSeen = true;
                }
                if (type.equals("tool_use") && !b.path("input").isObject()) {
                    bad.add(at + "tool_use input is not an object");
                }
                if (!Set.of("text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking")
                        .contains(type)) {
                    bad.add(at + "block of type " + type);
                }
            }
            if (role.equals("user") && !calls.isEmpty() && !answered.containsAll(calls)) {
                bad.add(at + "calls of the message before not answered here: " + calls);
            }
            calls.clear();
            if (role.equals("assistant")) {
                for (JsonNode b : blocks) {
                    if (b.path("type").asText().equals("tool_use")) {
                        calls.add(b.path("id").asText());
                    }
                }
            }
            previous = role;
        }
        if (!calls.isEmpty()) {
            bad.add("the last message's calls are never answered: " + calls);
        }
        return bad;
    }

    /**
     * OpenAI Responses input items (also a Codex rollout's {@code response_item}s): message roles user, assistant,
     * system, developer; every call has an id used once; every output answers an earlier call, once; every call is
     * answered before the next message; a reasoning item carries its encrypted content.
     */
    static List<String> responses(List<JsonNode> items) {
        List<String> bad = new ArrayList<>();
        Set<String> pending = new LinkedHashSet<>();
        Set<String> seen = new HashSet<>();
        int i = 0;
        for (JsonNode item : items) {
            String at = "item " + i++ + ": ";
            String type = item.path("type").asText("message");
            switch (type) {
                case "message" -> {
                    if (!Set.of("user", "assistant", "system", "developer").contains(item.path("role").asText())) {
                        bad.add(at + "role " + item.path("role"));
                    }
                    if (!pending.isEmpty()) {
                        bad.add(at + "calls not answered before it: " + pending);
                        pending.clear();
                    }
                }
                case "function_call", "custom_tool_call" -> {
                    String id = item.path("call_id").asText(null);
                    if (id == null || !seen.add(id)) {
                        bad.add(at + "call without an id, or with one used before: " + id);
                    }
                    pending.add(id);
                }
                case "function_call_output", "custom_tool_call_output" -> {
                    if (!pending.remove(item.path("call_id").asText())) {
                        bad.add(at + "output answers no pending call " + item.path("call_id"));
                    }
                }
                case "reasoning" -> {
                    if (!item.path("encrypted_content").isTextual()) {
                        bad.add(at + "reasoning without encrypted content");
                    }
                }
                default -> bad.add(at + "item of type " + type);
            }
        }
        if (!pending.isEmpty()) {
            bad.add("calls never answered: " + pending);
        }
        return bad;
    }

    /** Gemini CLI sessions: message types user and gemini; a tool call has an id and name, its result the same id. */
    static List<String> gemini(JsonNode doc) {
        List<String> bad = new ArrayList<>();
        int i = 0;
        for (JsonNode m : doc.path("messages")) {
            String at = "message " + i++ + ": ";
            if (!Set.of("user", "gemini").contains(m.path("type").asText())) {
                bad.add(at + "type " + m.path("type"));
            }
            for (JsonNode call : m.path("toolCalls")) {
                if (!call.path("id").isTextual() || !call.path("name").isTextual()) {
                    bad.add(at + "malformed tool call " + call);
                }
                if (!call.path("result").isArray() || call.path("result").isEmpty()) {
                    bad.add(at + "tool call " + call.path("id") + " without a result");
                }
                for (JsonNode r : call.path("result")) {
                    if (!r.path("functionResponse").path("id").equals(call.path("id"))) {
                        bad.add(at + "result of another call in " + call.path("id"));
                    }
                }
            }
        }
        return bad;
    }
}
