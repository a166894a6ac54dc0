package dev.parley.cli;

import dev.parley.agent.Receiver;
import dev.parley.core.model.ContentBlock;
import java.io.PrintWriter;

/** Streams a step to the console: assistant text as it arrives, tool calls as they run. */
final class ConsoleReceiver implements Receiver {
    private final PrintWriter out;
    private final String prefix;
    private boolean midLine;

    ConsoleReceiver(PrintWriter out, String prefix) {
        this.out = out;
        this.prefix = prefix;
    }

    @Override
    public void onTextDelta(String text) {
        if (!midLine) {
            out.print(prefix);
            midLine = true;
        }
        out.print(Terminal.safe(text)); // a model's output is not trusted with the terminal either
        out.flush();
    }

    @Override
    public void onToolCall(ContentBlock.ToolCall call) {
        endLine();
        out.println(prefix + "→ " + Terminal.line(call.name()) + " "
                + Terminal.line(ShowCommand.abbreviate(call.arguments().text(), 200)));
        out.flush();
    }

    void endLine() {
        if (midLine) {
            out.println();
            midLine = false;
        }
        out.flush();
    }
}
