package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationItem;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.conversation.Repair;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.formats.Exporter;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley show SESSION}: the active conversation, readable or as JSON. */
@Command(name = "show", mixinStandardHelpOptions = true, description = {"Show a session's active conversation.",
        "The conversation is the path from the root (or the latest compaction) to the active leaf; a trailing prompt "
                + "that never got a reply is shown apart, as the dangling user prompt."})
final class ShowCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "A session id or a unique prefix of one.")
    String session;

    @Option(names = "--agent", paramLabel = "AGENT", description = "Whose conversation (default: the only agent, or main).")
    String agent;

    @Option(names = "--leaf", paramLabel = "ENTRY", description = "End the conversation at this entry (another branch).")
    String leaf;

    @Option(names = "--json", description = "Print the conversation as JSON, with the dangling user prompt.")
    boolean json;

    @Option(names = "--full", description = "Print tool results and thinking in full instead of folded.")
    boolean full;

    @Option(names = "--all", description = "Every agent's messages, interleaved in insertion order (the whole session).")
    boolean all;

    @Override
    public Integer call() {
        SessionId id = root.resolveSessionOrMemory(session);
        List<Entry> entries = root.existingStore().log().load(id, null);
        if (all) {
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(Json.write(sessionJson(id, entries)));
            } else {
                printSession(out, id, entries, full);
            }
            return 0;
        }
        AgentId asked = agent == null ? null : new AgentId(agent);
        AgentId a;
        try {
            a = Exporter.resolve(asked, ConversationBuilder.agents(entries), id);
        } catch (InvalidInputException e) { // several agents, none named: --all shows them all
            throw new InvalidInputException(e.getMessage() + ", or show every agent's messages with --all", e);
        }
        ConversationOptions options = ConversationOptions.AS_WRITTEN.withLeaf(leaf == null ? null : new EntryId(leaf));
        LoadedConversation c = ConversationBuilder.build(id, entries, a, options);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.write(toJson(c, a)));
        } else {
            printText(out, c, a, compactionOnPath(entries, c));
        }
        return 0;
    }

    /** Every agent's messages interleaved in insertion order, each labelled with its agent. */
    static void printSession(PrintWriter out, SessionId id, List<Entry> entries, boolean full) {
        List<Entry> messages = entries.stream().filter(e -> e.message() != null).toList();
        out.printf(Locale.ROOT, "session %s · %s · %s, every agent interleaved in insertion order%n", id,
                Terminal.count(ConversationBuilder.agents(entries).size(), "agent", "agents"),
                Terminal.count(messages.size(), "message", "messages"));
        MessagePrinter printer = new MessagePrinter(out, full);
        messages.forEach(e -> printer.noteCalls(e.message()));
        for (Entry e : messages) {
            printer.print(e.message(), e.agentId().value());
        }
        out.flush();
    }

    static ObjectNode sessionJson(SessionId id, List<Entry> entries) {
        ObjectNode o = Json.object();
        o.put("session", id.value());
        ArrayNode rows = o.putArray("messages");
        for (Entry e : entries) {
            if (e.message() != null) {
                ObjectNode m = EntryCodec.encodeMessage(e.message());
                m.put("seq", e.seq());
                m.put("agent", e.agentId().value());
                m.put("entry", e.id().value());
                rows.add(m);
            }
        }
        return o;
    }

    static ObjectNode toJson(LoadedConversation c, AgentId agent) {
        ObjectNode o = Json.object();
        o.put("session", c.session().value());
        o.put("agent", agent.value());
        putId(o, "leaf", c.leaf());
        if (c.activeModel() != null) {
            ObjectNode m = o.putObject("activeModel");
            m.put("provider", c.activeModel().provider());
            m.put("model", c.activeModel().model());
        } else {
            o.putNull("activeModel");
        }
        o.put("messageCount", c.items().size());
        ArrayNode messages = o.putArray("messages");
        for (ConversationItem item : c.items()) {
            ObjectNode m = EntryCodec.encodeMessage(item.message());
            putId(m, "entry", item.entry());
            messages.add(m);
        }
        if (c.danglingUser() == null) {
            o.putNull("danglingUser");
        } else {
            ObjectNode d = EntryCodec.encodeMessage(c.danglingUser());
            putId(d, "entry", c.danglingUserEntry());
            o.set("danglingUser", d);
        }
        ArrayNode repairs = o.putArray("repairs");
        for (Repair r : c.repairs()) {
            ObjectNode ro = repairs.addObject();
            ro.put("entry", r.entry().value());
            ro.put("kind", r.kind().name().toLowerCase(Locale.ROOT));
            ro.put("detail", r.detail());
        }
        return o;
    }

    private static void putId(ObjectNode o, String key, EntryId id) {
        if (id == null) {
            o.putNull(key);
        } else {
            o.put(key, id.value());
        }
    }

    /** The latest compaction on the conversation's path, or null. */
    private static Entry compactionOnPath(List<Entry> entries, LoadedConversation c) {
        java.util.Map<EntryId, Entry> byId = new java.util.HashMap<>();
        entries.forEach(e -> byId.put(e.id(), e));
        for (int i = c.path().size() - 1; i >= 0; i--) {
            Entry e = byId.get(c.path().get(i));
            if (e != null && e.payload() instanceof dev.parley.core.model.EntryPayload.Compaction) {
                return e;
            }
        }
        return null;
    }

    private void printText(PrintWriter out, LoadedConversation c, AgentId agent, Entry compaction) {
        MessagePrinter printer = new MessagePrinter(out, full);
        c.items().forEach(item -> printer.noteCalls(item.message()));
        out.printf(Locale.ROOT, "session %s · agent %s · %s%s%n", c.session(), agent,
                Terminal.count(c.items().size(), "message", "messages"),
                c.activeModel() == null ? "" : " · model " + Terminal.line((c.activeModel().provider() == null ? ""
                        : c.activeModel().provider() + "/") + c.activeModel().model()));
        if (compaction != null) {
            Long before = ((dev.parley.core.model.EntryPayload.Compaction) compaction.payload()).tokensBefore();
            out.println();
            out.println("═══ compaction " + compaction.id() + (before == null ? "" : " (" + before + " tokens before)")
                    + ": earlier history stays in the log (parley tree); the conversation continues from here ═══");
        }
        for (ConversationItem item : c.items()) {
            printer.print(item.message(), null);
        }
        if (c.danglingUser() != null) {
            out.println();
            out.println("─── dangling user prompt (no reply; not part of the conversation) ───");
            out.println(Terminal.safe(c.danglingUser().text()));
        }
        out.flush();
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
