package dev.parley.formats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnsupportedException;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationItem;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.Store;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes a stored session in a transcript format.
 *
 * <p>Entries imported from the target format come back exactly as they were read: the format's encoding of the
 * model plus the entry's residual. A session of another format is converted from the model, honestly: the result
 * is valid for the target's API, and {@link Result#notes()} says what was left out or cut.
 * <ul>
 *   <li>{@code parley}: the header and every entry (of one agent with {@code --agent}), exact.</li>
 *   <li>{@code claude-code}, {@code pi}: one agent's entries, one record per line, in insertion order (the tree
 *       kept; records with no form in the target are left out and the tree re-linked around them).</li>
 *   <li>{@code codex}, {@code openai-chat}, {@code openai-responses}, {@code anthropic-messages}, {@code gemini},
 *       {@code aider}: one agent's conversation, the dangling user prompt included (an export is the log, not a
 *       provider request). Converted, it is the active conversation — after the latest compaction, unless
 *       {@code full} asks for the whole history — made acceptable to the target API's message rules (roles, tool
 *       calls paired with their results, alternation) as {@link CrossFormat} describes.</li>
 * </ul>
 * Thread-safe if the log is.
 */
public final class Exporter {
    private final MessageLog log;
    private final SessionCatalog catalog;

    /**
     * An exporter of the store's sessions (in its scope).
     *
     * @param store the store to read; its log and catalog are taken now, and the store stays the caller's to close
     * @throws UnsupportedException if the store has no catalog (the null store)
     */
    public Exporter(Store store) {
        this.log = store.log();
        this.catalog = store.catalog().orElseThrow(() -> new UnsupportedException("exporting needs a store with a catalog"));
    }

    /**
     * What an export wrote, and what it left out.
     *
     * @param text the exported text: lines, each ending with a newline; empty when the export writes no line
     * @param notes one line per kind of thing a converting export left out or cut: records with no form in the
     *     target ({@code left out custom records (no form in codex): 1103 (…)}) or on branches a conversation does
     *     not follow, content of the records it wrote ({@code left out reasoning blocks (…): 14}), and history
     *     before a compaction ({@code cut the messages before the compaction at entry … (…): 587; …}). With the records
     *     written, the records they count are all of the agent's; empty when nothing was left out
     * @param agent the agent exported, or null when a {@code parley} export holds every agent
     * @param agents the session's agents, in the order of their first entries
     */
    public record Result(String text, List<String> notes, @Nullable AgentId agent, List<AgentId> agents) {
        /**
         * Checks the text and copies the lists.
         *
         * @param text the exported text
         * @param notes what the export left out or cut, one line per kind; copied
         * @param agent the agent exported, or null when a {@code parley} export holds every agent
         * @param agents the session's agents, in the order of their first entries; copied
         * @throws NullPointerException if {@code text}, {@code notes} or {@code agents} is null, or a list holds a null
         */
        public Result {
            Objects.requireNonNull(text, "text");
            notes = List.copyOf(notes);
            agents = List.copyOf(agents);
        }

        /**
         * Whether this export picked its agent among several because the caller asked for none ({@code asked} null):
         * then the caller should say which agent it got and which others there are.
         *
         * @param asked the agent the caller passed to {@link Exporter#export}, or null if it passed none
         * @return true if {@code asked} is null, an agent was exported and the session has more than one agent
         */
        public boolean choseAmongAgents(@Nullable AgentId asked) {
            return asked == null && agent != null && agents.size() > 1;
        }
    }

    /**
     * Exports a session's active conversation; the same as {@code export(session, format, agent, false).text()}.
     *
     * @param session the session to export
     * @param format the format to write
     * @param agent the agent to export, or null for the session's only agent (or its {@code main} agent; every agent
     *     for {@code parley})
     * @return the exported text
     * @throws NotFoundException if the session or agent does not exist
     * @throws InvalidInputException if the session has several agents and none was chosen
     */
    public String export(SessionId session, Format format, @Nullable AgentId agent) {
        return export(session, format, agent, false).text();
    }

    /**
     * Exports a session.
     *
     * @param session the session to export
     * @param format the format to write
     * @param agent the agent to export, or null for the session's only agent (or its {@code main} agent; every agent
     *     for {@code parley})
     * @param full for a converting export to a conversation format, the whole history (every compacted segment, in
     *     order) instead of the conversation after the latest compaction
     * @return the text and what a conversion left out
     * @throws NotFoundException if the session or agent does not exist
     * @throws InvalidInputException if the session has several agents and none was chosen
     */
    public Result export(SessionId session, Format format, @Nullable AgentId agent, boolean full) {
        SessionInfo info = catalog.find(session).orElseThrow(() -> new NotFoundException("no session " + session));
        List<Entry> entries = log.load(session, null);
        List<AgentId> agents = ConversationBuilder.agents(entries);
        if (format == Format.PARLEY) {
            List<Entry> chosen = agent == null ? entries : ofAgent(entries, resolve(agent, agents, session));
            return new Result(lines(ParleyFormat.export(info, chosen)), List.of(), agent, agents);
        }
        AgentId a = resolve(agent, agents, session);
        ExportContext ctx = new ExportContext(session, sourceSessionId(info), a);
        List<Entry> mine = ofAgent(entries, a);
        ExportNotes notes = new ExportNotes(format);
        boolean own = !mine.isEmpty() && mine.stream().allMatch(e -> e.source() != null
                && format.cliName().equals(e.source().format()));
        boolean exact = switch (format) {
            case CLAUDE_CODE, PI -> false; // record by record: their own records exact, the others converted
            case OPENAI_CHAT, ANTHROPIC_MESSAGES -> format.cliName().equals(importFormat(info));
            default -> own;
        };
        Instant start = startOf(mine, info);
        String text = switch (format) {
            case CLAUDE_CODE -> lines(ClaudeCodeFormat.export(mine, ctx, notes));
            case PI -> lines(PiFormat.export(mine, ctx, start, notes));
            case CODEX -> lines(exact ? CodexFormat.exportOwn(mine) : CodexFormat.exportConverted(
                    CrossFormat.conversation(session, entries, a, format, full, notes), ctx, start,
                    model(session, entries, a)));
            case AIDER -> exact ? AiderFormat.exportOwn(mine) : AiderFormat.exportConverted(
                    CrossFormat.conversation(session, entries, a, format, full, notes), start);
            case OPENAI_RESPONSES -> pretty(exact ? OpenAiResponsesFormat.exact(mine, sourceFields(info, format))
                    : OpenAiResponsesFormat.document(CrossFormat.conversation(session, entries, a, format, full, notes),
                    null, model(session, entries, a)));
            case GEMINI -> pretty(exact ? GeminiFormat.exact(mine, sourceFields(info, format))
                    : GeminiFormat.document(CrossFormat.conversation(session, entries, a, format, full, notes),
                    ctx.sourceSessionId(), start));
            case OPENAI_CHAT, ANTHROPIC_MESSAGES -> exact ? document(info, entries, a, format)
                    : convertedDocument(info, entries, a, format, full, notes);
            case PARLEY -> throw new IllegalStateException("handled above");
        };
        if (!exact) {
            notes.account(mine);
        }
        return new Result(text, notes.lines(), a, agents);
    }

    private static @Nullable String model(SessionId session, List<Entry> entries, AgentId agent) {
        LoadedConversation c = ConversationBuilder.build(session, entries, agent, ConversationOptions.AS_WRITTEN);
        return c.activeModel() == null ? null : c.activeModel().model();
    }

    private static String convertedDocument(SessionInfo info, List<Entry> entries, AgentId agent, Format format,
                                            boolean full, ExportNotes notes) {
        List<ExportedMessage> messages = CrossFormat.conversation(info.id(), entries, agent, format, full, notes);
        String model = model(info.id(), entries, agent);
        ObjectNode doc = format == Format.OPENAI_CHAT ? OpenAiChatFormat.document(messages, model)
                : AnthropicMessagesFormat.document(messages, null, model);
        return pretty(doc);
    }

    private static @Nullable String importFormat(SessionInfo info) {
        RawJson importInfo = info.metadata().get(Importer.IMPORT_KEY);
        return importInfo == null ? null : Json.tree(importInfo).path("format").asText(null);
    }

    private static String pretty(JsonNode doc) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
    }

    private static String document(SessionInfo info, List<Entry> entries, AgentId agent, Format format) {
        LoadedConversation c = ConversationBuilder.build(info.id(), entries, agent, ConversationOptions.AS_WRITTEN);
        Map<EntryId, Entry> byId = new HashMap<>();
        entries.forEach(e -> byId.put(e.id(), e));
        List<ExportedMessage> messages = new ArrayList<>();
        for (ConversationItem item : c.items()) {
            messages.add(new ExportedMessage(item.entry() == null ? null : byId.get(item.entry()), item.message()));
        }
        if (c.danglingUser() != null) {
            messages.add(new ExportedMessage(byId.get(c.danglingUserEntry()), c.danglingUser()));
        }
        JsonNode sourceFields = sourceFields(info, format);
        String model = c.activeModel() == null ? null : c.activeModel().model();
        ObjectNode doc;
        if (format == Format.OPENAI_CHAT) {
            doc = JsonSupport.object();
            if (sourceFields != null && sourceFields.isObject()) {
                OpenAiChatFormat.putAll(doc, sourceFields);
            }
            ObjectNode body = OpenAiChatFormat.document(messages, sourceFields == null ? model : null);
            doc.setAll(body);
        } else {
            doc = AnthropicMessagesFormat.document(messages, sourceFields, model);
        }
        return pretty(doc);
    }

    /** The session-level fields an import of this format kept, or null. */
    private static @Nullable JsonNode sourceFields(SessionInfo info, Format format) {
        RawJson importInfo = info.metadata().get(Importer.IMPORT_KEY);
        RawJson fields = info.metadata().get(OpenAiChatFormat.SOURCE_FIELDS);
        if (importInfo == null || fields == null
                || !format.cliName().equals(Json.tree(importInfo).path("format").asText())) {
            return null;
        }
        return Json.tree(fields);
    }

    private static String sourceSessionId(SessionInfo info) {
        RawJson importInfo = info.metadata().get(Importer.IMPORT_KEY);
        if (importInfo != null) {
            JsonNode id = Json.tree(importInfo).get("sourceSessionId");
            if (id != null && id.isTextual()) {
                return id.textValue();
            }
        }
        return info.id().value();
    }

    /**
     * When an exported transcript began, for the formats that say so (a pi header, Codex's session meta, Gemini's
     * start time, Aider's heading): the agent's first entry that has a time, or else the session's creation in this
     * store — not that alone, which for an imported session is the time of the import.
     */
    private static Instant startOf(List<Entry> mine, SessionInfo info) {
        return mine.stream().map(Entry::timestamp).filter(Objects::nonNull).min(Comparator.naturalOrder())
                .orElse(info.createdAt());
    }

    private static List<Entry> ofAgent(List<Entry> entries, AgentId agent) {
        return entries.stream().filter(e -> e.agentId().equals(agent)).toList();
    }

    /**
     * The agent to export: the one asked for, the only one, or {@code main}.
     *
     * @param agent the agent asked for, or null for none
     * @param agents the session's agents
     * @param session the session, named in the error messages
     * @return {@code agent} if given; else the only agent, or {@link AgentId#MAIN} when {@code agents} holds it or is
     *     empty
     * @throws NotFoundException if {@code agent} is given and is not among {@code agents}
     * @throws InvalidInputException if {@code agent} is null and {@code agents} holds several agents but not
     *     {@code main}
     */
    public static AgentId resolve(@Nullable AgentId agent, List<AgentId> agents, SessionId session) {
        if (agent != null) {
            if (!agents.contains(agent)) {
                throw new NotFoundException("session " + session + " has no agent " + agent + "; its agents: " + agents);
            }
            return agent;
        }
        if (agents.size() == 1) {
            return agents.get(0);
        }
        if (agents.contains(AgentId.MAIN) || agents.isEmpty()) {
            return AgentId.MAIN;
        }
        throw new InvalidInputException("session " + session + " has several agents " + agents
                + "; choose one with --agent");
    }

    private static String lines(List<String> lines) {
        StringBuilder out = new StringBuilder();
        for (String l : lines) {
            out.append(l).append('\n');
        }
        return out.toString();
    }
}
