package dev.parley.cli;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.EntryTree;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.formats.Exporter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley tree SESSION}: the entry tree. A chain prints flat; at a branch point the side branches print
 * indented first and the branch leading to the most entries continues at the same depth. Leaves are marked, the
 * active leaf with {@code *}.
 */
@Command(name = "tree", mixinStandardHelpOptions = true, description = {"Show a session's entry tree with its leaves; * marks each agent's active leaf.",
        "Detached events (custom entries without a parent) are counted, not listed, unless --all."})
final class TreeCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "A session id or a unique prefix of one.")
    String session;

    @Option(names = "--agent", paramLabel = "AGENT", description = "Only this agent's entries (default: every agent).")
    String agent;

    @Option(names = "--all", description = "Also list detached events.")
    boolean all;

    private PrintWriter out;
    private EntryTree tree;
    private Map<EntryId, Integer> sizes;
    private Set<EntryId> activeLeaves;
    private Set<EntryId> leaves;
    private Set<EntryId> activePath;

    @Override
    public Integer call() {
        out = spec.commandLine().getOut();
        SessionId id = root.resolveSessionOrMemory(session);
        List<Entry> entries = root.existingStore().log().load(id, null);
        AgentId only = agent == null ? null : new AgentId(agent);
        if (only != null) {
            Exporter.resolve(only, ConversationBuilder.agents(entries), id); // an unknown agent is an error
        }
        tree = EntryTree.of(entries);
        // Each agent of the session has its own active leaf (its conversation); with --agent, only that one's.
        List<AgentId> agents = only != null ? List.of(only) : ConversationBuilder.agents(entries);
        List<String> actives = new ArrayList<>();
        activeLeaves = new HashSet<>();
        activePath = new HashSet<>();
        for (AgentId a : agents) {
            tree.activeLeaf(a).ifPresent(leaf -> {
                activeLeaves.add(leaf.id());
                actives.add(leaf.id() + " (agent " + a + ")");
                tree.path(leaf.id()).forEach(p -> activePath.add(p.id()));
            });
        }
        leaves = new HashSet<>();
        tree.leaves().forEach(e -> leaves.add(e.id()));
        sizes = subtreeSizes(entries);
        int detached = 0;
        out.printf(Locale.ROOT, "session %s · %s · %s · active %s %s%n", id, Terminal.count(entries.size(), "entry", "entries"),
                Terminal.count(leaves.size(), "leaf", "leaves"),
                actives.size() == 1 ? "leaf" : "leaves", actives.isEmpty() ? "none" : String.join(", ", actives));
        out.println("(* active leaf · ◦ other leaf · ├─ a side branch, printed where it starts)");
        for (Entry r : tree.roots()) {
            if (only != null && !r.agentId().equals(only)) {
                continue;
            }
            if (tree.isDetached(r) && !all) {
                detached++;
                continue;
            }
            print(r, "", "");
        }
        if (detached > 0) {
            out.println("(" + Terminal.count(detached, "detached event", "detached events")
                    + " (custom records without a parent or children) not shown; --all lists them)");
        }
        out.flush();
        return 0;
    }

    private Map<EntryId, Integer> subtreeSizes(List<Entry> entries) {
        Map<EntryId, Integer> out = new HashMap<>();
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry e = entries.get(i);
            int size = 1;
            for (Entry c : tree.children(e.id())) {
                size += out.getOrDefault(c.id(), 1);
            }
            out.put(e.id(), size);
        }
        return out;
    }

    /**
     * Prints a chain flat; at a branch point each side branch prints right below it, indented, before the main
     * branch continues. Recursion happens only into side branches, so long chains cost no stack.
     */
    private void print(Entry start, String first, String rest) {
        Entry e = start;
        String prefix = first;
        while (e != null) {
            out.println(prefix + line(e));
            prefix = rest;
            List<Entry> children = tree.children(e.id());
            if (children.isEmpty()) {
                break;
            }
            Entry main = children.get(0);
            for (Entry c : children) {
                boolean better = activePath.contains(c.id()) != activePath.contains(main.id())
                        ? activePath.contains(c.id()) : sizes.get(c.id()) > sizes.get(main.id());
                if (better) {
                    main = c;
                }
            }
            for (Entry side : children) {
                if (side != main) {
                    print(side, rest + "├─ ", rest + "│  ");
                }
            }
            e = main;
        }
    }

    private String line(Entry e) {
        String mark = activeLeaves.contains(e.id()) ? "* " : leaves.contains(e.id()) ? "◦ " : "  ";
        return mark + e.id() + "  " + e.agentId() + "  " + Terminal.line(describe(e));
    }

    static String describe(Entry e) {
        return describe(e, 70);
    }

    /**
     * One line for an entry: a message's role, its tool calls (→name) and results (←name), thinking, and its text and
     * its tool results' text (whitespace folded, abbreviated past {@code textLimit} characters); another entry's kind
     * and what it says. Not yet made safe for a terminal ({@link Terminal#line}).
     */
    static String describe(Entry e, int textLimit) {
        EntryPayload p = e.payload();
        if (p instanceof Message m) {
            StringBuilder said = new StringBuilder(m.text());
            StringBuilder s = new StringBuilder(m.role().name());
            for (ContentBlock b : m.content()) {
                if (b instanceof ContentBlock.ToolCall c) {
                    s.append(" →").append(c.name());
                } else if (b instanceof ContentBlock.ToolResult r) {
                    s.append(" ←").append(r.toolName() == null ? r.callId() : r.toolName());
                    said.append(said.length() == 0 ? "" : " ").append(r.text()); // a result's text is what it says
                } else if (b instanceof ContentBlock.Thinking) {
                    s.append(" [thinking]");
                }
            }
            String text = said.toString().strip().replaceAll("\\s+", " ");
            if (!text.isEmpty()) {
                s.append(": ").append(ShowCommand.abbreviate(text, textLimit));
            }
            return s.toString();
        }
        if (p instanceof EntryPayload.Compaction c) {
            return "compaction" + (c.tokensBefore() == null ? "" : " (" + c.tokensBefore() + " tokens before)");
        }
        if (p instanceof EntryPayload.ModelChange mc) {
            return "model → " + (mc.provider() == null ? "" : mc.provider() + "/") + mc.model();
        }
        if (p instanceof EntryPayload.ThinkingLevelChange t) {
            return "thinking level → " + t.level();
        }
        if (p instanceof EntryPayload.Label l) {
            return "label " + l.label() + " on " + l.targetId();
        }
        if (p instanceof EntryPayload.BranchSummary b) {
            return "branch summary: " + ShowCommand.abbreviate(b.summary().strip().replaceAll("\\s+", " "), textLimit);
        }
        if (p instanceof EntryPayload.SessionName n) {
            return "session name: " + n.name();
        }
        if (p instanceof EntryPayload.Custom c) {
            return "(" + c.customType() + ")";
        }
        return e.kind().wireName();
    }
}
