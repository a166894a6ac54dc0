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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes a stored session in a transcript format.
 *
 * <p>Entries imported from the target format come back exactly as they were read: the format's encoding of the
 * model plus the entry's residual. Anything else is converted from the model (best effort: what a format cannot
 * express, such as another format's custom records, is left out).
 * <ul>
 *   <li>{@code parley}: the header and every entry (of one agent with {@code --agent}), exact.</li>
 *   <li>{@code claude-code}, {@code pi}: one agent's entries, one record per line, in insertion order.</li>
 *   <li>{@code openai-chat}, {@code anthropic-messages}: one agent's active conversation as a request body, the
 *       dangling user prompt included (an export is the log, not a provider request).</li>
 * </ul>
 * Thread-safe if the log is.
 */
public final class Exporter {
    private final MessageLog log;
    private final SessionCatalog catalog;

    /**
     * An exporter of the store's sessions (in its scope).
     *
     * @throws UnsupportedException if the store has no catalog (the null store)
     */
    public Exporter(Store store) {
        this.log = store.log();
        this.catalog = store.catalog().orElseThrow(() -> new UnsupportedException("exporting needs a store with a catalog"));
    }

    /**
     * Exports a session.
     *
     * @param agent the agent to export, or null for the session's only agent (or its {@code main} agent; every agent
     *     for {@code parley})
     * @return the text, ending with a newline
     * @throws NotFoundException if the session or agent does not exist
     * @throws InvalidInputException if the session has several agents and none was chosen
     */
    public String export(SessionId session, Format format, @Nullable AgentId agent) {
        SessionInfo info = catalog.find(session).orElseThrow(() -> new NotFoundException("no session " + session));
        List<Entry> entries = log.load(session, null);
        List<AgentId> agents = ConversationBuilder.agents(entries);
        if (format == Format.PARLEY) {
            List<Entry> chosen = agent == null ? entries : ofAgent(entries, resolve(agent, agents, session));
            return lines(ParleyFormat.export(info, chosen));
        }
        AgentId a = resolve(agent, agents, session);
        ExportContext ctx = new ExportContext(session, sourceSessionId(info), a);
        return switch (format) {
            case CLAUDE_CODE -> lines(ClaudeCodeFormat.export(ofAgent(entries, a), ctx));
            case PI -> lines(PiFormat.export(ofAgent(entries, a), ctx, info.createdAt()));
            case OPENAI_CHAT, ANTHROPIC_MESSAGES -> document(info, entries, a, format);
            case PARLEY -> throw new IllegalStateException("handled above");
        };
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
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON tree", e);
        }
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

    private static List<Entry> ofAgent(List<Entry> entries, AgentId agent) {
        return entries.stream().filter(e -> e.agentId().equals(agent)).toList();
    }

    /** The agent to export: the one asked for, the only one, or {@code main}. */
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
