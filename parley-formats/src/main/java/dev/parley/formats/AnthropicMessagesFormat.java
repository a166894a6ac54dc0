package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Anthropic Messages request bodies: {@code {model, messages, …}}. One session per file;
 * messages are chained in order, a user message holding only tool results is a {@link Role#TOOL} message, and the
 * other top-level fields (model, system, max_tokens…) are kept verbatim as session metadata. Exporting a session
 * that did not come from this format follows the recipe of SOURCES.md: split records merged by response, meta
 * records dropped, neighbours of the same role merged, so that roles alternate.
 */
final class AnthropicMessagesFormat {
    private AnthropicMessagesFormat() {}

    /** Whether a {@code messages} array uses Anthropic content blocks. */
    static boolean looksLike(JsonNode messages) {
        for (JsonNode m : messages) {
            JsonNode content = m.get("content");
            if (content != null && content.isArray()) {
                for (JsonNode b : content) {
                    String type = JsonSupport.text(b, "type");
                    if ("tool_use".equals(type) || "tool_result".equals(type) || "thinking".equals(type)
                            || "redacted_thinking".equals(type) || "image".equals(type) && b.has("source")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    static ParsedSession read(Path file, JsonNode doc) {
        if (!doc.isObject() || !doc.path("messages").isArray()) {
            throw SourceFileException.notOfTheFormat(file, 0, "an Anthropic Messages request is an object with \"messages\"");
        }
        String model = JsonSupport.text(doc, "model");
        List<NewEntry> entries = new ArrayList<>();
        EntryId parent = null;
        ArrayNode messages = (ArrayNode) doc.get("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String role = JsonSupport.text(m, "role");
            if (role == null) {
                throw new SourceFileException(file, 0, "message " + i + " has no role");
            }
            Message message = decode(m, model);
            EntryId id = new EntryId("m-" + (i + 1));
            entries.add(new NewEntry(id, parent, null, message, JsonSupport.source(Format.ANTHROPIC_MESSAGES, m,
                    encode(message))));
            parent = id;
        }
        ObjectNode rest = ((ObjectNode) doc).deepCopy();
        rest.remove("messages");
        Map<String, RawJson> metadata = new LinkedHashMap<>();
        if (!rest.isEmpty()) {
            metadata.put(OpenAiChatFormat.SOURCE_FIELDS, JsonSupport.raw(rest));
        }
        return new ParsedSession(Format.ANTHROPIC_MESSAGES, null, "anthropic-messages:" + file.toAbsolutePath().normalize(),
                PiFormat.firstUserText(entries), metadata, List.of(new ParsedAgent(AgentId.MAIN, file, entries)), null, null);
    }

    static Message decode(JsonNode m, @Nullable String model) {
        String role = JsonSupport.text(m, "role");
        Message.Builder b = Message.builder(Role.of(role));
        JsonNode content = m.get("content");
        if (content != null && content.isTextual()) {
            b.plainText(content.textValue());
        } else if (content != null && content.isArray()) {
            List<ContentBlock> blocks = AnthropicBlocks.decode(content);
            b.content(blocks);
            if ("user".equals(role) && !blocks.isEmpty()
                    && blocks.stream().allMatch(x -> x instanceof ContentBlock.ToolResult)) {
                b.role(Role.TOOL);
            }
        }
        if ("assistant".equals(role) && model != null) {
            b.provider("anthropic").model(model);
        }
        return b.build();
    }

    static ObjectNode encode(Message m) {
        ObjectNode o = JsonSupport.object();
        o.put("role", m.role().equals(Role.ASSISTANT) ? "assistant" : "user");
        if (m.plainText()) {
            o.put("content", m.text());
        } else {
            o.set("content", AnthropicBlocks.encode(m.content()));
        }
        return o;
    }

    /** The request body for a conversation. */
    static ObjectNode document(List<ExportedMessage> messages, @Nullable JsonNode sourceFields, @Nullable String model) {
        ObjectNode doc = JsonSupport.object();
        boolean exact = sourceFields != null && messages.stream().allMatch(AnthropicMessagesFormat::isOwn);
        if (sourceFields != null && sourceFields.isObject()) {
            OpenAiChatFormat.putAll(doc, sourceFields);
        } else if (model != null) {
            doc.put("model", model);
        }
        ArrayNode array = doc.putArray("messages");
        if (exact) {
            for (ExportedMessage em : messages) {
                array.add(JsonSupport.restore(encode(em.message()), em.entry().source()));
            }
            return doc;
        }
        List<String> system = new ArrayList<>();
        ObjectNode previous = null;
        for (ExportedMessage em : messages) {
            Message m = em.message();
            if (em.entry() != null && ClaudeCodeFormat.isMeta(em.entry())) {
                continue;
            }
            if (m.role().equals(Role.SYSTEM)) {
                system.add(m.text());
                continue;
            }
            String role = m.role().equals(Role.ASSISTANT) ? "assistant" : "user";
            ArrayNode blocks = AnthropicBlocks.encode(m.content());
            if (previous != null && previous.get("role").asText().equals(role)) {
                ArrayNode into = (ArrayNode) previous.get("content");
                blocks.forEach(into::add);
                continue;
            }
            ObjectNode message = JsonSupport.object();
            message.put("role", role);
            message.set("content", blocks);
            array.add(message);
            previous = message;
        }
        if (!system.isEmpty() && !doc.has("system")) {
            doc.put("system", String.join("\n\n", system));
        }
        return doc;
    }

    private static boolean isOwn(ExportedMessage em) {
        Entry e = em.entry();
        return e != null && e.source() != null && Format.ANTHROPIC_MESSAGES.cliName().equals(e.source().format())
                && em.message().equals(e.message());
    }
}
