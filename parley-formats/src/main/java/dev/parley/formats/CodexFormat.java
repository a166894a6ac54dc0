package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.Ids;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * OpenAI Codex CLI rollouts: one {@code {timestamp, type, payload}} record per line. Every line becomes one entry,
 * chained to the line before it (a rollout has no branches), with the id {@code line-N}:
 * <ul>
 *   <li>{@code response_item}: the model-visible history, mapped by {@link ResponsesItems};</li>
 *   <li>{@code turn_context}: a model change to its {@code model} (the rest of the context is kept verbatim);</li>
 *   <li>{@code compacted}: a compaction whose summary is the {@code message} (its {@code replacement_history} is
 *       kept verbatim);</li>
 *   <li>everything else ({@code session_meta}, {@code event_msg} with its token counts and UI events that
 *       duplicate the items, {@code world_state}, types that appear in later versions): a custom entry of the line's
 *       type holding its payload.</li>
 * </ul>
 * The source session id is the first {@code session_meta}'s {@code id}.
 */
final class CodexFormat {
    static final String META = "session_meta";

    private CodexFormat() {}

    /** Whether a first record is a Codex rollout record. */
    static boolean looksLike(JsonNode first) {
        String type = JsonSupport.text(first, "type");
        return first.has("payload") && (META.equals(type) || "response_item".equals(type)
                || "turn_context".equals(type) || "event_msg".equals(type));
    }

    static ParsedSession read(Path file, List<ImportProblem> warnings) {
        List<JsonLines.Line> lines = JsonLines.read(file, warnings);
        if (lines.isEmpty() || !looksLike(lines.get(0).node())) {
            throw SourceFileException.notOfTheFormat(file, lines.isEmpty() ? 0 : lines.get(0).number(),
                    "a Codex rollout starts with a {\"type\":\"session_meta\",\"payload\":…} record");
        }
        String sessionId = null;
        for (JsonLines.Line l : lines) {
            if (META.equals(JsonSupport.text(l.node(), "type"))) {
                String id = JsonSupport.text(l.node().path("payload"), "id");
                SourceIds.checkSafe(id, "session id", file, l.number());
                sessionId = id != null && Ids.isValid(id) ? id : null;
                break;
            }
        }
        List<NewEntry> entries = new ArrayList<>(lines.size());
        List<Integer> numbers = new ArrayList<>(lines.size());
        EntryId parent = null;
        for (JsonLines.Line l : lines) {
            EntryId id = new EntryId("line-" + l.number());
            Instant timestamp = JsonSupport.instant(l.node(), "timestamp");
            EntryPayload payload = decode(l.node());
            Entry provisional = new Entry(1, id, parent, AgentId.MAIN, timestamp, payload, null);
            entries.add(new NewEntry(id, parent, timestamp, payload,
                    JsonSupport.source(Format.CODEX, l.node(), encode(provisional))));
            numbers.add(l.number());
            parent = id;
        }
        String origin = "codex:" + (sessionId != null ? sessionId : "sha256:" + Hashing.sha256(lines));
        return new ParsedSession(Format.CODEX, sessionId, origin, PiFormat.firstUserText(realPrompts(entries)),
                Map.of(), List.of(new ParsedAgent(AgentId.MAIN, file, entries, numbers)), null, null);
    }

    /** Entries without Codex's pseudo-user context messages, for the title. */
    private static List<NewEntry> realPrompts(List<NewEntry> entries) {
        return entries.stream().filter(e -> !(e.payload() instanceof Message m) || !isContext(m)).toList();
    }

    /** Whether a user message is context Codex adds ({@code <environment_context>}, {@code <user_instructions>}). */
    static boolean isContext(Message m) {
        String t = m.text().stripLeading();
        return t.startsWith("<environment_context>") || t.startsWith("<user_instructions>");
    }

    private static EntryPayload decode(ObjectNode record) {
        String type = JsonSupport.text(record, "type");
        JsonNode payload = record.get("payload");
        if ("response_item".equals(type) && payload != null && payload.isObject()) {
            EntryPayload p = ResponsesItems.decode(payload);
            if (!(p instanceof EntryPayload.Custom)) {
                return p;
            }
        }
        if ("turn_context".equals(type) && payload != null && JsonSupport.text(payload, "model") != null) {
            return new EntryPayload.ModelChange(null, JsonSupport.text(payload, "model"));
        }
        if ("compacted".equals(type) && payload != null && payload.isObject()) {
            String message = JsonSupport.text(payload, "message");
            return new EntryPayload.Compaction(message == null || message.isEmpty() ? null : message, null, null);
        }
        return new EntryPayload.Custom(type == null ? "untyped" : type,
                payload == null ? dev.parley.core.RawJson.NULL : JsonSupport.raw(payload));
    }

    /** The deterministic encoding of an entry imported from a rollout. */
    static ObjectNode encode(Entry e) {
        ObjectNode o = JsonSupport.object();
        if (e.timestamp() != null) {
            o.put("timestamp", Instants.format(e.timestamp()));
        }
        EntryPayload p = e.payload();
        if (p instanceof EntryPayload.Custom c) {
            o.put("type", c.customType());
            o.set("payload", JsonSupport.node(c.data()));
        } else if (p instanceof EntryPayload.ModelChange mc) {
            o.put("type", "turn_context");
            o.putObject("payload").put("model", mc.model());
        } else if (p instanceof EntryPayload.Compaction c) {
            o.put("type", "compacted");
            o.putObject("payload").put("message", c.summary() == null ? "" : c.summary());
        } else {
            o.put("type", "response_item");
            ObjectNode item = ResponsesItems.encodeOne(p);
            o.set("payload", item == null ? JsonSupport.object() : item);
        }
        return o;
    }

    static boolean isCodex(Entry e) {
        return e.source() != null && Format.CODEX.cliName().equals(e.source().format());
    }

    /**
     * The lines of a rollout: entries imported from Codex exactly as read; a conversation of another format as
     * response items after a {@code session_meta} line (and a {@code turn_context} naming its model, when known).
     */
    static List<String> exportOwn(List<Entry> entries) {
        List<String> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            out.add(Json.write(JsonSupport.restore(encode(e), e.source())));
        }
        return out;
    }

    /** A converted conversation as rollout lines. */
    static List<String> exportConverted(List<ExportedMessage> messages, ExportContext ctx, Instant createdAt,
                                        @Nullable String model) {
        List<String> out = new ArrayList<>();
        ObjectNode meta = JsonSupport.object();
        meta.put("timestamp", Instants.format(createdAt));
        meta.put("type", META);
        ObjectNode payload = meta.putObject("payload");
        payload.put("id", ctx.sourceSessionId());
        payload.put("timestamp", Instants.format(createdAt));
        payload.put("originator", "parley");
        out.add(Json.write(meta));
        if (model != null) {
            ObjectNode turn = JsonSupport.object();
            turn.put("timestamp", Instants.format(createdAt));
            turn.put("type", "turn_context");
            turn.putObject("payload").put("model", model);
            out.add(Json.write(turn));
        }
        Instant last = createdAt;
        for (ExportedMessage em : messages) {
            Instant at = em.entry() != null && em.entry().timestamp() != null ? em.entry().timestamp()
                    : em.message().createdAt() != null ? em.message().createdAt() : last;
            last = at;
            for (ObjectNode item : ResponsesItems.encodeAll(em.message())) {
                ObjectNode line = JsonSupport.object();
                line.put("timestamp", Instants.format(at));
                line.put("type", "response_item");
                line.set("payload", item);
                out.add(Json.write(line));
            }
        }
        return out;
    }
}
