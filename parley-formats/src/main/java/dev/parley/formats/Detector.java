package dev.parley.formats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.IoErrors;
import dev.parley.json.Json;
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

    /**
     * The outcome of detection: a format, or why there is none.
     *
     * @param format the format, or null
     * @param document the whole document, when detection had to parse it (JSON documents), else null
     * @param reason the format's name, or why there is none
     * @param malformed whether the file is broken (not JSON, not UTF-8, unreadable) rather than of an unknown kind
     */
    public record Detection(@Nullable Format format, @Nullable JsonNode document, String reason, boolean malformed) {
        static Detection of(Format f, @Nullable JsonNode doc) {
            return new Detection(f, doc, f.cliName(), false);
        }

        static Detection unknown(String reason) {
            return new Detection(null, null, reason, false);
        }

        static Detection malformed(String reason) {
            return new Detection(null, null, reason, true);
        }
    }

    /**
     * Detects the format of a file.
     *
     * @param file the transcript file; only its content is looked at, its first 64 KiB unless it has to be parsed as
     *     one JSON document
     * @return the detection: its format, or a null format with the reason, marked malformed when the file cannot be
     *     read, is not valid JSON or is neither JSON nor an Aider history
     */
    public static Detection detect(Path file) {
        byte[] head;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(1 << 16);
        } catch (IOException e) {
            return Detection.malformed("cannot read: " + IoErrors.describe(e));
        }
        String text = new String(head, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String first = text.lines().filter(l -> !l.isBlank()).findFirst().orElse(null);
        if (first == null) {
            return Detection.unknown("the file is empty");
        }
        String trimmed = first.strip();
        if (AiderFormat.looksLike(text)) {
            return Detection.of(Format.AIDER, null);
        }
        if (trimmed.startsWith("{")) {
            try {
                JsonNode record = Json.parseSource(trimmed);
                if (record.isObject()) {
                    Format f = lineFormat(record);
                    if (f != null) {
                        return Detection.of(f, null);
                    }
                    if (!record.has("messages") && !record.has("traj") && !record.has("input")) {
                        return Detection.unknown("the first record is not one of a known transcript format");
                    }
                }
            } catch (JsonProcessingException e) {
                // not one object on the first line: try the whole file as one document
            }
        }
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
            return Detection.malformed("neither JSON nor an Aider chat history (line 1 starts with '"
                    + abbreviate(trimmed) + "')");
        }
        JsonNode doc;
        try {
            doc = Json.readSource(file);
        } catch (IOException e) {
            return Detection.malformed(e instanceof JsonProcessingException j ? Json.unreadable(j) + where(j)
                    : "not valid JSON: " + e.getMessage());
        }
        Format f = documentFormat(doc);
        return f == null ? Detection.unknown("a JSON document of no known transcript shape") : Detection.of(f, doc);
    }

    /**
     * Where a document's parse failed: its line, or the end of the file when the file ended first (whose line is the
     * one after a final newline: a one-line file cut short would read "line 2").
     */
    private static String where(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.core.io.JsonEOFException) {
            return " (at the end of the file)";
        }
        return " (line " + (e.getLocation() == null ? "?" : e.getLocation().getLineNr()) + ")";
    }

    private static String abbreviate(String s) {
        String one = s.length() > 20 ? s.substring(0, 20) + "…" : s;
        return one.replaceAll("\\p{Cntrl}", "?");
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
        if (CodexFormat.looksLike(first)) {
            return Format.CODEX;
        }
        return null;
    }

    /** The format of a whole JSON document, or null. */
    static @Nullable Format documentFormat(JsonNode doc) {
        if (GeminiFormat.looksLike(doc)) {
            return Format.GEMINI;
        }
        if (OpenAiResponsesFormat.looksLike(doc)) {
            return Format.OPENAI_RESPONSES;
        }
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
