package dev.parley.cli;

import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.json.Instants;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Prints messages readably: roles, text, tool calls and results, thinking folded unless {@code full}. */
final class MessagePrinter {
    static final int TOOL_LINES = 12;

    private final PrintWriter out;
    private final boolean full;
    /** Tool names by call id, so results from formats that do not repeat the name (Claude Code) show it. */
    private final Map<String, String> toolNames = new HashMap<>();

    MessagePrinter(PrintWriter out, boolean full) {
        this.out = out;
        this.full = full;
    }

    /** Remembers the names of the message's tool calls, for the results that come later. */
    void noteCalls(Message m) {
        m.toolCalls().forEach(call -> {
            if (call.id() != null) {
                toolNames.put(call.id(), call.name());
            }
        });
    }

    /** Prints one message, labelled with its agent when {@code agent} is not null. */
    void print(Message m, String agent) {
        StringBuilder head = new StringBuilder("─── ");
        if (agent != null) {
            head.append("[").append(Terminal.line(agent)).append("] ");
        }
        head.append(Terminal.line(m.role().name()));
        if (m.model() != null && m.role().equals(Role.ASSISTANT)) {
            head.append(" · ").append(Terminal.line(m.model()));
        }
        if (m.createdAt() != null) {
            head.append(" · ").append(Instants.format(m.createdAt()).substring(0, 19).replace('T', ' '));
        }
        if (m.errorMessage() != null) {
            head.append(" · error: ").append(Terminal.line(m.errorMessage()));
        } else if (m.stopReason() != null && !m.stopReason().equals("stop") && !m.stopReason().equals("end_turn")
                && !m.stopReason().equals("toolUse") && !m.stopReason().equals("tool_use")) {
            head.append(" · stopped: ").append(Terminal.line(m.stopReason()));
        }
        out.println();
        out.println(head.append(" ───"));
        for (ContentBlock b : m.content()) {
            printBlock(b);
        }
    }

    private void printBlock(ContentBlock b) {
        if (b instanceof ContentBlock.Text t) {
            out.println(Terminal.safe(t.text()));
        } else if (b instanceof ContentBlock.Thinking t) {
            if (full) {
                out.println("[thinking]");
                out.println(Terminal.safe(t.text()));
                out.println("[/thinking]");
            } else {
                out.println("[thinking: " + t.text().length() + " characters folded; --full shows them]");
            }
        } else if (b instanceof ContentBlock.ToolCall call) {
            out.println("→ " + Terminal.line(call.name()) + " "
                    + Terminal.safe(ShowCommand.abbreviate(call.arguments().text(), full ? Integer.MAX_VALUE : 300))
                    + (call.id() == null ? "" : "  [" + Terminal.line(call.id()) + "]"));
        } else if (b instanceof ContentBlock.ToolResult r) {
            String name = r.toolName() != null ? r.toolName() : toolNames.get(r.callId());
            out.println("← " + (name == null ? "" : Terminal.line(name) + " ") + "[" + Terminal.line(r.callId()) + "]"
                    + (r.isError() ? " error" : ""));
            String text = r.text();
            List<String> lines = text.lines().toList();
            int shown = full ? lines.size() : Math.min(lines.size(), TOOL_LINES);
            for (int i = 0; i < shown; i++) {
                out.println("  " + Terminal.safe(lines.get(i)));
            }
            if (shown < lines.size()) {
                out.println("  … " + (lines.size() - shown) + " more lines (--full shows them)");
            }
            for (ContentBlock inner : r.content()) {
                if (!(inner instanceof ContentBlock.Text)) {
                    printBlock(inner);
                }
            }
        } else if (b instanceof ContentBlock.Image i) {
            out.println(Terminal.line("[image " + (i.mediaType() == null ? "" : i.mediaType() + " ")
                    + (i.url() != null ? i.url() : (i.data().length() * 3 / 4) + " bytes") + "]"));
        } else if (b instanceof ContentBlock.File f) {
            out.println(Terminal.line("[file " + (f.name() == null ? "" : f.name() + " ")
                    + (f.mediaType() == null ? "" : f.mediaType()) + "]"));
        } else if (b instanceof ContentBlock.ProviderItem p) {
            out.println(Terminal.line("[" + p.type() + "]"));
        }
    }

}
