package dev.parley.core.conversation;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Builds the conversation of an agent from a session's entries. The rules, in order:
 * <ol>
 *   <li><b>Leaf and path.</b> The leaf is {@link ConversationOptions#leaf()} or the agent's
 *       {@linkplain EntryTree#activeLeaf active leaf}; the path runs from the root to it.</li>
 *   <li><b>Compaction</b> (pi's rule). If the path crosses compactions, the latest one wins: the conversation starts
 *       with its summary (when it has one), then the path entries from its first kept entry up to it, then the
 *       entries after it.</li>
 *   <li><b>Split and parallel records</b> (Claude Code). Records of one response share a
 *       response id; parallel tool calls fork the tree so a single path misses sibling records. Every assistant
 *       entry whose response id is on the path, and every tool-result entry that answers a call on the path, is
 *       added when its parent is already included. Everything is ordered by {@code seq}.</li>
 *   <li><b>Messages.</b> Message entries give their message; a compaction or branch summary gives a message with
 *       role {@link Role#COMPACTION_SUMMARY} or {@link Role#BRANCH_SUMMARY}; other kinds give none. Consecutive
 *       assistant records of the same response (only tool results between them) are merged into one message.</li>
 *   <li><b>Repairs</b> by the options: incomplete assistant messages (aborted or failed, no text) are dropped.</li>
 *   <li><b>Dangling prompt.</b> A trailing user message is removed and returned on its own.</li>
 *   <li><b>Repairs</b> by the options: unanswered calls, results without a call, user messages left next to each
 *       other.</li>
 * </ol>
 *
 * <p>Stateless and thread-safe.
 */
public final class ConversationBuilder {
    static final String NO_RESULT = "No result provided";

    private ConversationBuilder() {}

    /**
     * Builds the conversation.
     *
     * @param session the session the entries belong to
     * @param entries every entry of the session (all agents), in {@code seq} order
     * @param agent the agent whose conversation to build
     * @param options the leaf and repair options
     * @return the conversation; {@link LoadedConversation#empty} when {@code options.leaf()} is null and the agent has
     *     no entry that is not a detached event
     * @throws dev.parley.core.NotFoundException if {@code options.leaf()} is not an entry of the session
     */
    public static LoadedConversation build(SessionId session, List<Entry> entries, AgentId agent,
                                           ConversationOptions options) {
        EntryTree tree = EntryTree.of(entries);
        Entry leaf = options.leaf() != null ? tree.get(options.leaf()) : tree.activeLeaf(agent).orElse(null);
        if (leaf == null) {
            return LoadedConversation.empty(session);
        }
        List<Entry> path = tree.path(leaf);
        List<Entry> included = applyCompaction(path);
        included = recoverSiblings(entries, included, leaf.seq());

        List<ConversationItem> items = new ArrayList<>();
        int compactionAt = lastCompaction(path);
        if (compactionAt >= 0) {
            Entry c = path.get(compactionAt);
            EntryPayload.Compaction compaction = (EntryPayload.Compaction) c.payload();
            if (compaction.summary() != null) {
                items.add(new ConversationItem(c.id(), Message.builder(Role.COMPACTION_SUMMARY)
                        .plainText(compaction.summary()).createdAt(c.timestamp()).build()));
            }
        }
        for (Entry e : included) {
            Message m = toMessage(e);
            if (m != null) {
                items.add(new ConversationItem(e.id(), m));
            }
        }
        items = mergeSplitResponses(items);

        List<Repair> repairs = new ArrayList<>();
        if (options.repairTurns()) {
            items = dropIncomplete(items, repairs);
        }

        // After incomplete replies are dropped, a prompt they answered has no reply: it is the dangling prompt.
        Message dangling = null;
        EntryId danglingEntry = null;
        if (!items.isEmpty() && items.get(items.size() - 1).message().role().equals(Role.USER)) {
            ConversationItem last = items.remove(items.size() - 1);
            dangling = last.message();
            danglingEntry = last.entry();
        }
        if (options.orphans() != OrphanPolicy.KEEP) {
            items = repairToolPairs(items, options.orphans(), repairs);
        }
        if (options.repairTurns()) {
            items = mergeConsecutiveUsers(items, repairs);
        }
        List<EntryId> pathIds = path.stream().map(Entry::id).toList();
        return new LoadedConversation(session, items, dangling, danglingEntry, leaf.id(), pathIds, repairs,
                activeModel(path));
    }

    /** The model in force at the end of the path: the last model change, or model of a message, on it. */
    static @Nullable ModelRef activeModel(List<Entry> path) {
        for (int i = path.size() - 1; i >= 0; i--) {
            EntryPayload p = path.get(i).payload();
            if (p instanceof EntryPayload.ModelChange mc) {
                return new ModelRef(mc.provider(), mc.model());
            }
            if (p instanceof Message m && m.model() != null && !m.role().equals(Role.TOOL)) {
                return new ModelRef(m.provider(), m.model());
            }
        }
        return null;
    }

    private static int lastCompaction(List<Entry> path) {
        for (int i = path.size() - 1; i >= 0; i--) {
            if (path.get(i).payload() instanceof EntryPayload.Compaction) {
                return i;
            }
        }
        return -1;
    }

    private static List<Entry> applyCompaction(List<Entry> path) {
        int c = lastCompaction(path);
        if (c < 0) {
            return path;
        }
        EntryPayload.Compaction compaction = (EntryPayload.Compaction) path.get(c).payload();
        List<Entry> out = new ArrayList<>();
        if (compaction.firstKeptEntryId() != null) {
            for (int k = 0; k < c; k++) {
                if (path.get(k).id().equals(compaction.firstKeptEntryId())) {
                    out.addAll(path.subList(k, c));
                    break;
                }
            }
        }
        out.addAll(path.subList(c + 1, path.size()));
        return out;
    }

    /** Adds sibling records of split responses and parallel tool results. */
    private static List<Entry> recoverSiblings(List<Entry> all, List<Entry> included, long lastSeq) {
        if (included.isEmpty() || !hasCandidates(all, included, lastSeq)) {
            return included;
        }
        Set<EntryId> inSet = new HashSet<>();
        Set<String> responseIds = new HashSet<>();
        Set<String> calls = new HashSet<>();
        Set<String> answered = new HashSet<>();
        for (Entry e : included) {
            inSet.add(e.id());
            noteMessage(e.message(), responseIds, calls, answered);
        }
        long firstSeq = included.get(0).seq();
        List<Entry> added = new ArrayList<>();
        for (Entry e : all) {
            if (e.seq() > lastSeq) {
                break; // nothing written after the leaf belongs to its conversation
            }
            if (e.seq() < firstSeq || inSet.contains(e.id()) || e.parentId() == null || !inSet.contains(e.parentId())) {
                continue;
            }
            Message m = e.message();
            if (m == null) {
                continue;
            }
            boolean sibling = m.role().equals(Role.ASSISTANT) && m.responseId() != null
                    && responseIds.contains(m.responseId());
            boolean answers = m.role().equals(Role.TOOL) && !m.toolResults().isEmpty()
                    && m.toolResults().stream().allMatch(r -> calls.contains(r.callId()) && !answered.contains(r.callId()));
            if (sibling || answers) {
                inSet.add(e.id());
                added.add(e);
                noteMessage(m, responseIds, calls, answered);
            }
        }
        if (added.isEmpty()) {
            return included;
        }
        List<Entry> merged = new ArrayList<>(included.size() + added.size());
        int i = 0;
        int j = 0;
        while (i < included.size() || j < added.size()) {
            if (j >= added.size() || i < included.size() && included.get(i).seq() < added.get(j).seq()) {
                merged.add(included.get(i++));
            } else {
                merged.add(added.get(j++));
            }
        }
        return merged;
    }

    /**
     * Whether a message with a parent was written between the first included entry and the leaf without being
     * included: only such an entry can be a sibling record, and a session written in a line (the usual one) has none,
     * so its conversation skips the sets of ids that {@link #recoverSiblings} keeps. Both lists are in seq order.
     */
    private static boolean hasCandidates(List<Entry> all, List<Entry> included, long lastSeq) {
        long firstSeq = included.get(0).seq();
        int next = 0;
        for (Entry e : all) {
            if (e.seq() > lastSeq) {
                return false;
            }
            while (next < included.size() && included.get(next).seq() < e.seq()) {
                next++;
            }
            boolean isIncluded = next < included.size() && included.get(next).seq() == e.seq();
            if (e.seq() >= firstSeq && !isIncluded && e.parentId() != null && e.message() != null) {
                return true;
            }
        }
        return false;
    }

    private static void noteMessage(@Nullable Message m, Set<String> responseIds, Set<String> calls,
                                    Set<String> answered) {
        if (m == null) {
            return;
        }
        if (m.role().equals(Role.ASSISTANT) && m.responseId() != null) {
            responseIds.add(m.responseId());
        }
        for (ContentBlock.ToolCall call : m.toolCalls()) {
            if (call.id() != null) {
                calls.add(call.id());
            }
        }
        for (ContentBlock.ToolResult result : m.toolResults()) {
            answered.add(result.callId());
        }
    }

    private static @Nullable Message toMessage(Entry e) {
        EntryPayload p = e.payload();
        if (p instanceof Message m) {
            return m;
        }
        if (p instanceof EntryPayload.BranchSummary b) {
            return Message.builder(Role.BRANCH_SUMMARY).plainText(b.summary()).createdAt(e.timestamp()).build();
        }
        return null;
    }

    /** Merges assistant records of one response separated by nothing but tool results. */
    private static List<ConversationItem> mergeSplitResponses(List<ConversationItem> items) {
        List<ConversationItem> out = new ArrayList<>(items.size());
        int lastAssistant = -1;
        for (ConversationItem item : items) {
            Message m = item.message();
            if (m.role().equals(Role.ASSISTANT)) {
                if (lastAssistant >= 0 && m.responseId() != null
                        && m.responseId().equals(out.get(lastAssistant).message().responseId())) {
                    ConversationItem base = out.get(lastAssistant);
                    out.set(lastAssistant, new ConversationItem(base.entry(), merge(base.message(), m)));
                    continue;
                }
                out.add(item);
                lastAssistant = out.size() - 1;
            } else {
                out.add(item);
                if (!m.role().equals(Role.TOOL)) {
                    lastAssistant = -1;
                }
            }
        }
        return out;
    }

    private static Message merge(Message first, Message next) {
        List<ContentBlock> content = new ArrayList<>(first.content());
        content.addAll(next.content());
        return first.toBuilder()
                .content(content)
                .usage(next.usage() != null ? next.usage() : first.usage())
                .stopReason(next.stopReason() != null ? next.stopReason() : first.stopReason())
                .errorMessage(next.errorMessage() != null ? next.errorMessage() : first.errorMessage())
                .build();
    }

    private static boolean isIncomplete(Message m) {
        if (!m.role().equals(Role.ASSISTANT)) {
            return false;
        }
        String stop = m.stopReason() == null ? "" : m.stopReason();
        boolean failed = m.errorMessage() != null || stop.equals("error") || stop.equals("aborted");
        if (!failed) {
            return false;
        }
        // Keep a failed message only if it still carries text a provider would accept back.
        return m.text().isBlank();
    }

    private static List<ConversationItem> dropIncomplete(List<ConversationItem> items, List<Repair> repairs) {
        List<ConversationItem> out = new ArrayList<>(items.size());
        for (ConversationItem item : items) {
            if (isIncomplete(item.message())) {
                if (item.entry() != null) {
                    repairs.add(new Repair(item.entry(), Repair.Kind.DROPPED_INCOMPLETE_MESSAGE,
                            Objects.requireNonNullElse(item.message().errorMessage(),
                                    "stop reason " + item.message().stopReason())));
                }
                continue;
            }
            out.add(item);
        }
        return out;
    }

    /** Merges user messages that follow each other (after repairs), so that turns alternate. */
    private static List<ConversationItem> mergeConsecutiveUsers(List<ConversationItem> items, List<Repair> repairs) {
        List<ConversationItem> out = new ArrayList<>(items.size());
        for (ConversationItem item : items) {
            if (!out.isEmpty() && item.message().role().equals(Role.USER)
                    && out.get(out.size() - 1).message().role().equals(Role.USER)) {
                ConversationItem previous = out.remove(out.size() - 1);
                List<ContentBlock> content = new ArrayList<>(previous.message().content());
                content.add(new ContentBlock.Text("\n\n"));
                content.addAll(item.message().content());
                out.add(new ConversationItem(previous.entry(), previous.message().toBuilder().content(content).build()));
                if (item.entry() != null) {
                    repairs.add(new Repair(item.entry(), Repair.Kind.MERGED_USER_MESSAGES, "merged into "
                            + previous.entry()));
                }
                continue;
            }
            out.add(item);
        }
        return out;
    }

    /**
     * Makes every tool call answered and every result called: unanswered calls are stripped or answered with a
     * synthetic error, results whose call is not in the conversation are dropped.
     */
    private static List<ConversationItem> repairToolPairs(List<ConversationItem> items, OrphanPolicy policy,
                                                          List<Repair> repairs) {
        Set<String> calledSoFar = new HashSet<>();
        Set<String> allResults = new HashSet<>();
        for (ConversationItem item : items) {
            for (ContentBlock.ToolResult r : item.message().toolResults()) {
                allResults.add(r.callId());
            }
        }
        List<ConversationItem> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            ConversationItem item = items.get(i);
            Message m = item.message();
            EntryId entry = item.entry();
            if (m.role().equals(Role.TOOL) || !m.toolResults().isEmpty()) {
                List<ContentBlock> kept = new ArrayList<>();
                for (ContentBlock b : m.content()) {
                    if (b instanceof ContentBlock.ToolResult r && !calledSoFar.contains(r.callId())) {
                        if (entry != null) {
                            repairs.add(new Repair(entry, Repair.Kind.DROPPED_ORPHAN_RESULT, r.callId()));
                        }
                        continue;
                    }
                    kept.add(b);
                }
                if (kept.size() != m.content().size()) {
                    if (kept.isEmpty()) {
                        continue;
                    }
                    m = m.toBuilder().content(kept).build();
                    item = new ConversationItem(entry, m);
                }
                out.add(item);
                continue;
            }
            List<ContentBlock.ToolCall> unanswered = new ArrayList<>();
            for (ContentBlock.ToolCall call : m.toolCalls()) {
                if (call.id() != null) {
                    calledSoFar.add(call.id());
                }
                if (call.id() == null || !allResults.contains(call.id())) {
                    unanswered.add(call);
                }
            }
            if (unanswered.isEmpty()) {
                out.add(item);
                continue;
            }
            if (policy == OrphanPolicy.STRIP) {
                List<ContentBlock> kept = new ArrayList<>(m.content());
                kept.removeAll(unanswered);
                for (ContentBlock.ToolCall call : unanswered) {
                    repairs.add(new Repair(Objects.requireNonNull(entry, "entry"), Repair.Kind.STRIPPED_TOOL_CALL,
                            String.valueOf(call.id())));
                }
                if (!kept.isEmpty()) {
                    out.add(new ConversationItem(entry, m.toBuilder().content(kept).build()));
                }
                continue;
            }
            // SYNTHESIZE_ERROR_RESULTS: answer right after this message (and after the results it already has).
            out.add(item);
            List<ContentBlock> synthetic = new ArrayList<>();
            for (ContentBlock.ToolCall call : unanswered) {
                String id = call.id() != null ? call.id() : "missing-" + i + "-" + synthetic.size();
                synthetic.add(ContentBlock.ToolResult.text(id, call.name(), NO_RESULT, true));
                if (entry != null) {
                    repairs.add(new Repair(entry, Repair.Kind.SYNTHESIZED_TOOL_RESULT, String.valueOf(call.id())));
                }
                calledSoFar.add(id);
            }
            // Existing results for the other calls of this message come next; fold the synthetic ones into them.
            if (i + 1 < items.size() && items.get(i + 1).message().role().equals(Role.TOOL)) {
                ConversationItem next = items.get(i + 1);
                List<ContentBlock> merged = new ArrayList<>(next.message().content());
                merged.addAll(synthetic);
                items = new ArrayList<>(items);
                items.set(i + 1, new ConversationItem(next.entry(), next.message().toBuilder().content(merged).build()));
            } else {
                out.add(new ConversationItem(null, Message.builder(Role.TOOL).content(synthetic).build()));
            }
        }
        return out;
    }

    /**
     * The distinct agents of the entries, in order of first appearance.
     *
     * @param entries the entries, in any order
     * @return the agent ids, unmodifiable; empty when {@code entries} is empty
     */
    public static List<AgentId> agents(List<Entry> entries) {
        Set<AgentId> agents = new LinkedHashSet<>();
        for (Entry e : entries) {
            agents.add(e.agentId());
        }
        return List.copyOf(agents);
    }
}
