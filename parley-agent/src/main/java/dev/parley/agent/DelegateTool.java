package dev.parley.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.RawJson;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A tool through which an orchestrator hands a task to a worker agent of the same session and gets its answer:
 * {@code {"worker": "worker-1", "task": "…"}}. The worker's prompt, tool calls and answer are persisted under the
 * worker's own agent id.
 *
 * <p>Delegation is resumable: if the worker's conversation already holds this task (a crash interrupted it), the
 * task is not written again — a dangling task is sent as it is, a half-done turn is resumed, a finished one returns
 * its answer.
 */
public final class DelegateTool implements Tool {
    /** The tool's name. */
    public static final String NAME = "delegate";

    private final Map<String, Supplier<Agent>> workers;
    private final Receiver receiver;

    /**
     * @param workers the workers by agent id; each supplier gives the worker's agent (resumed from the log)
     * @param receiver receives the workers' streamed output and commits
     */
    public DelegateTool(Map<String, Supplier<Agent>> workers, Receiver receiver) {
        this.workers = Map.copyOf(workers);
        this.receiver = Objects.requireNonNull(receiver, "receiver");
    }

    @Override
    public ToolSpec spec() {
        return new ToolSpec(NAME, "Hand a task to a worker agent and return its answer.", RawJson.of(
                "{\"type\":\"object\",\"properties\":{\"worker\":{\"type\":\"string\",\"enum\":"
                        + Json.write(Json.mapper().valueToTree(workers.keySet().stream().sorted().toList()))
                        + "},\"task\":{\"type\":\"string\"}},\"required\":[\"worker\",\"task\"]}"));
    }

    @Override
    public Output call(RawJson arguments) throws Exception {
        JsonNode args = Json.parse(arguments.text());
        String name = args.path("worker").asText();
        String task = args.path("task").asText();
        Supplier<Agent> supplier = workers.get(name);
        if (supplier == null) {
            return Output.error("no worker '" + name + "'; workers: " + workers.keySet());
        }
        Agent worker = supplier.get();
        List<Message> messages = worker.messages();
        Message dangling = worker.danglingPrompt().orElse(null);
        if (dangling != null && dangling.text().equals(task)) {
            worker.sendDanglingPrompt();
        } else if (dangling != null) {
            worker.editDanglingPrompt(task).ifPresent(e -> receiver.onCommitted(e.message(), e));
        } else if (lastUserText(messages).equals(task)) {
            Message last = messages.get(messages.size() - 1);
            if (last.role().equals(Role.ASSISTANT) && last.toolCalls().isEmpty()) {
                return Output.ok(last.text());
            }
        } else {
            worker.submitUserMessage(task).ifPresent(e -> receiver.onCommitted(e.message(), e));
        }
        StepResult result = worker.runStep(receiver);
        return result.reply() == null ? Output.error(name + " gave no answer") : Output.ok(result.reply().text());
    }

    private static String lastUserText(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals(Role.USER)) {
                return messages.get(i).text();
            }
        }
        return "";
    }
}
