package dev.parley.cli;

import dev.parley.cli.demo.DemoAgentMain;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.log.NewSession;
import dev.parley.core.store.Capability;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley demo}: a scripted orchestrator and two workers share one session through three turns with tool
 * calls. The agents run in a separate JVM, which the demo kills with SIGKILL part-way through the second turn (while
 * a worker's tool is running); a new JVM resumes from the log and finishes. Then the demo prints the whole session
 * and checks that nothing was duplicated or lost.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, description = {
        "Run a multi-agent session, kill its process mid-turn with SIGKILL, resume it in a new process, and print it.",
        "Uses the store of --store (default: the embedded SQLite store); no configuration needed."})
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    /** The title of the session a demo writes. */
    static final String TITLE = "Parley demo: an orchestrator and two workers";

    @Option(names = "--full", description = "Print tool results and thinking in full.")
    boolean full;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        SessionId session = IdGenerator.uuidV7().newSessionId();
        String uri = root.storeUri();
        if (!root.store().capabilities().contains(Capability.MULTI_PROCESS)) {
            throw new InvalidInputException("the demo kills one process and resumes in another, so it needs a store both"
                    + " can open (one with the MULTI_PROCESS capability: sqlite:PATH, jsonl:DIR or postgres:JDBC-URL),"
                    + " not " + root.storeLabel());
        }
        String again = "parley" + root.storeOption();
        root.store().catalog().ifPresent(c -> c.create(new NewSession(session, TITLE, null, Map.of())));
        out.println(TITLE + " in one session");
        out.println("  store   " + root.storeLabel());
        out.println("  session " + session);
        out.println();
        out.println("=== agent process 1 ===");
        Process first = start(uri, session, "first");
        boolean killed = relay(first, out, true);
        if (!killed) {
            throw new IllegalStateException("the agent process ended before the kill point (exit " + first.exitValue() + ")");
        }
        out.println("  ✗ worker-2's write_draft is running: the demo kills agent process " + first.pid()
                + " with SIGKILL, mid-turn");
        first.destroyForcibly();
        first.waitFor(30, TimeUnit.SECONDS);
        out.println();
        out.println("=== agent process 2: resume from the log ===");
        Process second = start(uri, session, "resume");
        relay(second, out, false);
        if (second.waitFor(120, TimeUnit.SECONDS) && second.exitValue() != 0) {
            throw new IllegalStateException("the resumed agent process failed (exit " + second.exitValue() + ")");
        }
        out.println();
        out.println("=== the session (" + again + " show " + session + " --all) ===");
        List<Entry> entries = root.log().load(session, null);
        ShowCommand.printSession(out, session, entries, full);
        out.println();
        List<String> problems = check(session, entries);
        if (problems.isEmpty()) {
            long prompts = entries.stream().filter(e -> e.message() != null && e.message().role().equals(Role.USER)).count();
            long calls = entries.stream().filter(e -> e.message() != null).mapToLong(e -> e.message().toolCalls().size()).sum();
            out.printf(Locale.ROOT, "✓ %s from %s: %s, %s each answered exactly once, nothing duplicated or lost; the"
                    + " interrupted turn was resumed.%n", Terminal.count(entries.size(), "entry", "entries"),
                    Terminal.count(ConversationBuilder.agents(entries).size(), "agent", "agents"),
                    Terminal.count(prompts, "prompt", "prompts"), Terminal.count(calls, "tool call", "tool calls"));
            out.println("  See it again: " + again + " show " + session + " --all   ·   the tree: " + again + " tree "
                    + session);
            return 0;
        }
        problems.forEach(p -> out.println("✗ " + p));
        return 1;
    }

    /** The session must hold each prompt once and each tool call answered once, and every agent must resume cleanly. */
    static List<String> check(SessionId session, List<Entry> entries) {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> prompts = new HashMap<>();
        Map<String, Integer> answers = new HashMap<>();
        Set<String> calls = new HashSet<>();
        for (Entry e : entries) {
            Message m = e.message();
            if (m == null) {
                continue;
            }
            if (m.role().equals(Role.USER)) {
                prompts.merge(e.agentId() + ": " + m.text(), 1, Integer::sum);
            }
            m.toolCalls().forEach(c -> calls.add(c.id()));
            m.toolResults().forEach(r -> answers.merge(r.callId(), 1, Integer::sum));
        }
        prompts.forEach((p, n) -> {
            if (n > 1) {
                problems.add("prompt written " + n + " times: " + p);
            }
        });
        for (String call : calls) {
            int n = answers.getOrDefault(call, 0);
            if (n != 1) {
                problems.add("tool call " + call + " answered " + n + " times");
            }
        }
        if (prompts.keySet().stream().filter(p -> p.startsWith("orchestrator: ")).count() != 3) {
            problems.add("the orchestrator did not get its three prompts");
        }
        for (AgentId agent : ConversationBuilder.agents(entries)) {
            LoadedConversation c = ConversationBuilder.build(session, entries, agent, ConversationOptions.PROVIDER_VALID);
            if (!c.repairs().isEmpty() || c.danglingUser() != null) {
                problems.add(agent + " does not resume cleanly: " + c.repairs());
            }
            Message last = c.messages().isEmpty() ? null : c.messages().get(c.messages().size() - 1);
            if (last == null || !last.role().equals(Role.ASSISTANT) || last.content().stream()
                    .anyMatch(b -> b instanceof ContentBlock.ToolCall)) {
                problems.add(agent + "'s conversation does not end with an answer");
            }
        }
        return problems;
    }

    private static Process start(String uri, SessionId session, String mode) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), DemoAgentMain.class.getName(), uri, session.value(), mode));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Copies the process's lines to {@code out}; returns true when it reached the kill point (left running). */
    private static boolean relay(Process p, PrintWriter out, boolean stopAtKillPoint) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.equals(DemoAgentMain.KILLPOINT)) {
                    if (stopAtKillPoint) {
                        return true;
                    }
                    continue;
                }
                out.println(line);
                out.flush();
            }
        }
        return false;
    }

}
