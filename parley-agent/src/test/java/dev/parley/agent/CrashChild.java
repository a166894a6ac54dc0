package dev.parley.agent;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The process {@link CrashRecoveryTest} kills: an agent that resumes the session and then appends turns forever
 * (a prompt, a reply with two tool calls, two results, an answer). It prints {@code ACK <entry-id>} the moment an
 * entry is durably stored — the acknowledgement the parent checks after each kill.
 */
public final class CrashChild {
    private CrashChild() {}

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        SessionId session = new SessionId(args[1]);
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        Clock clock = Clock.systemUTC();
        try (Store root = Stores.open(uri)) {
            MessageLog log = root.log();
            AgentSession store = new AgentSession(log, session, AgentId.MAIN, IdGenerator.uuidV7(), clock);
            Agent agent = Agent.resume(config(), provider(), store, clock);
            Receiver acks = new Receiver() {
                @Override
                public void onCommitted(Message message, Entry entry) {
                    out.println("ACK " + entry.id());
                }
            };
            out.println("READY repairs=" + agent.repairs().size());
            if (agent.danglingPrompt().isPresent()) {
                agent.sendDanglingPrompt();
            }
            List<Message> messages = agent.messages();
            if (!messages.isEmpty() && !isFinalAnswer(messages.get(messages.size() - 1))) {
                agent.runStep(acks);
            }
            int turn = (int) log.load(session, null).stream().filter(e -> e.message() != null
                    && e.message().role().equals(Role.USER)).count();
            while (true) {
                turn++;
                Entry prompt = agent.submitUserMessage("turn-" + turn + " " + UUID.randomUUID()).orElseThrow();
                out.println("ACK " + prompt.id());
                agent.runStep(acks);
            }
        }
    }

    static boolean isFinalAnswer(Message m) {
        return m.role().equals(Role.ASSISTANT) && m.toolCalls().isEmpty();
    }

    static AgentConfig config() {
        Tool lookup = new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("lookup", "look something up", RawJson.of("{\"type\":\"object\"}"));
            }

            @Override
            public Output call(RawJson arguments) throws Exception {
                Thread.sleep(ThreadLocalRandom.current().nextInt(3));
                return Output.ok("result for " + arguments.text());
            }
        };
        return new AgentConfig("scripted", "crash-model", null, List.of(lookup), 6);
    }

    /** Two parallel lookups after a prompt, an answer after the results. */
    static ModelProvider provider() {
        return new ScriptedProvider("scripted", request -> {
            Message last = request.messages().get(request.messages().size() - 1);
            if (last.role().equals(Role.TOOL)) {
                return Message.builder(Role.ASSISTANT).add(new ContentBlock.Text("answer " + UUID.randomUUID())).build();
            }
            String id = UUID.randomUUID().toString().substring(0, 8);
            return Message.builder(Role.ASSISTANT)
                    .add(new ContentBlock.Thinking("two lookups", "sig"))
                    .add(new ContentBlock.ToolCall("a-" + id, "lookup", RawJson.of("{\"k\":\"a\"}")))
                    .add(new ContentBlock.ToolCall("b-" + id, "lookup", RawJson.of("{\"k\":\"b\"}")))
                    .build();
        });
    }
}
