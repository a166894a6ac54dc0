package dev.parley.formats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Tells a transcript's format from its content (never from its name): JSONL files by their first record, JSON
 * documents by their shape and content blocks.
 */
public final class Detector {
    private Detector() {}

    /** The outcome of detection: a format, or why there is none. */
    public record Detection(@Nullable Format format, @Nullable JsonNode document, String reason) {
        static Detection of(Format f, @Nullable JsonNode doc) {
            return new Detection(f, doc, f.cliName());
        }

        static Detection none(String reason) {
            return new Detection(null, null, reason);
        }
    }

    /** Detects the format of a file. */
    public static Detection detect(Path file) {
        String first;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            first = reader.readLine();
            while (first != null && first.isBlank()) {
                first = reader.readLine();
            }
        } catch (IOException e) {
            return Detection.none("cannot read: " + e.getMessage());
        }
        if (first == null) {
            return Detection.none("the file is empty");
        }
        String trimmed = first.strip();
        if (trimmed.startsWith("# aider chat started")) {
            return Detection.none("Aider chat history is not supported yet");
        }
        if (trimmed.startsWith("{")) {
            try {
                JsonNode record = Json.parse(trimmed);
                if (record.isObject()) {
                    Format f = lineFormat(record);
                    if (f != null) {
                        return Detection.of(f, null);
                    }
                    if ("session_meta".equals(JsonSupport.text(record, "type"))) {
                        return Detection.none("Codex rollouts are not supported yet");
                    }
                    if (!record.has("messages") && !record.has("traj")) {
                        return Detection.none("the first record is not one of a known transcript format");
                    }
                }
            } catch (JsonProcessingException e) {
                // not one object on the first line: try the whole file as one document
            }
        }
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
            return Detection.none("not JSON");
        }
        JsonNode doc;
        try {
            doc = Json.mapper().readTree(file.toFile());
        } catch (IOException e) {
            return Detection.none("not valid JSON: " + (e instanceof JsonProcessingException j ? j.getOriginalMessage()
                    : e.getMessage()));
        }
        Format f = documentFormat(doc);
        return f == null ? Detection.none("a JSON document of no known transcript shape") : Detection.of(f, doc);
    }

    /** The format whose JSONL files start with this record, or null. */
    static @Nullable Format lineFormat(JsonNode first) {
        if (ParleyFormat.looksLike(first)) {
            return Format.PARLEY;
        }
        if (PiFormat.looksLike(first)) {
            return Format.PI;
        }
        if (ClaudeCodeFormat.looksLike(first)) {
            return Format.CLAUDE_CODE;
        }
        return null;
    }

    /** The format of a whole JSON document, or null. */
    static @Nullable Format documentFormat(JsonNode doc) {
        List<OpenAiChatFormat.Conversation> conversations = OpenAiChatFormat.conversations(doc);
        if (conversations == null) {
            return null;
        }
        JsonNode messages = conversations.get(0).messages();
        if (OpenAiChatFormat.looksLike(messages)) {
            return Format.OPENAI_CHAT;
        }
        if (AnthropicMessagesFormat.looksLike(messages) || doc.isObject() && doc.has("system")) {
            return conversations.size() == 1 && doc.isObject() ? Format.ANTHROPIC_MESSAGES : Format.OPENAI_CHAT;
        }
        String model = doc.isObject() ? JsonSupport.text(doc, "model") : null;
        if (model != null && model.startsWith("claude") && doc.isObject()) {
            return Format.ANTHROPIC_MESSAGES;
        }
        return Format.OPENAI_CHAT;
    }
}
