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
import dev.parley.json.Json;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * pi coding-agent session files (docs/00-glossary.md), versions 1 to 3. Every line becomes one
 * entry; the header line is a detached custom entry of type {@code session}.
 * <ul>
 *   <li>v2/v3 entries keep their ids and parent ids; a parent that names no earlier entry fails the file.</li>
 *   <li>v1 entries have no ids: they get {@code line-N} and the previous entry as parent, and a compaction's
 *       {@code firstKeptEntryIndex} (a line index counting the header as 0) becomes the id of that line — pi's
 *       own migration, with deterministic ids so that re-imports are idempotent.</li>
 *   <li>Messages map to the model ({@code toolResult} → {@link Role#TOOL}; {@code bashExecution}, {@code custom}
 *       and other roles are kept by name), {@code custom_message} entries become messages of role {@code custom},
 *       and the rest map to the entry kinds of the same names.</li>
 * </ul>
 */
final class PiFormat {
    static final String HEADER_TYPE = "session";

    private PiFormat() {}

    /** Whether a first record is a pi header. */
    static boolean looksLike(JsonNode first) {
        return HEADER_TYPE.equals(JsonSupport.text(first, "type")) && !first.has("createdAt");
    }

    /** Reads a pi session file. @throws SourceFileException if it cannot be imported */
    static ParsedSession read(Path file, List<ImportProblem> warnings) {
        List<JsonLines.Line> lines = JsonLines.read(file, warnings);
        if (lines.isEmpty() || !looksLike(lines.get(0).node())) {
            throw SourceFileException.notOfTheFormat(file, lines.isEmpty() ? 0 : lines.get(0).number(),
                    "a pi session file starts with a {\"type\":\"session\"} header");
        }
        ObjectNode header = lines.get(0).node();
        long version = JsonSupport.longOr(header, "version", 1);
        if (version > 3) {
            throw new SourceFileException(file, lines.get(0).number(), "pi session version " + version
                    + " is newer than this importer reads (1 to 3)");
        }
        boolean v1 = version < 2;
        String sessionId = JsonSupport.text(header, "id");
        for (JsonLines.Line l : lines) {
            SourceIds.checkSafe(JsonSupport.text(l.node(), "id"), "id", file, l.number());
            SourceIds.checkSafe(JsonSupport.text(l.node(), "parentId"), "parentId", file, l.number());
        }
        if (sessionId != null && !Ids.isValid(sessionId)) {
            throw new SourceFileException(file, lines.get(0).number(), "invalid session id '" + sessionId + "'");
        }

        Map<Integer, EntryId> byIndex = new HashMap<>();
        Set<EntryId> used = new HashSet<>();
        Set<String> ownIds = new HashSet<>();
        for (int i = 1; i < lines.size() && !v1; i++) {
            String own = JsonSupport.text(lines.get(i).node(), "id");
            if (own != null) {
                ownIds.add(own);
            }
        }
        List<EntryId> ids = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            JsonLines.Line l = lines.get(i);
            String own = i == 0 || v1 ? null : JsonSupport.text(l.node(), "id");
            EntryId id;
            if (own != null && Ids.isValid(own) && !used.contains(new EntryId(own))) {
                id = new EntryId(own);
            } else {
                // A synthesized id must not collide with any id the file itself uses.
                String base = "line-" + l.number();
                String candidate = base;
                for (int n = 2; ownIds.contains(candidate) || used.contains(new EntryId(candidate)); n++) {
                    candidate = base + "-" + n;
                }
                id = new EntryId(candidate);
            }
            used.add(id);
            ids.add(id);
            byIndex.put(i, id);
        }

        List<NewEntry> entries = new ArrayList<>(lines.size());
        Map<String, EntryId> seen = new HashMap<>();
        String title = null;
        for (int i = 0; i < lines.size(); i++) {
            JsonLines.Line l = lines.get(i);
            ObjectNode record = l.node();
            EntryId id = ids.get(i);
            EntryId parent = null;
            if (i > 0) {
                if (v1) {
                    parent = i > 1 ? ids.get(i - 1) : null;
                } else if (record.hasNonNull("parentId")) {
                    String p = JsonSupport.text(record, "parentId");
                    parent = p == null ? null : seen.get(p);
                    if (parent == null) {
                        throw new SourceFileException(file, l.number(), "parent " + record.get("parentId")
                                + " is not an earlier entry of the session");
                    }
                }
            }
            Instant timestamp = JsonSupport.instant(record, "timestamp");
            EntryPayload payload = i == 0 ? new EntryPayload.Custom(HEADER_TYPE, JsonSupport.raw(record))
                    : decode(record, v1, byIndex);
            if (payload instanceof EntryPayload.SessionName n && n.name() != null) {
                title = n.name();
            }
            Entry provisional = new Entry(1, id, parent, AgentId.MAIN, timestamp, payload, null);
            entries.add(new NewEntry(id, parent, timestamp, payload,
                    JsonSupport.source(Format.PI, record, encode(provisional, null))));
            String own = JsonSupport.text(record, "id");
            if (i > 0 && own != null) {
                seen.put(own, id);
            }
        }
        if (title == null) {
            title = firstUserText(entries);
        }
        String origin = "pi:" + (sessionId != null ? sessionId : "sha256:" + Hashing.sha256(lines));
        return new ParsedSession(Format.PI, sessionId, origin, title, Map.of(),
                List.of(new ParsedAgent(AgentId.MAIN, file, entries, lines.stream().map(JsonLines.Line::number).toList())),
                null, null);
    }

    /**
     * A title from the first real prompt: user text that is not a meta record (Claude Code's {@code isMeta}), a
     * command transcript ({@code <command-name>…}) or a system reminder.
     */
    static @Nullable String firstUserText(List<NewEntry> entries) {
        for (NewEntry e : entries) {
            if (e.payload() instanceof Message m && m.role().equals(Role.USER) && !m.text().isBlank()
                    && !m.text().stripLeading().startsWith("<") && !ClaudeCodeFormat.isMeta(e.source())) {
                return Titles.of(m.text());
            }
        }
        return null;
    }

    private static EntryPayload decode(ObjectNode r, boolean v1, Map<Integer, EntryId> byIndex) {
        String type = JsonSupport.text(r, "type");
        if (type == null) {
            type = "untyped";
        }
        switch (type) {
            case "message" -> {
                JsonNode m = r.get("message");
                if (m != null && m.isObject() && JsonSupport.text(m, "role") != null) {
                    return decodeMessage(m);
                }
            }
            case "model_change" -> {
                String model = JsonSupport.text(r, "modelId");
                if (model != null) {
                    return new EntryPayload.ModelChange(JsonSupport.text(r, "provider"), model);
                }
            }
            case "thinking_level_change" -> {
                String level = JsonSupport.text(r, "thinkingLevel");
                if (level != null) {
                    return new EntryPayload.ThinkingLevelChange(level);
                }
            }
            case "compaction" -> {
                EntryId kept = null;
                if (v1) {
                    Long index = JsonSupport.longOrNull(r, "firstKeptEntryIndex");
                    kept = index == null ? null : byIndex.get(index.intValue());
                } else {
                    kept = JsonSupport.entryIdOrNull(JsonSupport.text(r, "firstKeptEntryId"));
                }
                return new EntryPayload.Compaction(JsonSupport.text(r, "summary"), kept,
                        JsonSupport.longOrNull(r, "tokensBefore"));
            }
            case "branch_summary" -> {
                String summary = JsonSupport.text(r, "summary");
                if (summary != null) {
                    return new EntryPayload.BranchSummary(JsonSupport.entryIdOrNull(JsonSupport.text(r, "fromId")), summary);
                }
            }
            case "label" -> {
                EntryId target = JsonSupport.entryIdOrNull(JsonSupport.text(r, "targetId"));
                if (target != null) {
                    return new EntryPayload.Label(target, JsonSupport.text(r, "label"));
                }
            }
            case "session_info" -> {
                return new EntryPayload.SessionName(JsonSupport.text(r, "name"));
            }
            case "custom_message" -> {
                Message.Builder b = Message.builder(Role.of("custom"));
                content(b, r.get("content"));
                return b.createdAt(JsonSupport.instant(r, "timestamp")).build();
            }
            case "custom" -> {
                JsonNode data = r.get("data");
                String customType = JsonSupport.text(r, "customType");
                if (customType != null) {
                    return new EntryPayload.Custom(customType, data == null ? RawJson.NULL : JsonSupport.raw(data));
                }
            }
            default -> {
                // kept whole below
            }
        }
        ObjectNode data = r.deepCopy();
        data.remove("id");
        data.remove("parentId");
        data.remove("timestamp");
        return new EntryPayload.Custom(type, JsonSupport.raw(data));
    }

    private static void content(Message.Builder b, @Nullable JsonNode content) {
        if (content != null && content.isTextual()) {
            b.plainText(content.textValue());
        } else if (content != null && content.isArray()) {
            b.content(decodeBlocks(content));
        }
    }

    private static Message decodeMessage(JsonNode m) {
        String role = JsonSupport.text(m, "role");
        Instant created = JsonSupport.epochMillis(m, "timestamp");
        switch (role) {
            case "user", "assistant" -> {
                Message.Builder b = Message.builder(Role.of(role)).createdAt(created);
                content(b, m.get("content"));
                if (role.equals("assistant")) {
                    b.provider(JsonSupport.text(m, "provider")).model(JsonSupport.text(m, "model"))
                            .stopReason(JsonSupport.text(m, "stopReason"))
                            .errorMessage(JsonSupport.text(m, "errorMessage"))
                            .responseId(JsonSupport.text(m, "responseId"));
                    JsonNode u = m.get("usage");
                    if (u != null && u.isObject()) {
                        JsonNode cost = u.path("cost").path("total");
                        BigDecimal total = cost.isNumber() ? cost.decimalValue() : null;
                        b.usage(new Usage(JsonSupport.longOr(u, "input", 0), JsonSupport.longOr(u, "output", 0),
                                JsonSupport.longOr(u, "cacheRead", 0), JsonSupport.longOr(u, "cacheWrite", 0), 0, total));
                    }
                }
                return b.build();
            }
            case "toolResult" -> {
                String callId = JsonSupport.text(m, "toolCallId");
                JsonNode content = m.get("content");
                if (callId != null && content != null && content.isArray()) {
                    return Message.builder(Role.TOOL).createdAt(created)
                            .add(new ContentBlock.ToolResult(callId, JsonSupport.text(m, "toolName"), decodeBlocks(content),
                                    m.path("isError").asBoolean(false), false))
                            .build();
                }
                return Message.builder(Role.of(role)).createdAt(created).build();
            }
            case "bashExecution" -> {
                String command = JsonSupport.text(m, "command");
                String output = JsonSupport.text(m, "output");
                return Message.builder(Role.of(role)).createdAt(created)
                        .plainText("$ " + (command == null ? "" : command) + "\n" + (output == null ? "" : output)).build();
            }
            default -> {
                Message.Builder b = Message.builder(Role.of(role)).createdAt(created);
                content(b, m.get("content"));
                return b.build();
            }
        }
    }

    private static List<ContentBlock> decodeBlocks(JsonNode array) {
        List<ContentBlock> out = new ArrayList<>(array.size());
        for (JsonNode b : array) {
            String type = JsonSupport.text(b, "type");
            ContentBlock block = null;
            if ("text".equals(type) && JsonSupport.text(b, "text") != null) {
                block = new ContentBlock.Text(JsonSupport.text(b, "text"));
            } else if ("thinking".equals(type) && JsonSupport.text(b, "thinking") != null) {
                block = new ContentBlock.Thinking(JsonSupport.text(b, "thinking"), JsonSupport.text(b, "thinkingSignature"));
            } else if ("toolCall".equals(type) && JsonSupport.text(b, "name") != null) {
                JsonNode args = b.get("arguments");
                block = new ContentBlock.ToolCall(JsonSupport.text(b, "id"), JsonSupport.text(b, "name"),
                        args == null ? RawJson.EMPTY_OBJECT : JsonSupport.raw(args));
            } else if ("image".equals(type) && JsonSupport.text(b, "data") != null) {
                block = new ContentBlock.Image(JsonSupport.text(b, "mimeType"), JsonSupport.text(b, "data"), null);
            }
            out.add(block != null ? block : new ContentBlock.ProviderItem(type == null ? "untyped" : type, JsonSupport.raw(b)));
        }
        return out;
    }

    /**
     * The line for an entry; with {@code ctx} null, the deterministic encoding residuals are computed against.
     *
     * @return the record, or null when the entry has no pi form (a custom entry of another format)
     */
    static @Nullable ObjectNode encode(Entry e, @Nullable ExportContext ctx) {
        EntryPayload p = e.payload();
        if (p instanceof EntryPayload.Custom c && c.customType().equals(HEADER_TYPE) && e.parentId() == null) {
            if (ctx != null && !isPi(e)) {
                return null;
            }
            JsonNode data = JsonSupport.node(c.data());
            return data.isObject() ? (ObjectNode) data.deepCopy() : JsonSupport.object();
        }
        if (ctx != null && p instanceof EntryPayload.Custom && !isPi(e)) {
            return null;
        }
        ObjectNode o = JsonSupport.object();
        if (p instanceof Message m) {
            o.put("type", "message");
            o.set("message", encodeMessage(m));
        } else if (p instanceof EntryPayload.ModelChange mc) {
            o.put("type", "model_change");
            JsonSupport.putText(o, "provider", mc.provider());
            o.put("modelId", mc.model());
        } else if (p instanceof EntryPayload.ThinkingLevelChange t) {
            o.put("type", "thinking_level_change");
            o.put("thinkingLevel", t.level());
        } else if (p instanceof EntryPayload.Compaction c) {
            o.put("type", "compaction");
            JsonSupport.putText(o, "summary", c.summary());
            if (c.firstKeptEntryId() != null) {
                o.put("firstKeptEntryId", c.firstKeptEntryId().value());
            }
            if (c.tokensBefore() != null) {
                o.put("tokensBefore", c.tokensBefore());
            }
        } else if (p instanceof EntryPayload.BranchSummary b) {
            o.put("type", "branch_summary");
            if (b.fromId() != null) {
                o.put("fromId", b.fromId().value());
            }
            o.put("summary", b.summary());
        } else if (p instanceof EntryPayload.Label l) {
            o.put("type", "label");
            o.put("targetId", l.targetId().value());
            JsonSupport.putText(o, "label", l.label());
        } else if (p instanceof EntryPayload.SessionName n) {
            o.put("type", "session_info");
            JsonSupport.putText(o, "name", n.name());
        } else if (p instanceof EntryPayload.Custom c) {
            o.put("type", "custom");
            o.put("customType", c.customType());
            o.set("data", JsonSupport.node(c.data()));
        }
        o.put("id", e.id().value());
        JsonSupport.putId(o, "parentId", e.parentId());
        if (e.timestamp() != null) {
            o.put("timestamp", Instants.format(e.timestamp()));
        }
        return o;
    }

    private static boolean isPi(Entry e) {
        return e.source() != null && Format.PI.cliName().equals(e.source().format());
    }

    private static ObjectNode encodeMessage(Message m) {
        ObjectNode o = JsonSupport.object();
        String role = m.role().equals(Role.TOOL) ? "toolResult" : m.role().name();
        o.put("role", role);
        if (m.role().equals(Role.TOOL) && m.toolResults().size() == 1 && m.content().size() == 1) {
            ContentBlock.ToolResult r = m.toolResults().get(0);
            o.put("toolCallId", r.callId());
            JsonSupport.putText(o, "toolName", r.toolName());
            o.set("content", encodeBlocks(r.content()));
            o.put("isError", r.isError());
        } else if (m.plainText()) {
            o.put("content", m.text());
        } else {
            o.set("content", encodeBlocks(m.content()));
        }
        if (m.role().equals(Role.ASSISTANT)) {
            JsonSupport.putText(o, "provider", m.provider());
            JsonSupport.putText(o, "model", m.model());
            if (m.usage() != null) {
                Usage u = m.usage();
                ObjectNode usage = o.putObject("usage");
                usage.put("input", u.inputTokens());
                usage.put("output", u.outputTokens());
                usage.put("cacheRead", u.cacheReadTokens());
                usage.put("cacheWrite", u.cacheWriteTokens());
                usage.put("totalTokens", u.totalTokens());
                if (u.costUsd() != null) {
                    usage.putObject("cost").put("total", u.costUsd());
                }
            }
            JsonSupport.putText(o, "stopReason", m.stopReason());
            JsonSupport.putText(o, "errorMessage", m.errorMessage());
            JsonSupport.putText(o, "responseId", m.responseId());
        }
        if (m.createdAt() != null) {
            o.put("timestamp", m.createdAt().toEpochMilli());
        }
        return o;
    }

    private static ArrayNode encodeBlocks(List<ContentBlock> blocks) {
        ArrayNode out = JsonSupport.array();
        for (ContentBlock block : blocks) {
            ObjectNode o = JsonSupport.object();
            if (block instanceof ContentBlock.Text t) {
                o.put("type", "text");
                o.put("text", t.text());
            } else if (block instanceof ContentBlock.Thinking t) {
                o.put("type", "thinking");
                o.put("thinking", t.text());
                JsonSupport.putText(o, "thinkingSignature", t.signature());
            } else if (block instanceof ContentBlock.ToolCall c) {
                o.put("type", "toolCall");
                JsonSupport.putText(o, "id", c.id());
                o.put("name", c.name());
                o.set("arguments", JsonSupport.node(c.arguments()));
            } else if (block instanceof ContentBlock.Image i && i.data() != null) {
                o.put("type", "image");
                o.put("data", i.data());
                JsonSupport.putText(o, "mimeType", i.mediaType());
            } else if (block instanceof ContentBlock.ProviderItem item) {
                out.add(JsonSupport.node(item.item()));
                continue;
            } else {
                // results nested in a non-tool message, images by URL, files: no pi form; kept as text
                o.put("type", "text");
                o.put("text", Json.write(dev.parley.json.EntryCodec.encodeBlock(block)));
            }
            out.add(o);
        }
        return out;
    }

    /**
     * The lines of an agent's entries in pi form, with a header first when the entries do not start with one; each
     * entry written is told to {@code notes}.
     */
    static List<String> export(List<Entry> entries, ExportContext ctx, Instant createdAt, ExportNotes notes) {
        List<String> out = new ArrayList<>(entries.size() + 1);
        boolean hasHeader = !entries.isEmpty() && isPi(entries.get(0)) && entries.get(0).payload()
                instanceof EntryPayload.Custom c && c.customType().equals(HEADER_TYPE);
        if (!hasHeader) {
            ObjectNode header = JsonSupport.object();
            header.put("type", HEADER_TYPE);
            header.put("version", 3);
            header.put("id", ctx.sourceSessionId());
            header.put("timestamp", Instants.format(createdAt));
            header.put("cwd", "");
            out.add(Json.write(header));
        }
        Reparenting parents = new Reparenting();
        for (Entry e : entries) {
            JsonNode record = isPi(e) ? JsonSupport.restore(encode(e, null), e.source()) : encode(parents.reparent(e), ctx);
            parents.note(e, record != null);
            if (record != null) {
                out.add(Json.write(record));
                notes.wrote(e.id());
            }
        }
        return out;
    }
}
