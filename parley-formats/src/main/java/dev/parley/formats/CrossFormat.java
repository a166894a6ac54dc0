package dev.parley.formats;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationItem;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The conversation a converting export writes: the agent's active conversation (or, with {@code full}, its whole
 * history across compactions), made acceptable to the target API's message rules, with every change reported.
 * <ol>
 *   <li><b>Roles.</b> System and developer messages stay where the target has them (the chat formats' system role,
 *       Anthropic's {@code system} field, the Responses roles); compaction and branch summaries, pi's
 *       {@code bashExecution} and {@code custom} messages become user messages carrying their text, as pi gives
 *       them to a model; any other role is left out.</li>
 *   <li><b>Blocks.</b> Provider items of another format, and reasoning the target cannot take back (chat
 *       completions have none; Anthropic needs its own signature; Responses its own encrypted content) are left
 *       out, and for Aider, whose history is Markdown text, every block but text. Tool results carried inside
 *       another message are moved into a tool message of their own.</li>
 *   <li><b>Tool pairing.</b> Every result answers a call of the assistant message right before it (results of
 *       several calls may follow one message); a call that no result answers before the next message, a call
 *       without an id and a result that answers no call are left out.</li>
 *   <li><b>Turns.</b> Messages left empty are left out; neighbouring assistant messages are merged. For Anthropic,
 *       assistant messages before the first user message are left out (a request starts with the user).</li>
 * </ol>
 */
final class CrossFormat {
    private CrossFormat() {}

    static final String COMPACTION_PREAMBLE =
            "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
    static final String BRANCH_PREAMBLE =
            "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";

    /**
     * The converted conversation of an agent. The records it came from are told to {@code notes} as written, and
     * without {@code full} the history before the latest compaction as cut.
     */
    static List<ExportedMessage> conversation(SessionId session, List<Entry> entries, AgentId agent, Format target,
                                              boolean full, ExportNotes notes) {
        Map<EntryId, Entry> byId = new HashMap<>();
        entries.forEach(e -> byId.put(e.id(), e));
        List<ConversationItem> items;
        Entry compaction = null;
        if (full) {
            items = fullHistory(session, entries, agent);
        } else {
            LoadedConversation c = ConversationBuilder.build(session, entries, agent, ConversationOptions.AS_WRITTEN);
            items = withDangling(c);
            compaction = lastCompaction(c, byId);
        }
        Set<EntryId> written = records(items, entries, agent);
        written.forEach(notes::wrote);
        if (compaction != null) {
            for (EntryId id : records(fullHistory(session, entries, agent), entries, agent)) {
                if (!written.contains(id)) {
                    notes.cut(id, compaction.id());
                }
            }
        }
        List<ExportedMessage> out = new ArrayList<>();
        for (ConversationItem item : items) {
            Message m = mapRole(item.message(), target, notes);
            if (m != null) {
                out.addAll(split(new ExportedMessage(item.entry() == null ? null : byId.get(item.entry()),
                        filterBlocks(m, target, notes))));
            }
        }
        if (target == Format.ANTHROPIC_MESSAGES) {
            out = dropLeadingAssistant(out, notes);
        }
        out = dropEmpty(out, notes);
        out = pairTools(out, notes);
        out = dropEmpty(out, notes);
        return mergeAssistants(out);
    }

    /**
     * The records of the agent that items came from: each item's entry, and the records of a split response that the
     * conversation merged into one message (assistant records of its response id whose blocks it carries).
     */
    private static Set<EntryId> records(List<ConversationItem> items, List<Entry> entries, AgentId agent) {
        Set<EntryId> out = new HashSet<>();
        Map<String, List<Message>> responses = new HashMap<>();
        for (ConversationItem i : items) {
            if (i.entry() != null) {
                out.add(i.entry());
            }
            Message m = i.message();
            if (m.role().equals(Role.ASSISTANT) && m.responseId() != null) {
                responses.computeIfAbsent(m.responseId(), k -> new ArrayList<>()).add(m);
            }
        }
        for (Entry e : entries) {
            if (e.agentId().equals(agent) && e.payload() instanceof Message m && m.role().equals(Role.ASSISTANT)
                    && m.responseId() != null && responses.getOrDefault(m.responseId(), List.of()).stream()
                    .anyMatch(merged -> merged.content().containsAll(m.content()))) {
                out.add(e.id());
            }
        }
        return out;
    }

    private static List<ConversationItem> withDangling(LoadedConversation c) {
        List<ConversationItem> items = new ArrayList<>(c.items());
        if (c.danglingUser() != null) {
            items.add(new ConversationItem(c.danglingUserEntry(), c.danglingUser()));
        }
        return items;
    }

    private static @Nullable Entry lastCompaction(LoadedConversation c, Map<EntryId, Entry> byId) {
        Entry found = null;
        for (EntryId id : c.path()) {
            Entry e = byId.get(id);
            if (e != null && e.payload() instanceof EntryPayload.Compaction) {
                found = e;
            }
        }
        return found;
    }

    /**
     * Every segment of the history, oldest first: the conversation at the leaf, and before each compaction on its
     * path the conversation that ended there (at the compaction's parent, or — a compaction that starts a new root,
     * as Claude Code writes them — at the agent's last message before it).
     */
    static List<ConversationItem> fullHistory(SessionId session, List<Entry> entries, AgentId agent) {
        Map<EntryId, Entry> byId = new HashMap<>();
        entries.forEach(e -> byId.put(e.id(), e));
        List<List<ConversationItem>> segments = new ArrayList<>();
        EntryId leaf = null;
        long bound = Long.MAX_VALUE;
        for (int guard = 0; guard < 10_000; guard++) {
            LoadedConversation c = ConversationBuilder.build(session, entries, agent,
                    ConversationOptions.AS_WRITTEN.withLeaf(leaf));
            Entry compaction = lastCompaction(c, byId);
            List<ConversationItem> items = withDangling(c);
            if (compaction == null || compaction.seq() >= bound) {
                segments.add(0, items);
                break;
            }
            long at = compaction.seq();
            List<ConversationItem> after = new ArrayList<>();
            for (ConversationItem i : items) {
                Entry e = i.entry() == null ? null : byId.get(i.entry());
                if (e == null || e.seq() >= at) {
                    after.add(i);
                }
            }
            segments.add(0, after);
            bound = at;
            leaf = compaction.parentId();
            if (leaf == null) {
                Entry previous = null;
                for (Entry e : entries) {
                    if (e.seq() < at && e.agentId().equals(agent) && e.payload() instanceof Message) {
                        previous = e;
                    }
                }
                if (previous == null) {
                    break;
                }
                leaf = previous.id();
            }
        }
        List<ConversationItem> out = new ArrayList<>();
        segments.forEach(out::addAll);
        return out;
    }

    private static @Nullable Message mapRole(Message m, Format target, ExportNotes notes) {
        Role role = m.role();
        if (role.equals(Role.USER) || role.equals(Role.ASSISTANT) || role.equals(Role.TOOL)) {
            return m;
        }
        boolean chat = target == Format.OPENAI_CHAT || target == Format.ANTHROPIC_MESSAGES;
        boolean responses = target == Format.OPENAI_RESPONSES || target == Format.CODEX;
        if (role.equals(Role.SYSTEM) || role.name().equals("developer")) {
            if (chat) {
                return m.toBuilder().role(Role.SYSTEM).build();
            }
            if (responses) {
                return m;
            }
            notes.leftOut(role.name() + " messages (no form in " + target + ")", role.name());
            return null;
        }
        String text = m.text();
        if (role.equals(Role.COMPACTION_SUMMARY)) {
            return Message.builder(Role.USER).plainText(COMPACTION_PREAMBLE + text + "\n</summary>")
                    .createdAt(m.createdAt()).build();
        }
        if (role.equals(Role.BRANCH_SUMMARY)) {
            return Message.builder(Role.USER).plainText(BRANCH_PREAMBLE + text + "\n</summary>")
                    .createdAt(m.createdAt()).build();
        }
        if ((role.name().equals("bashExecution") || role.name().equals("custom")) && !text.isEmpty()) {
            return Message.builder(Role.USER).plainText(text).createdAt(m.createdAt()).build();
        }
        notes.leftOut("messages of roles with no form in " + target, role.name());
        return null;
    }

    private static Message filterBlocks(Message m, Format target, ExportNotes notes) {
        List<ContentBlock> kept = new ArrayList<>(m.content().size());
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.ProviderItem p) {
                notes.leftOut("provider items (no form in " + target + ")", p.type());
            } else if (b instanceof ContentBlock.Thinking t && !keepsThinking(m, t, target)) {
                notes.leftOut("reasoning blocks (" + target + " cannot take them back)", "reasoning");
            } else if (target == Format.AIDER && !(b instanceof ContentBlock.Text)) {
                // an Aider history is Markdown text: a tool's calls and output are the assistant's and user's words
                notes.leftOut(blockKind(b) + " (no form in aider)", b instanceof ContentBlock.ToolCall c ? c.name()
                        : b instanceof ContentBlock.ToolResult r ? r.callId()
                        : b instanceof ContentBlock.Image i && i.mediaType() != null ? i.mediaType()
                        : b instanceof ContentBlock.File f && f.mediaType() != null ? f.mediaType() : "unknown type");
            } else if (b instanceof ContentBlock.ToolCall c && c.id() == null) {
                notes.leftOut("tool calls without an id", c.name());
            } else if (b instanceof ContentBlock.Text t && t.text().isBlank() && target == Format.ANTHROPIC_MESSAGES) {
                // Anthropic refuses text blocks that are empty or white space only
                if (!t.text().isEmpty()) {
                    notes.leftOut("text blocks of white space only (Anthropic refuses them)", "text");
                }
            } else if (b instanceof ContentBlock.ToolCall c && target == Format.ANTHROPIC_MESSAGES
                    && !c.arguments().text().strip().startsWith("{")) {
                // a tool_use input is an object: free-form input (a Codex custom tool's patch) is wrapped in one
                com.fasterxml.jackson.databind.node.ObjectNode input = JsonSupport.object();
                input.set("input", JsonSupport.node(c.arguments()));
                kept.add(new ContentBlock.ToolCall(c.id(), c.name(), JsonSupport.raw(input)));
                notes.leftOut("free-form tool inputs wrapped as {\"input\": …} (Anthropic takes objects)", c.name());
            } else if (b instanceof ContentBlock.ToolResult r && (target == Format.ANTHROPIC_MESSAGES
                    || target == Format.GEMINI)) {
                kept.add(new ContentBlock.ToolResult(r.callId(), r.toolName(), dataImages(r.content()), r.isError(),
                        r.plainText()));
            } else if (b instanceof ContentBlock.Image i && (target == Format.ANTHROPIC_MESSAGES
                    || target == Format.GEMINI)) {
                kept.addAll(dataImages(List.of(i)));
            } else {
                kept.add(b);
            }
        }
        if (kept.size() == m.content().size() && kept.equals(m.content())) {
            return m;
        }
        return m.toBuilder().content(kept).build();
    }

    /** How a content block is counted in a note: {@code tool calls}, {@code images}… */
    private static String blockKind(ContentBlock b) {
        return b instanceof ContentBlock.ToolCall ? "tool calls" : b instanceof ContentBlock.ToolResult ? "tool results"
                : b instanceof ContentBlock.Image ? "images" : b instanceof ContentBlock.File ? "files" : "blocks";
    }

    /** {@code data:} URLs as inline images (Anthropic takes base64 data, not data URLs). */
    private static List<ContentBlock> dataImages(List<ContentBlock> blocks) {
        List<ContentBlock> out = new ArrayList<>(blocks.size());
        for (ContentBlock b : blocks) {
            if (b instanceof ContentBlock.Image i && i.url() != null && i.url().startsWith("data:")
                    && i.url().contains(";base64,")) {
                String url = i.url();
                int comma = url.indexOf(";base64,");
                out.add(new ContentBlock.Image(url.substring(5, comma), url.substring(comma + 8), null));
            } else {
                out.add(b);
            }
        }
        return out;
    }

    private static boolean keepsThinking(Message m, ContentBlock.Thinking t, Format target) {
        return switch (target) {
            case ANTHROPIC_MESSAGES, CLAUDE_CODE -> t.signature() != null
                    && (m.provider() == null || m.provider().equals("anthropic"));
            case OPENAI_RESPONSES, CODEX -> t.signature() != null && "openai".equals(m.provider());
            case GEMINI, PI -> true;
            default -> false;
        };
    }

    /** Results carried inside another message go into a tool message of their own (after a reply, before a prompt). */
    private static List<ExportedMessage> split(ExportedMessage em) {
        Message m = em.message();
        if (m.role().equals(Role.TOOL) || m.toolResults().isEmpty()) {
            return List.of(em);
        }
        List<ContentBlock> results = new ArrayList<>();
        List<ContentBlock> rest = new ArrayList<>();
        for (ContentBlock b : m.content()) {
            (b instanceof ContentBlock.ToolResult ? results : rest).add(b);
        }
        ExportedMessage tool = new ExportedMessage(null, Message.builder(Role.TOOL).content(results)
                .createdAt(m.createdAt()).build());
        ExportedMessage other = new ExportedMessage(null, m.toBuilder().content(rest).build());
        return m.role().equals(Role.ASSISTANT) ? List.of(other, tool) : List.of(tool, other);
    }

    private static List<ExportedMessage> dropLeadingAssistant(List<ExportedMessage> messages, ExportNotes notes) {
        List<ExportedMessage> out = new ArrayList<>(messages.size());
        boolean userSeen = false;
        for (ExportedMessage em : messages) {
            Role r = em.message().role();
            if (!userSeen && (r.equals(Role.ASSISTANT) || r.equals(Role.TOOL))) {
                notes.leftOut("messages before the first user message (a request starts with the user)", r.name());
                continue;
            }
            userSeen |= r.equals(Role.USER);
            out.add(em);
        }
        return out;
    }

    private static List<ExportedMessage> pairTools(List<ExportedMessage> messages, ExportNotes notes) {
        List<ExportedMessage> out = new ArrayList<>(messages.size());
        Map<String, Integer> pending = new LinkedHashMap<>(); // call id -> index in out of its assistant message
        Set<String> seenCalls = new HashSet<>();
        for (ExportedMessage em : messages) {
            Message m = em.message();
            if (m.role().equals(Role.TOOL)) {
                List<ContentBlock> kept = new ArrayList<>();
                for (ContentBlock b : m.content()) {
                    if (b instanceof ContentBlock.ToolResult r) {
                        if (pending.remove(r.callId()) != null) {
                            kept.add(b);
                        } else {
                            notes.leftOut("tool results that answer no call before them", r.callId());
                        }
                    }
                }
                if (!kept.isEmpty()) {
                    out.add(kept.size() == m.content().size() ? em
                            : new ExportedMessage(null, m.toBuilder().content(kept).build()));
                }
                continue;
            }
            stripPending(out, pending, notes);
            if (m.role().equals(Role.ASSISTANT)) {
                List<ContentBlock> kept = new ArrayList<>();
                for (ContentBlock b : m.content()) {
                    if (b instanceof ContentBlock.ToolCall c && !seenCalls.add(c.id())) {
                        notes.leftOut("tool calls whose id was used before", c.id());
                        continue;
                    }
                    kept.add(b);
                }
                if (kept.size() != m.content().size()) {
                    em = new ExportedMessage(null, m.toBuilder().content(kept).build());
                }
                for (ContentBlock.ToolCall c : em.message().toolCalls()) {
                    pending.put(c.id(), out.size());
                }
            }
            out.add(em);
        }
        stripPending(out, pending, notes);
        return out;
    }

    private static void stripPending(List<ExportedMessage> out, Map<String, Integer> pending, ExportNotes notes) {
        if (pending.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Integer> p : pending.entrySet()) {
            int at = p.getValue();
            Message m = out.get(at).message();
            List<ContentBlock> kept = new ArrayList<>(m.content());
            kept.removeIf(b -> b instanceof ContentBlock.ToolCall c && p.getKey().equals(c.id()));
            out.set(at, new ExportedMessage(null, m.toBuilder().content(kept).build()));
            notes.leftOut("tool calls that no result answers", p.getKey());
        }
        pending.clear();
    }

    private static List<ExportedMessage> dropEmpty(List<ExportedMessage> messages, ExportNotes notes) {
        List<ExportedMessage> out = new ArrayList<>(messages.size());
        for (ExportedMessage em : messages) {
            Message m = em.message();
            boolean empty = m.content().isEmpty() || m.content().stream().allMatch(b -> b instanceof ContentBlock.Text t
                    && t.text().isEmpty()) && !m.role().equals(Role.USER);
            if (empty) {
                notes.leftOut("empty messages (aborted replies, or everything in them left out)", m.role().name());
                continue;
            }
            out.add(em);
        }
        return out;
    }

    private static List<ExportedMessage> mergeAssistants(List<ExportedMessage> messages) {
        List<ExportedMessage> out = new ArrayList<>(messages.size());
        for (ExportedMessage em : messages) {
            if (!out.isEmpty() && em.message().role().equals(Role.ASSISTANT)
                    && out.get(out.size() - 1).message().role().equals(Role.ASSISTANT)) {
                ExportedMessage previous = out.remove(out.size() - 1);
                List<ContentBlock> content = new ArrayList<>(previous.message().content());
                content.addAll(em.message().content());
                out.add(new ExportedMessage(null, previous.message().toBuilder().content(content).build()));
                continue;
            }
            out.add(em);
        }
        return out;
    }
}
