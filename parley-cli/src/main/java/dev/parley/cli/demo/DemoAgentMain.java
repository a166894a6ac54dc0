package dev.parley.cli.demo;

import dev.parley.agent.Agent;
import dev.parley.agent.AgentTeam;
import dev.parley.agent.Receiver;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.Repair;
import dev.parley.core.store.Store;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.store.Stores;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The agent process of {@code parley demo}: runs the orchestrator and its workers over one session, printing each
 * message as it is committed. In the first run the writer's slow tool announces itself with a {@code KILLPOINT}
 * line and waits, so that the demo can SIGKILL the process mid-turn; the resumed run continues from the log.
 *
 * <p>Usage: {@code DemoAgentMain STORE-URI SESSION first|resume}.
 */
public final class DemoAgentMain {
    /** The line the first run prints when it is at the point where the demo kills it. */
    public static final String KILLPOINT = "KILLPOINT";

    private DemoAgentMain() {}

    /**
     * Runs the demo's turns that the session does not hold yet, printing each committed message as one line on
     * standard output. The first run prints {@value #KILLPOINT} when the writer's slow tool starts and then waits two
     * minutes in it; a resumed run first reports what it loaded (messages, a dangling prompt, repairs), finishes the
     * interrupted turn, then runs the turns that remain. Returns (exit status 0) when all three turns are done.
     *
     * @param args the store URI, the session id, and {@code first} for the first run; any other third argument
     *     resumes
     * @throws ArrayIndexOutOfBoundsException if fewer than three arguments are given
     * @throws Exception if the store cannot be opened, an id is invalid, or a step fails; it ends the process with
     *     the JVM's status 1, and the log keeps what was committed before
     */
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        boolean first = args[2].equals("first");
        Clock clock = Clock.systemUTC();
        try (Store store = Stores.open(args[0])) {
            AgentTeam team = new AgentTeam(store.log(), new SessionId(args[1]), IdGenerator.uuidV7(), clock);
            Receiver printer = new Receiver() {
                @Override
                public void onCommitted(Message message, Entry entry) {
                    out.println("  " + line(entry.agentId().value(), message));
                }
            };
            DemoScenario.ToolHook hook = tool -> {
                if (first) {
                    out.println(KILLPOINT);
                    Thread.sleep(120_000);
                }
            };
            Agent orchestrator = DemoScenario.orchestrator(team, printer, hook);
            List<Message> messages = orchestrator.messages();
            if (!first) {
                out.println("  resumed the orchestrator: " + messages.size() + " messages from the log"
                        + (orchestrator.danglingPrompt().isPresent() ? ", a dangling prompt" : "")
                        + (orchestrator.repairs().isEmpty() ? "" : ", " + orchestrator.repairs().size() + " repairs"));
                for (Repair r : orchestrator.repairs()) {
                    out.println("    repair: " + r.kind() + " " + r.detail());
                }
                if (orchestrator.danglingPrompt().isPresent()) {
                    orchestrator.sendDanglingPrompt();
                    messages = orchestrator.messages();
                }
                Message last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
                if (last != null && !(last.role().equals(Role.ASSISTANT) && last.toolCalls().isEmpty())) {
                    List<String> pending = unanswered(messages);
                    out.println("  the interrupted turn resumes" + (pending.isEmpty() ? ""
                            : ": the orchestrator's " + String.join(", ", pending)
                            + (pending.size() == 1 ? " has no result and runs now" : " have no results and run now")));
                    // A call that delegates resumes the worker it delegated to, with that worker's own calls that
                    // have no result (the tool that was killed): say so, or its result seems to come from nowhere.
                    for (AgentId worker : List.of(DemoScenario.SCOUT, DemoScenario.WRITER)) {
                        List<String> inside = unanswered(store.log().load(team.session(), worker).stream()
                                .map(Entry::message).filter(Objects::nonNull).toList());
                        if (!inside.isEmpty()) {
                            out.println("    inside it " + worker.value() + " resumes: its " + String.join(", ", inside)
                                    + (inside.size() == 1 ? " was" : " were") + " killed before a result was stored and"
                                    + (inside.size() == 1 ? " runs" : " run") + " again");
                        }
                    }
                    orchestrator.runStep(printer);
                }
            }
            int done = (int) orchestrator.messages().stream().filter(m -> m.role().equals(Role.USER)).count();
            for (int turn = done; turn < DemoScenario.TURNS.size(); turn++) {
                out.println("turn " + (turn + 1) + ": " + DemoScenario.TURNS.get(turn));
                Entry prompt = orchestrator.submitUserMessage(DemoScenario.TURNS.get(turn)).orElseThrow();
                out.println("  " + line(prompt.agentId().value(), prompt.message()));
                orchestrator.runStep(printer);
            }
        }
    }

    /** The tool calls of the last assistant message that have no result yet, as {@code name(id)}. */
    static List<String> unanswered(List<Message> messages) {
        java.util.Set<String> answered = new java.util.HashSet<>();
        List<String> out = new java.util.ArrayList<>();
        for (int i = messages.size() - 1; i >= 0; i--) {
            Message m = messages.get(i);
            m.toolResults().forEach(r -> answered.add(r.callId()));
            if (m.role().equals(Role.ASSISTANT)) {
                m.toolCalls().stream().filter(c -> !answered.contains(c.id()))
                        .forEach(c -> out.add(c.name() + "(" + c.id() + ")"));
                break;
            }
        }
        return out;
    }

    static String line(String agent, Message m) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-12s %-9s ", agent, m.role().name()));
        String text = m.text().replace('\n', ' ');
        if (!text.isBlank()) {
            s.append(text.length() > 90 ? text.substring(0, 89) + "…" : text);
        }
        for (ContentBlock b : m.content()) {
            if (b instanceof ContentBlock.ToolCall c) {
                s.append(" → ").append(c.name()).append(' ').append(shorten(c.arguments().text()));
            } else if (b instanceof ContentBlock.ToolResult r) {
                s.append("← ").append(r.toolName()).append(": ").append(shorten(r.text()));
            }
        }
        return s.toString();
    }

    private static String shorten(String s) {
        String one = s.replace('\n', ' ');
        return one.length() > 70 ? one.substring(0, 69) + "…" : one;
    }
}
