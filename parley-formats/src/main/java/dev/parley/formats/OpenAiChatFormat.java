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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * OpenAI chat-completions {@code messages}. A file is one conversation (a bare array of
 * messages, or an object with {@code messages}) or many (an array of objects each holding {@code messages} or
 * {@code traj}, as tau-bench writes): one session each. Messages are chained in order; the conversation object's
 * other fields are kept verbatim as session metadata. Tool-call {@code arguments} strings are kept byte for byte.
 */
final class OpenAiChatFormat {
    static final String SOURCE_FIELDS = "source";

    private OpenAiChatFormat() {}

    /** Whether a document holds OpenAI-style messages. */
    static boolean looksLike(JsonNode messages) {
        for (JsonNode m : messages) {
            String role = JsonSupport.text(m, "role");
            if ("tool".equals(role) || "system".equals(role) || "developer".equals(role) || m.has("tool_calls")
                    || m.has("tool_call_id")) {
                return true;
            }
        }
        return false;
    }

    /** The message arrays of a document, with the conversation objects they sit in (null for a bare array). */
    record Conversation(int index, @Nullable ObjectNode holder, String key, ArrayNode messages) {}

    static @Nullable List<Conversation> conversations(JsonNode doc) {
        List<Conversation> out = new ArrayList<>();
        if (doc.isArray() && doc.size() > 0 && allHaveRole(doc)) {
            out.add(new Conversation(0, null, "messages", (ArrayNode) doc));
            return out;
        }
        if (doc.isObject() && doc.path("messages").isArray()) {
            out.add(new Conversation(0, (ObjectNode) doc, "messages", (ArrayNode) doc.get("messages")));
            return out;
        }
        if (doc.isArray()) {
            int i = 0;
            for (JsonNode item : doc) {
                String key = item.path("messages").isArray() ? "messages" : item.path("traj").isArray() ? "traj" : null;
                if (key == null) {
                    return null;
                }
                out.add(new Conversation(i++, (ObjectNode) item, key, (ArrayNode) item.get(key)));
            }
            return out.isEmpty() ? null : out;
        }
        return null;
    }

    private static boolean allHaveRole(JsonNode array) {
        for (JsonNode m : array) {
            if (!m.isObject() || !m.has("role")) {
                return false;
            }
        }
        return true;
    }

    /** One session per conversation of the document. */
    static List<ParsedSession> read(Path file, JsonNode doc) {
        List<Conversation> conversations = conversations(doc);
        if (conversations == null) {
            throw SourceFileException.notOfTheFormat(file, 0, "no OpenAI chat messages found (expected an array of messages, "
                    + "an object with \"messages\", or an array of conversations)");
        }
        boolean many = conversations.size() > 1 || doc.isArray() && conversations.get(0).holder() != null;
        List<ParsedSession> out = new ArrayList<>();
        for (Conversation c : conversations) {
            List<NewEntry> entries = new ArrayList<>();
            EntryId parent = null;
            for (int i = 0; i < c.messages().size(); i++) {
                JsonNode m = c.messages().get(i);
                if (!m.isObject() || JsonSupport.text(m, "role") == null) {
                    throw new SourceFileException(file, 0, (many ? "conversation " + c.index() + ", " : "")
                            + "message " + i + " has no role");
                }
                EntryId id = new EntryId("m-" + (i + 1));
                Message message = decode(m);
                entries.add(new NewEntry(id, parent, null, message,
                        JsonSupport.source(Format.OPENAI_CHAT, m, encode(message))));
                parent = id;
            }
            Map<String, RawJson> metadata = new LinkedHashMap<>();
            if (c.holder() != null) {
                ObjectNode rest = c.holder().deepCopy();
                rest.remove(c.key());
                if (!rest.isEmpty()) {
                    metadata.put(SOURCE_FIELDS, JsonSupport.raw(rest));
                }
            }
            // The file (and position) is the source's identity: a conversation that grew in place is updated.
            String origin = "openai-chat:" + file.toAbsolutePath().normalize() + (many ? "#" + c.index() : "");
            out.add(new ParsedSession(Format.OPENAI_CHAT, null, origin, PiFormat.firstUserText(entries), metadata,
                    List.of(new ParsedAgent(AgentId.MAIN, many ? null : file, entries)), many ? file : null,
                    many ? c.index() : null));
        }
        return out;
    }

    static Message decode(JsonNode m) {
        String role = JsonSupport.text(m, "role");
        JsonNode content = m.get("content");
        if ("tool".equals(role)) {
            String callId = JsonSupport.text(m, "tool_call_id");
            if (callId != null && content != null && content.isTextual()) {
                return Message.toolResults(List.of(ContentBlock.ToolResult.text(callId, JsonSupport.text(m, "name"),
                        content.textValue(), false)));
            }
        }
        Message.Builder b = Message.builder(Role.of(role));
        List<ContentBlock> blocks = new ArrayList<>();
        boolean plain = false;
        if (content != null && content.isTextual()) {
            blocks.add(new ContentBlock.Text(content.textValue()));
            plain = true;
        } else if (content != null && content.isArray()) {
            for (JsonNode part : content) {
                String type = JsonSupport.text(part, "type");
                if ("text".equals(type) && JsonSupport.text(part, "text") != null) {
                    blocks.add(new ContentBlock.Text(JsonSupport.text(part, "text")));
                } else if ("image_url".equals(type) && JsonSupport.text(part.path("image_url"), "url") != null) {
                    blocks.add(new ContentBlock.Image(null, null, JsonSupport.text(part.path("image_url"), "url")));
                } else {
                    blocks.add(new ContentBlock.ProviderItem(type == null ? "untyped" : type, JsonSupport.raw(part)));
                }
            }
        }
        JsonNode calls = m.get("tool_calls");
        if (calls != null && calls.isArray()) {
            for (JsonNode call : calls) {
                JsonNode fn = call.path("function");
                String name = JsonSupport.text(fn, "name");
                String args = JsonSupport.text(fn, "arguments");
                if (name != null) {
                    blocks.add(new ContentBlock.ToolCall(JsonSupport.text(call, "id"), name,
                            args != null ? RawJson.of(args) : RawJson.EMPTY_OBJECT));
                    plain = false;
                } else {
                    blocks.add(new ContentBlock.ProviderItem("tool_call", JsonSupport.raw(call)));
                    plain = false;
                }
            }
        }
        b.content(blocks);
        if (plain) {
            b.plainText(true);
        }
        return b.build();
    }

    /** The message for a model message; one tool result per message (see {@link #encodeAll}). */
    static ObjectNode encode(Message m) {
        ObjectNode o = JsonSupport.object();
        if (m.role().equals(Role.TOOL) && m.toolResults().size() == 1) {
            ContentBlock.ToolResult r = m.toolResults().get(0);
            o.put("role", "tool");
            o.put("tool_call_id", r.callId());
            JsonSupport.putText(o, "name", r.toolName());
            o.put("content", r.text());
            return o;
        }
        o.put("role", m.role().equals(Role.TOOL) ? "tool" : m.role().name());
        List<ContentBlock.ToolCall> calls = new ArrayList<>();
        List<ContentBlock> parts = new ArrayList<>();
        boolean onlyText = true;
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.ToolCall c) {
                calls.add(c);
            } else if (b instanceof ContentBlock.Thinking) {
                continue; // chat completions have no place for reasoning
            } else {
                parts.add(b);
                if (!(b instanceof ContentBlock.Text)) {
                    onlyText = false;
                }
            }
        }
        if (parts.isEmpty()) {
            o.putNull("content");
        } else if (onlyText) {
            StringBuilder text = new StringBuilder();
            parts.forEach(p -> text.append(((ContentBlock.Text) p).text()));
            o.put("content", text.toString());
        } else {
            ArrayNode array = o.putArray("content");
            for (ContentBlock p : parts) {
                ObjectNode part = JsonSupport.object();
                if (p instanceof ContentBlock.Text t) {
                    part.put("type", "text");
                    part.put("text", t.text());
                } else if (p instanceof ContentBlock.Image i) {
                    part.put("type", "image_url");
                    part.putObject("image_url").put("url", i.url() != null ? i.url()
                            : "data:" + (i.mediaType() == null ? "image/png" : i.mediaType()) + ";base64," + i.data());
                } else if (p instanceof ContentBlock.ProviderItem item) {
                    array.add(JsonSupport.node(item.item()));
                    continue;
                } else {
                    part.put("type", "text");
                    part.put("text", dev.parley.json.Json.write(dev.parley.json.EntryCodec.encodeBlock(p)));
                }
                array.add(part);
            }
        }
        if (!calls.isEmpty()) {
            ArrayNode array = o.putArray("tool_calls");
            for (ContentBlock.ToolCall c : calls) {
                ObjectNode call = JsonSupport.object();
                JsonSupport.putText(call, "id", c.id());
                call.put("type", "function");
                ObjectNode fn = call.putObject("function");
                fn.put("name", c.name());
                fn.put("arguments", c.arguments().text());
                array.add(call);
            }
        }
        return o;
    }

    /** The messages for one conversation item: a tool message with several results becomes several messages. */
    static List<ObjectNode> encodeAll(Message m) {
        if (m.role().equals(Role.TOOL) && m.toolResults().size() > 1) {
            List<ObjectNode> out = new ArrayList<>();
            for (ContentBlock.ToolResult r : m.toolResults()) {
                out.add(encode(Message.toolResults(List.of(r))));
            }
            return out;
        }
        return List.of(encode(m));
    }

    /** The document for a conversation: {@code {"model"?, "messages": […]}}. */
    static ObjectNode document(List<ExportedMessage> messages, @Nullable String model) {
        ObjectNode doc = JsonSupport.object();
        if (model != null) {
            doc.put("model", model);
        }
        ArrayNode array = doc.putArray("messages");
        for (ExportedMessage em : messages) {
            Entry e = em.entry();
            if (e != null && e.source() != null && Format.OPENAI_CHAT.cliName().equals(e.source().format())
                    && em.message().equals(e.message())) {
                array.add(JsonSupport.restore(encode(em.message()), e.source()));
            } else {
                encodeAll(em.message()).forEach(array::add);
            }
        }
        return doc;
    }

    /** Copies every field of a stored object into another. */
    static void putAll(ObjectNode target, JsonNode source) {
        Iterator<Map.Entry<String, JsonNode>> it = source.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            target.set(f.getKey(), f.getValue());
        }
    }
}
