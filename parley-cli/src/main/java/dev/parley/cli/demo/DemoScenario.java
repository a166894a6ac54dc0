package dev.parley.cli.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.agent.Agent;
import dev.parley.agent.AgentConfig;
import dev.parley.agent.AgentTeam;
import dev.parley.agent.DelegateTool;
import dev.parley.agent.ModelRequest;
import dev.parley.agent.Receiver;
import dev.parley.agent.ScriptedProvider;
import dev.parley.agent.Tool;
import dev.parley.agent.ToolSpec;
import dev.parley.core.AgentId;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The demo's agents: an orchestrator that plans a team offsite by delegating to two workers — a venue scout with a
 * {@code lookup} tool and a writer with a slow {@code write_draft} tool — through three turns. Every model is a
 * deterministic script that decides its reply from the conversation alone, so a resumed process continues exactly
 * where a killed one stopped.
 */
public final class DemoScenario {
    static final AgentId ORCHESTRATOR = new AgentId("orchestrator");
    static final AgentId SCOUT = new AgentId("worker-1");
    static final AgentId WRITER = new AgentId("worker-2");

    /** The user prompts of the three turns. */
    static final List<String> TURNS = List.of(
            "Plan a two-day team offsite in Lisbon for 12 people in May: find a venue and estimate the budget.",
            "Book the venue and draft the invitation.",
            "Summarize the plan in one line.");

    private DemoScenario() {}

    /** A hook the writer's slow tool calls when it starts, so the demo can kill the process right then. */
    public interface ToolHook {
        /**
         * Called on the step's thread as the tool starts, before it does its work; the tool waits until this returns.
         *
         * @param tool the tool's name ({@code write_draft})
         * @throws InterruptedException if interrupted while it waits: the writer's step ends rather than report a
         *     failure to the model, and so does the orchestrator's, whose delegate call ran it; neither call gets a
         *     result, and both run again on resume
         */
        void started(String tool) throws InterruptedException;
    }

    static AgentConfig config(String system, List<Tool> tools) {
        return new AgentConfig("scripted", "demo-planner-1", system, tools, 6);
    }

    /** The orchestrator of the session, with both workers behind its delegate tool. */
    static Agent orchestrator(AgentTeam team, Receiver receiver, ToolHook hook) {
        Map<String, Supplier<Agent>> workers = new LinkedHashMap<>();
        workers.put(SCOUT.value(), () -> team.agent(SCOUT, config("You find venues.", List.of(lookup())),
                new ScriptedProvider("scripted", DemoScenario::scout)));
        workers.put(WRITER.value(), () -> team.agent(WRITER, config("You write and estimate.",
                List.of(calculate(), writeDraft(hook))), new ScriptedProvider("scripted", DemoScenario::writer)));
        return team.agent(ORCHESTRATOR, config("You coordinate workers.",
                List.of(new DelegateTool(workers, receiver))), new ScriptedProvider("scripted", DemoScenario::orchestrate));
    }

    // ---- scripts ----

    static Message orchestrate(ModelRequest r) {
        String prompt = lastUser(r.messages());
        Message last = r.messages().get(r.messages().size() - 1);
        if (last.role().equals(Role.TOOL)) {
            List<String> results = resultsSinceLastAssistant(r.messages());
            if (prompt.equals(TURNS.get(0))) {
                return reply("Plan: " + String.join(" ", results));
            }
            return reply("Done: " + String.join(" ", results));
        }
        if (prompt.equals(TURNS.get(0))) {
            return Message.builder(Role.ASSISTANT)
                    .add(new ContentBlock.Thinking("A venue and a budget are independent: ask both workers at once.", "sig-demo-1"))
                    .add(new ContentBlock.Text("I'll ask the venue scout and the writer in parallel."))
                    .add(delegate("d1-venue", SCOUT, "Find a venue in Lisbon for 12 people in May."))
                    .add(delegate("d1-budget", WRITER, "Estimate the budget: 12 people, 2 days, 180 EUR per person per day."))
                    .usage(new Usage(820, 96, 0, 0, 24, null)).build();
        }
        if (prompt.equals(TURNS.get(1))) {
            return Message.builder(Role.ASSISTANT)
                    .add(new ContentBlock.Text("Booking and drafting now."))
                    .add(delegate("d2-book", SCOUT, "Book Casa do Rio for 12 people, 14-15 May."))
                    .add(delegate("d2-invite", WRITER, "Draft the invitation for the Lisbon offsite at Casa do Rio, 14-15 May."))
                    .usage(new Usage(1410, 80, 600, 0, 0, null)).build();
        }
        return reply("Lisbon, 14-15 May, Casa do Rio booked for 12, about 4,320 EUR, invitation drafted.");
    }

    static Message scout(ModelRequest r) {
        Message last = r.messages().get(r.messages().size() - 1);
        String task = lastUser(r.messages());
        if (last.role().equals(Role.TOOL)) {
            return reply((task.startsWith("Book") ? "Booked: " : "Venue: ") + last.toolResults().get(0).text());
        }
        return Message.builder(Role.ASSISTANT).add(new ContentBlock.ToolCall(
                (task.startsWith("Book") ? "l2-" : "l1-") + "lookup", "lookup",
                RawJson.of("{\"query\":" + Json.write(Json.mapper().valueToTree(task)) + "}"))).build();
    }

    static Message writer(ModelRequest r) {
        Message last = r.messages().get(r.messages().size() - 1);
        String task = lastUser(r.messages());
        if (last.role().equals(Role.TOOL)) {
            return reply((task.startsWith("Draft") ? "Invitation: " : "Budget: ") + last.toolResults().get(0).text());
        }
        if (task.startsWith("Draft")) {
            return Message.builder(Role.ASSISTANT).add(new ContentBlock.ToolCall("w2-draft", "write_draft",
                    RawJson.of("{\"topic\":\"Lisbon offsite invitation\"}"))).build();
        }
        return Message.builder(Role.ASSISTANT).add(new ContentBlock.ToolCall("w1-calc", "calculate",
                RawJson.of("{\"expression\":\"12 * 2 * 180\"}"))).build();
    }

    // ---- tools ----

    static Tool lookup() {
        return new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("lookup", "Search venues and bookings.", RawJson.of(
                        "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}},\"required\":[\"query\"]}"));
            }

            @Override
            public Output call(RawJson arguments) throws Exception {
                String q = Json.parse(arguments.text()).path("query").asText();
                return Output.ok(q.startsWith("Book") ? "Casa do Rio confirmed for 14-15 May, reference LIS-4471."
                        : "Casa do Rio, Alfama: a riverside loft for 16, free 14-15 May, 90 EUR per person per day.");
            }
        };
    }

    static Tool calculate() {
        return new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("calculate", "Multiply numbers.", RawJson.of(
                        "{\"type\":\"object\",\"properties\":{\"expression\":{\"type\":\"string\"}}}"));
            }

            @Override
            public Output call(RawJson arguments) throws Exception {
                JsonNode args = Json.parse(arguments.text());
                long product = 1;
                for (String factor : args.path("expression").asText().split("\\*")) {
                    product *= Long.parseLong(factor.trim());
                }
                return Output.ok(String.format(Locale.ROOT, "%,d EUR for venue and food", product));
            }
        };
    }

    static Tool writeDraft(ToolHook hook) {
        return new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("write_draft", "Write a draft document (slow).", RawJson.of(
                        "{\"type\":\"object\",\"properties\":{\"topic\":{\"type\":\"string\"}}}"));
            }

            @Override
            public Output call(RawJson arguments) throws Exception {
                hook.started("write_draft");
                return Output.ok("\"Join us in Lisbon on 14-15 May at Casa do Rio in Alfama. Two days, twelve of us, "
                        + "one river view.\"");
            }
        };
    }

    // ---- helpers ----

    static ContentBlock.ToolCall delegate(String id, AgentId worker, String task) {
        return new ContentBlock.ToolCall(id, DelegateTool.NAME, RawJson.of("{\"worker\":\"" + worker.value()
                + "\",\"task\":" + Json.write(Json.mapper().valueToTree(task)) + "}"));
    }

    static Message reply(String text) {
        return Message.builder(Role.ASSISTANT).add(new ContentBlock.Text(text)).build();
    }

    static String lastUser(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals(Role.USER)) {
                return messages.get(i).text();
            }
        }
        return "";
    }

    static List<String> resultsSinceLastAssistant(List<Message> messages) {
        List<String> out = new ArrayList<>();
        for (int i = messages.size() - 1; i >= 0 && messages.get(i).role().equals(Role.TOOL); i--) {
            messages.get(i).toolResults().forEach(r -> out.add(0, r.text()));
        }
        return out;
    }
}
