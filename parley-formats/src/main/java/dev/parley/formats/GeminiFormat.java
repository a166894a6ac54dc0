package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.Ids;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.json.Instants;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Gemini CLI session files: {@code {sessionId, projectHash, startTime, lastUpdated, messages:[…]}}. One session per
 * file, identified by its {@code sessionId}; each message is one entry, chained in order, with the message's own
 * {@code id}:
 * <ul>
 *   <li>{@code user}: a user message;</li>
 *   <li>{@code gemini}: an assistant message — its {@code thoughts} as thinking blocks, its {@code content} as text,
 *       each of its {@code toolCalls} as a tool call followed by the call's result (Gemini CLI writes the result
 *       into the call), {@code tokens} as usage and {@code model};</li>
 *   <li>{@code info}, {@code error} and other types: a custom entry of that type.</li>
 * </ul>
 * The file's other fields are kept verbatim as session metadata.
 */
final class GeminiFormat {
    private GeminiFormat() {}

    static boolean looksLike(JsonNode doc) {
        if (!doc.isObject() || !doc.has("sessionId") || !doc.path("messages").isArray()) {
            return false;
        }
        for (JsonNode m : doc.get("messages")) {
            return m.isObject() && m.has("type") && !m.has("role");
        }
        return doc.has("projectHash");
    }

    static ParsedSession read(Path file, JsonNode doc) {
        if (!looksLike(doc)) {
            throw SourceFileException.notOfTheFormat(file, 0, "a Gemini CLI session is an object with \"sessionId\" and \"messages\"");
        }
        String sessionId = JsonSupport.text(doc, "sessionId");
        SourceIds.checkSafe(sessionId, "sessionId", file, 0);
        List<NewEntry> entries = new ArrayList<>();
        Set<EntryId> used = new HashSet<>();
        EntryId parent = null;
        JsonNode messages = doc.get("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            if (!m.isObject() || JsonSupport.text(m, "type") == null) {
                throw new SourceFileException(file, 0, "message " + i + " has no type");
            }
            String own = JsonSupport.text(m, "id");
            EntryId id = own != null && Ids.isValid(own) && !used.contains(new EntryId(own)) ? new EntryId(own)
                    : new EntryId("m-" + (i + 1));
            used.add(id);
            Instant timestamp = JsonSupport.instant(m, "timestamp");
            EntryPayload payload = decode((ObjectNode) m);
            Entry provisional = new Entry(1, id, parent, AgentId.MAIN, timestamp, payload, null);
            entries.add(new NewEntry(id, parent, timestamp, payload,
                    JsonSupport.source(Format.GEMINI, m, encode(provisional))));
            parent = id;
        }
        ObjectNode rest = ((ObjectNode) doc).deepCopy();
        rest.remove("messages");
        Map<String, RawJson> metadata = new LinkedHashMap<>();
        metadata.put(OpenAiChatFormat.SOURCE_FIELDS, JsonSupport.raw(rest));
        String validId = sessionId != null && Ids.isValid(sessionId) ? sessionId : null;
        String origin = validId != null ? "gemini:" + validId : "gemini:" + file.toAbsolutePath().normalize();
        return new ParsedSession(Format.GEMINI, validId, origin, PiFormat.firstUserText(entries), metadata,
                List.of(new ParsedAgent(AgentId.MAIN, file, entries)), null, null);
    }

    private static EntryPayload decode(ObjectNode m) {
        String type = JsonSupport.text(m, "type");
        JsonNode content = m.get("content");
        if ("user".equals(type)) {
            Message.Builder b = Message.builder(Role.USER);
            if (content != null && content.isTextual()) {
                b.plainText(content.textValue());
            } else if (content != null && content.isArray()) {
                b.content(parts(content));
            }
            return b.build();
        }
        if ("gemini".equals(type)) {
            Message.Builder b = Message.builder(Role.ASSISTANT).provider("google").model(JsonSupport.text(m, "model"));
            List<ContentBlock> blocks = new ArrayList<>();
            for (JsonNode t : m.path("thoughts")) {
                String d = JsonSupport.text(t, "description");
                blocks.add(d != null ? new ContentBlock.Thinking(d, null)
                        : new ContentBlock.ProviderItem("thought", JsonSupport.raw(t)));
            }
            if (content != null && content.isTextual()) {
                blocks.add(new ContentBlock.Text(content.textValue()));
            } else if (content != null && content.isArray()) {
                blocks.addAll(parts(content));
            }
            for (JsonNode call : m.path("toolCalls")) {
                String name = JsonSupport.text(call, "name");
                String id = JsonSupport.text(call, "id");
                if (name == null || id == null) {
                    blocks.add(new ContentBlock.ProviderItem("toolCall", JsonSupport.raw(call)));
                    continue;
                }
                JsonNode args = call.get("args");
                blocks.add(new ContentBlock.ToolCall(id, name, args == null ? RawJson.EMPTY_OBJECT : JsonSupport.raw(args)));
                JsonNode response = call.path("result").path(0).path("functionResponse").path("response");
                if (call.has("result")) {
                    String output = JsonSupport.text(response, "output");
                    String error = JsonSupport.text(response, "error");
                    String text = output != null ? output : error != null ? error : "";
                    blocks.add(ContentBlock.ToolResult.text(id, name, text, "error".equals(JsonSupport.text(call, "status"))));
                }
            }
            b.content(blocks);
            if (blocks.size() == 1 && blocks.get(0) instanceof ContentBlock.Text && content != null && content.isTextual()) {
                b.plainText(true);
            }
            JsonNode tokens = m.get("tokens");
            if (tokens != null && tokens.isObject()) {
                b.usage(new Usage(JsonSupport.longOr(tokens, "input", 0), JsonSupport.longOr(tokens, "output", 0),
                        JsonSupport.longOr(tokens, "cached", 0), 0, JsonSupport.longOr(tokens, "thoughts", 0), null));
            }
            return b.build();
        }
        ObjectNode data = m.deepCopy();
        data.remove("id");
        data.remove("timestamp");
        return new EntryPayload.Custom(type, JsonSupport.raw(data));
    }

    private static List<ContentBlock> parts(JsonNode array) {
        List<ContentBlock> out = new ArrayList<>();
        for (JsonNode p : array) {
            String text = JsonSupport.text(p, "text");
            out.add(text != null && p.size() == 1 ? new ContentBlock.Text(text)
                    : new ContentBlock.ProviderItem("part", JsonSupport.raw(p)));
        }
        return out;
    }

    /** The message for an entry (the deterministic encoding for imported ones), or null when it has no form. */
    static @Nullable ObjectNode encode(Entry e) {
        ObjectNode o = JsonSupport.object();
        o.put("id", e.id().value());
        if (e.timestamp() != null) {
            o.put("timestamp", Instants.format(e.timestamp()));
        }
        if (e.payload() instanceof EntryPayload.Custom c) {
            JsonNode data = JsonSupport.node(c.data());
            if (data.isObject()) {
                o.setAll((ObjectNode) data);
            }
            o.put("type", c.customType());
            return o;
        }
        if (!(e.payload() instanceof Message m)) {
            return null;
        }
        boolean assistant = m.role().equals(Role.ASSISTANT);
        o.put("type", assistant ? "gemini" : "user");
        StringBuilder text = new StringBuilder();
        ArrayNode thoughts = JsonSupport.array();
        ArrayNode calls = JsonSupport.array();
        Map<String, ObjectNode> byId = new LinkedHashMap<>();
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.Text t) {
                text.append(t.text());
            } else if (b instanceof ContentBlock.Thinking t) {
                thoughts.addObject().put("description", t.text());
            } else if (b instanceof ContentBlock.ProviderItem p && p.type().equals("thought")) {
                thoughts.add(JsonSupport.node(p.item()));
            } else if (b instanceof ContentBlock.ToolCall c) {
                ObjectNode call = calls.addObject();
                JsonSupport.putText(call, "id", c.id());
                call.put("name", c.name());
                call.set("args", JsonSupport.node(c.arguments()));
                if (c.id() != null) {
                    byId.put(c.id(), call);
                }
            } else if (b instanceof ContentBlock.ToolResult r) {
                ObjectNode call = byId.get(r.callId());
                if (call == null) {
                    call = calls.addObject();
                    call.put("id", r.callId());
                    JsonSupport.putText(call, "name", r.toolName());
                }
                ObjectNode fr = call.putArray("result").addObject().putObject("functionResponse");
                fr.put("id", r.callId());
                JsonSupport.putText(fr, "name", r.toolName() != null ? r.toolName() : call.path("name").asText(null));
                fr.putObject("response").put("output", r.text());
                call.put("status", r.isError() ? "error" : "success");
            } else if (b instanceof ContentBlock.ProviderItem p && p.type().equals("toolCall")) {
                calls.add(JsonSupport.node(p.item()));
            }
        }
        o.put("content", text.toString());
        if (assistant) {
            if (!thoughts.isEmpty()) {
                o.set("thoughts", thoughts);
            }
            if (!calls.isEmpty()) {
                o.set("toolCalls", calls);
            }
            if (m.usage() != null) {
                ObjectNode tokens = o.putObject("tokens");
                tokens.put("input", m.usage().inputTokens());
                tokens.put("output", m.usage().outputTokens());
                tokens.put("cached", m.usage().cacheReadTokens());
                tokens.put("thoughts", m.usage().reasoningTokens());
            }
            JsonSupport.putText(o, "model", m.model());
        }
        return o;
    }

    static boolean isGemini(Entry e) {
        return e.source() != null && Format.GEMINI.cliName().equals(e.source().format());
    }

    /**
     * The session document of a session imported from Gemini CLI: the source's fields, then every entry exactly.
     * A converted conversation ({@link #document}) has each tool message's results folded into the calls of the reply
     * before it, as Gemini CLI writes them.
     */
    static ObjectNode exact(List<Entry> entries, @Nullable JsonNode sourceFields) {
        ObjectNode doc = JsonSupport.object();
        if (sourceFields != null && sourceFields.isObject()) {
            doc.setAll((ObjectNode) sourceFields.deepCopy());
        }
        ArrayNode out = doc.putArray("messages");
        for (Entry e : entries) {
            ObjectNode encoded = encode(e);
            out.add(JsonSupport.restore(encoded == null ? JsonSupport.object() : encoded, e.source()));
        }
        return doc;
    }

    /**
     * A converted conversation as a session document.
     *
     * @param start when the conversation began; its last message's time (or this) is the document's last update
     */
    static ObjectNode document(List<ExportedMessage> messages, String sessionId, Instant start) {
        ObjectNode doc = JsonSupport.object();
        doc.put("sessionId", sessionId);
        doc.put("projectHash", "");
        doc.put("startTime", Instants.format(start));
        Instant last = messages.stream().map(em -> em.entry() != null && em.entry().timestamp() != null
                ? em.entry().timestamp() : em.message().createdAt()).filter(java.util.Objects::nonNull)
                .max(java.util.Comparator.naturalOrder()).orElse(start);
        doc.put("lastUpdated", Instants.format(last.isAfter(start) ? last : start));
        ArrayNode out = doc.putArray("messages");
        ObjectNode lastReply = null;
        int n = 0;
        for (ExportedMessage em : messages) {
            n++;
            Entry e = em.entry();
            Entry stand = new Entry(1, e != null ? e.id() : new EntryId("m-" + n), null, AgentId.MAIN,
                    e != null ? e.timestamp() : em.message().createdAt(), em.message(), null);
            ObjectNode encoded = encode(stand);
            if (em.message().role().equals(Role.TOOL) && lastReply != null) {
                ArrayNode calls = (ArrayNode) lastReply.path("toolCalls");
                for (ContentBlock.ToolResult r : em.message().toolResults()) {
                    for (JsonNode call : calls) {
                        if (r.callId().equals(call.path("id").asText())) {
                            ObjectNode fr = ((ObjectNode) call).putArray("result").addObject().putObject("functionResponse");
                            fr.put("id", r.callId());
                            fr.put("name", call.path("name").asText());
                            fr.putObject("response").put("output", r.text());
                            ((ObjectNode) call).put("status", r.isError() ? "error" : "success");
                        }
                    }
                }
                continue;
            }
            out.add(encoded);
            lastReply = em.message().role().equals(Role.ASSISTANT) ? encoded : null;
        }
        return doc;
    }
}
