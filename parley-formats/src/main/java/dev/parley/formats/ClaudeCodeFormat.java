package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.Ids;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Claude Code session files. Every line becomes one entry:
 * <ul>
 *   <li>{@code user} and {@code assistant} records become messages (a user record holding only tool results is a
 *       {@link Role#TOOL} message; split assistant records keep their shared {@code message.id} as the response
 *       id);</li>
 *   <li>{@code system/compact_boundary} becomes a compaction (a new root; its dangling {@code logicalParentUuid}
 *       is kept as source data, so both components of the tree stay);</li>
 *   <li>everything else ({@code progress}, {@code attachment}, {@code file-history-snapshot}, legacy
 *       {@code summary} lines, other system records…) is a custom entry of that type, in the parent chain when it
 *       has a {@code uuid}.</li>
 * </ul>
 * Entry ids are the records' {@code uuid}s; records without one (or with a repeated or invalid one) get
 * {@code line-N} ({@code AGENT.line-N} in subagent files). A {@code parentUuid} names the latest earlier record of
 * the session with that uuid, across the main file and its subagent files; one that names nothing fails the file.
 */
final class ClaudeCodeFormat {
    private static final Pattern AGENT_FILE = Pattern.compile("agent-(.+)\\.jsonl");

    private ClaudeCodeFormat() {}

    /** A Claude Code file read but not yet tied into its session. */
    record ClaudeFile(Path path, @Nullable String sessionId, AgentId agent, List<JsonLines.Line> lines) {
        boolean isMain() {
            return agent.equals(AgentId.MAIN);
        }
    }

    /** Whether a record looks like a Claude Code record. */
    static boolean looksLike(JsonNode first) {
        String type = JsonSupport.text(first, "type");
        return first.has("sessionId") || first.has("parentUuid") || first.has("leafUuid")
                || "file-history-snapshot".equals(type) || "queue-operation".equals(type);
    }

    /**
     * Reads a file and works out its session and agent.
     *
     * @throws SourceFileException if a line is not a JSON object, or no record is a Claude Code record (a file of
     *     another kind, read as Claude Code because that format was forced)
     */
    static ClaudeFile read(Path file, List<ImportProblem> warnings) {
        List<JsonLines.Line> lines = JsonLines.read(file, warnings);
        if (lines.stream().noneMatch(l -> looksLike(l.node()) || l.node().has("uuid"))) {
            throw SourceFileException.notOfTheFormat(file, lines.isEmpty() ? 0 : lines.get(0).number(),
                    "a Claude Code session file has records with a \"uuid\", \"sessionId\" or \"parentUuid\"");
        }
        for (JsonLines.Line l : lines) {
            for (String key : new String[] {"sessionId", "uuid", "parentUuid", "agentId"}) {
                JsonNode v = l.node().get(key);
                if (v != null && v.isTextual()) {
                    SourceIds.checkSafe(v.textValue(), key, file, l.number());
                }
            }
        }
        return new ClaudeFile(file, sessionIdOf(file, lines), agentOf(file, lines), lines);
    }

    private static @Nullable String sessionIdOf(Path file, List<JsonLines.Line> lines) {
        String stem = file.getFileName().toString().replaceFirst("\\.jsonl$", "");
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (JsonLines.Line l : lines) {
            String sid = JsonSupport.text(l.node(), "sessionId");
            if (sid != null && Ids.isValid(sid)) {
                if (sid.equals(stem)) {
                    return sid;
                }
                counts.merge(sid, 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }

    /** A sidechain file: every record that says so is a sidechain, and they name one agent (or the file does). */
    private static AgentId agentOf(Path file, List<JsonLines.Line> lines) {
        String named = null;
        Matcher m = AGENT_FILE.matcher(file.getFileName().toString());
        if (m.matches() && file.getParent() != null && file.getParent().getFileName() != null
                && file.getParent().getFileName().toString().equals("subagents")) {
            named = m.group(1);
        }
        boolean anySidechain = false;
        String agentId = null;
        for (JsonLines.Line l : lines) {
            JsonNode side = l.node().get("isSidechain");
            if (side != null) {
                if (!side.asBoolean(false)) {
                    return AgentId.MAIN;
                }
                anySidechain = true;
            }
            String a = JsonSupport.text(l.node(), "agentId");
            if (a != null) {
                if (agentId != null && !agentId.equals(a)) {
                    return AgentId.MAIN;
                }
                agentId = a;
            }
        }
        String chosen = agentId != null ? agentId : named;
        if ((anySidechain || named != null) && chosen != null && Ids.isValid(chosen) && !chosen.equals("main")) {
            return new AgentId(chosen);
        }
        return AgentId.MAIN;
    }

    /**
     * Turns a file's records into entries, resolving parents against the session read so far.
     *
     * @param uuids the session's uuid → entry id map (the latest record with each uuid), extended as records are read
     * @param usedIds entry ids already taken in the session, extended
     * @throws SourceFileException naming the line whose parent cannot be resolved
     */
    static ParsedAgent assemble(ClaudeFile file, Map<String, EntryId> uuids, Set<EntryId> usedIds,
                                List<ImportProblem> warnings) {
        Map<String, EntryId> localUuids = new HashMap<>(uuids);
        Set<EntryId> localUsed = new HashSet<>(usedIds);
        Set<String> laterUuids = new HashSet<>();
        for (JsonLines.Line l : file.lines()) {
            String u = JsonSupport.text(l.node(), "uuid");
            if (u != null) {
                laterUuids.add(u);
            }
        }
        List<NewEntry> entries = new ArrayList<>(file.lines().size());
        Map<String, JsonLines.Line> firstWithUuid = new HashMap<>();
        for (JsonLines.Line line : file.lines()) {
            ObjectNode record = line.node();
            String uuid = JsonSupport.text(record, "uuid");
            EntryId id = uuid != null && Ids.isValid(uuid) && !localUsed.contains(new EntryId(uuid))
                    ? new EntryId(uuid) : synthesizedId(file.agent(), line.number(), localUsed);
            if (uuid != null) {
                JsonLines.Line first = firstWithUuid.putIfAbsent(uuid, line);
                if (first != null && !first.node().equals(record)) {
                    // Both are kept (an export writes both lines back); a reader should know which is which.
                    warnings.add(ImportProblem.warning(file.path(), line.number(), "uuid " + uuid + " was used by"
                            + " line " + first.number() + " for a different record; this one is kept as entry " + id));
                }
            }
            EntryId parent = null;
            String parentUuid = JsonSupport.text(record, "parentUuid");
            if (parentUuid != null) {
                parent = localUuids.get(parentUuid);
                if (parent == null) {
                    if (parentUuid.equals(uuid)) {
                        warnings.add(ImportProblem.warning(file.path(), line.number(),
                                "the record names itself as its parent; imported as a root"));
                    } else if (laterUuids.contains(parentUuid)) {
                        throw new SourceFileException(file.path(), line.number(),
                                "parent " + parentUuid + " only appears later in the file");
                    } else {
                        throw new SourceFileException(file.path(), line.number(),
                                "parent " + parentUuid + " does not exist in session " + file.sessionId());
                    }
                }
            }
            Instant timestamp = JsonSupport.instant(record, "timestamp");
            EntryPayload payload = decode(record, timestamp);
            Entry provisional = new Entry(1, id, parent, file.agent(), timestamp, payload, null);
            entries.add(new NewEntry(id, parent, timestamp, payload,
                    JsonSupport.source(Format.CLAUDE_CODE, record, encode(provisional, null))));
            localUsed.add(id);
            if (uuid != null) {
                localUuids.put(uuid, id);
            }
        }
        uuids.putAll(localUuids);
        usedIds.addAll(localUsed);
        return new ParsedAgent(file.agent(), file.path(), entries,
                file.lines().stream().map(JsonLines.Line::number).toList());
    }

    private static EntryId synthesizedId(AgentId agent, int line, Set<EntryId> used) {
        String base = (agent.equals(AgentId.MAIN) ? "" : agent.value() + ".") + "line-" + line;
        EntryId id = new EntryId(base);
        for (int n = 2; used.contains(id); n++) {
            id = new EntryId(base + "-" + n);
        }
        return id;
    }

    /** The model of one record. */
    static EntryPayload decode(ObjectNode record, @Nullable Instant timestamp) {
        String type = JsonSupport.text(record, "type");
        JsonNode message = record.get("message");
        if (("user".equals(type) || "assistant".equals(type)) && message != null && message.isObject()) {
            return decodeMessage(type, message, timestamp);
        }
        if ("system".equals(type) && "compact_boundary".equals(JsonSupport.text(record, "subtype"))) {
            JsonNode meta = record.path("compactMetadata");
            return new EntryPayload.Compaction(null, null, JsonSupport.longOrNull(meta, "preTokens"));
        }
        ObjectNode data = record.deepCopy();
        data.remove("uuid");
        data.remove("parentUuid");
        data.remove("timestamp");
        return new EntryPayload.Custom(type == null ? "untyped" : type, JsonSupport.raw(data));
    }

    private static Message decodeMessage(String type, JsonNode message, @Nullable Instant timestamp) {
        JsonNode content = message.get("content");
        Message.Builder b = Message.builder(type.equals("assistant") ? Role.ASSISTANT : Role.USER);
        if (content != null && content.isTextual()) {
            b.plainText(content.textValue());
        } else if (content != null && content.isArray()) {
            List<ContentBlock> blocks = AnthropicBlocks.decode(content);
            b.content(blocks);
            if (type.equals("user") && !blocks.isEmpty()
                    && blocks.stream().allMatch(x -> x instanceof ContentBlock.ToolResult)) {
                b.role(Role.TOOL);
            }
        }
        b.createdAt(timestamp);
        if (type.equals("assistant")) {
            String model = JsonSupport.text(message, "model");
            b.model(model).provider(model != null ? "anthropic" : null)
                    .responseId(JsonSupport.text(message, "id"))
                    .stopReason(JsonSupport.text(message, "stop_reason"));
            JsonNode usage = message.get("usage");
            if (usage != null && usage.isObject()) {
                b.usage(new Usage(JsonSupport.longOr(usage, "input_tokens", 0), JsonSupport.longOr(usage, "output_tokens", 0),
                        JsonSupport.longOr(usage, "cache_read_input_tokens", 0),
                        JsonSupport.longOr(usage, "cache_creation_input_tokens", 0), 0, null));
            }
        }
        return b.build();
    }

    /**
     * The record for an entry. With {@code ctx} null this is the deterministic encoding residuals are computed
     * against; with a context, records also carry the session id and sidechain fields Claude Code writes.
     *
     * @return the record, or null when the entry has no Claude Code form (a custom entry of another format)
     */
    static @Nullable ObjectNode encode(Entry e, @Nullable ExportContext ctx) {
        ObjectNode o = JsonSupport.object();
        EntryPayload p = e.payload();
        if (p instanceof EntryPayload.Custom c) {
            if (ctx != null && (e.source() == null || !Format.CLAUDE_CODE.cliName().equals(e.source().format()))) {
                return null;
            }
            JsonNode data = JsonSupport.node(c.data());
            if (data.isObject()) {
                o.setAll((ObjectNode) data);
            } else {
                o.put("type", c.customType());
            }
            o.put("uuid", e.id().value());
            JsonSupport.putId(o, "parentUuid", e.parentId());
            if (e.timestamp() != null) {
                o.put("timestamp", Instants.format(e.timestamp()));
            }
            return o;
        }
        JsonSupport.putId(o, "parentUuid", e.parentId());
        if (ctx != null) {
            boolean side = !ctx.agent().equals(AgentId.MAIN);
            o.put("isSidechain", side);
            o.put("sessionId", ctx.sourceSessionId());
            if (side) {
                o.put("agentId", ctx.agent().value());
            }
        }
        if (p instanceof Message m) {
            boolean assistant = m.role().equals(Role.ASSISTANT);
            o.put("type", assistant ? "assistant" : "user");
            ObjectNode message = o.putObject("message");
            if (assistant) {
                JsonSupport.putText(message, "model", m.model());
                JsonSupport.putText(message, "id", m.responseId());
                message.put("type", "message");
            }
            message.put("role", assistant ? "assistant" : "user");
            if (m.plainText()) {
                message.put("content", m.text());
            } else {
                message.set("content", AnthropicBlocks.encode(m.content()));
            }
            if (assistant) {
                JsonSupport.putNullable(message, "stop_reason", m.stopReason());
                message.putNull("stop_sequence");
                if (m.usage() != null) {
                    Usage u = m.usage();
                    ObjectNode usage = message.putObject("usage");
                    usage.put("input_tokens", u.inputTokens());
                    usage.put("cache_creation_input_tokens", u.cacheWriteTokens());
                    usage.put("cache_read_input_tokens", u.cacheReadTokens());
                    usage.put("output_tokens", u.outputTokens());
                }
            }
        } else if (p instanceof EntryPayload.Compaction c) {
            o.put("type", "system");
            o.put("subtype", "compact_boundary");
            o.put("content", "Conversation compacted");
            ObjectNode meta = o.putObject("compactMetadata");
            if (c.tokensBefore() != null) {
                meta.put("preTokens", c.tokensBefore());
            }
        } else {
            // model changes, labels and the like have no Claude Code record
            return ctx == null ? o : null;
        }
        o.put("uuid", e.id().value());
        if (e.timestamp() != null) {
            o.put("timestamp", Instants.format(e.timestamp()));
        }
        return o;
    }

    /** The lines of an agent's entries in Claude Code form; each entry written is told to {@code notes}. */
    static List<String> export(List<Entry> entries, ExportContext ctx, ExportNotes notes) {
        List<String> out = new ArrayList<>(entries.size());
        Reparenting parents = new Reparenting();
        for (Entry e : entries) {
            JsonNode record;
            if (e.source() != null && Format.CLAUDE_CODE.cliName().equals(e.source().format())) {
                record = JsonSupport.restore(encode(e, null), e.source());
            } else {
                record = encode(parents.reparent(e), ctx);
            }
            parents.note(e, record != null);
            if (record != null) {
                out.add(Json.write(record));
                notes.wrote(e.id());
            }
        }
        return out;
    }

    /** Whether an imported entry was a Claude Code meta record ({@code isMeta:true}: not user intent). */
    static boolean isMeta(Entry e) {
        return isMeta(e.source());
    }

    /** Whether a source record says it was a Claude Code meta record ({@code isMeta:true}). */
    static boolean isMeta(dev.parley.core.model.@Nullable SourceRecord source) {
        if (source == null || source.residual() == null || !Format.CLAUDE_CODE.cliName().equals(source.format())) {
            return false;
        }
        return Json.tree(source.residual()).path("isMeta").asBoolean(false);
    }

    /** A catalog title from a file's records: a custom or AI title, a legacy summary, or null. */
    static @Nullable String title(List<JsonLines.Line> lines) {
        String custom = null;
        String ai = null;
        String summary = null;
        for (JsonLines.Line l : lines) {
            String type = JsonSupport.text(l.node(), "type");
            if ("custom-title".equals(type)) {
                custom = JsonSupport.text(l.node(), "customTitle");
            } else if ("ai-title".equals(type)) {
                ai = JsonSupport.text(l.node(), "aiTitle");
            } else if ("summary".equals(type) && summary == null) {
                summary = JsonSupport.text(l.node(), "summary");
            }
        }
        return custom != null ? custom : ai != null ? ai : summary;
    }
}
