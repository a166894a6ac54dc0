package dev.parley.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.FlushResult;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.EntryTree;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class AgentTest {
    static final SessionId S = new SessionId("s-agent");
    final Store root = MemoryStore.open();
    final dev.parley.core.log.MessageLog log = root.log();
    final IdGenerator ids = IdGenerator.uuidV7();
    final Clock clock = Clock.systemUTC();

    AgentSession store(AgentId agent) {
        return new AgentSession(log, S, agent, ids, clock);
    }

    static Tool tool(String name, String answer) {
        return new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec(name, name, RawJson.of("{\"type\":\"object\"}"));
            }

            @Override
            public Output call(RawJson arguments) {
                return Output.ok(answer + " " + arguments.text());
            }
        };
    }

    static Message calls(String... ids) {
        Message.Builder b = Message.builder(Role.ASSISTANT);
        for (String id : ids) {
            b.add(new ContentBlock.ToolCall(id, "lookup", RawJson.of("{\"q\":\"" + id + "\"}")));
        }
        return b.build();
    }

    static Message text(String t) {
        return Message.assistant(List.of(new ContentBlock.Text(t)));
    }

    /** A configuration without a system prompt: most tests are about the turns, not the prompt. */
    AgentConfig config() {
        return prompted(null);
    }

    AgentConfig prompted(@Nullable String systemPrompt) {
        return new AgentConfig("scripted", "script-1", systemPrompt, List.of(tool("lookup", "found")), 8);
    }

    /** The system prompts in the log, in order. */
    List<String> loggedPrompts() {
        return log.load(S, null).stream().map(Entry::message).filter(m -> m != null && Agent.isSystemPrompt(m))
                .map(Message::text).toList();
    }

    List<Message> logged() {
        return log.load(S, null).stream().map(Entry::message).filter(java.util.Objects::nonNull).toList();
    }

    @Test
    void userPrompt_isInTheStoreBeforeTheProviderIsCalled() {
        AtomicReference<List<Message>> seenByProvider = new AtomicReference<>();
        ScriptedProvider provider = new ScriptedProvider("scripted", request -> {
            seenByProvider.set(logged());
            return text("hello");
        });
        Agent agent = new Agent(config(), provider, store(AgentId.MAIN), null, clock);
        agent.submitUserMessage("hi there");
        assertThat(logged()).extracting(Message::text).containsExactly("hi there");
        assertThat(logged().get(0).provider()).isEqualTo("scripted");
        assertThat(logged().get(0).model()).isEqualTo("script-1");
        agent.runStep(Receiver.NONE);
        assertThat(seenByProvider.get()).extracting(Message::text).containsExactly("hi there");
        assertThat(logged()).extracting(Message::text).containsExactly("hi there", "hello");
    }

    @Test
    void stepFailingAfterTwoCommittedToolResults_leavesThemPersisted_andResumesCleanly() {
        ScriptedProvider provider = new ScriptedProvider("scripted", ScriptedProvider.sequence(
                List.of(calls("c1", "c2"), text("done"))));
        provider.failWhen(r -> r.messages().get(r.messages().size() - 1).role().equals(Role.TOOL));
        Agent agent = new Agent(config(), provider, store(AgentId.MAIN), null, clock);
        agent.submitUserMessage("look up two things");
        assertThatThrownBy(() -> agent.runStep(Receiver.NONE)).isInstanceOf(ProviderException.class);
        List<Message> afterFailure = logged();
        assertThat(afterFailure).extracting(m -> m.role().name())
                .containsExactly("user", "assistant", "tool", "tool");
        assertThat(afterFailure.get(2).toolResults().get(0).callId()).isEqualTo("c1");
        assertThat(afterFailure.get(3).toolResults().get(0).callId()).isEqualTo("c2");
        assertThat(log.loadUsage(S, AgentId.MAIN).outputTokens()).isPositive();

        // A new agent resumes: no tool runs again, the provider is called with the results.
        ScriptedProvider healthy = new ScriptedProvider("scripted", ScriptedProvider.sequence(List.of(text("done"))));
        Agent resumed = Agent.resume(config(), healthy, store(AgentId.MAIN), clock);
        StepResult r = resumed.runStep(Receiver.NONE);
        assertThat(r.toolCalls()).isZero();
        assertThat(logged()).extracting(Message::text).endsWith("done");
        assertThat(logged()).hasSize(5);
    }

    @Test
    void toolCallsACrashLeftWithoutResults_runWhenTheNextStepStarts() {
        Agent first = new Agent(config(), new ScriptedProvider("scripted", ScriptedProvider.sequence(List.of())),
                store(AgentId.MAIN), null, clock);
        first.submitUserMessage("go");
        // Simulate a crash after the assistant's tool calls were committed and before any result.
        store(AgentId.MAIN).appendMessages(List.of(calls("c1", "c2")));
        Agent resumed = Agent.resume(config(), new ScriptedProvider("scripted",
                ScriptedProvider.sequence(List.of(text("finished")))), store(AgentId.MAIN), clock);
        StepResult r = resumed.runStep(Receiver.NONE);
        assertThat(r.toolCalls()).isEqualTo(2);
        assertThat(logged()).extracting(m -> m.role().name())
                .containsExactly("user", "assistant", "tool", "tool", "assistant");
    }

    /**
     * Found by a review of the demo: a tool that runs another agent (a delegate) fails with that agent's "interrupted"
     * error and the interrupt status set; the calling agent stored it as the tool's error result, so the interrupted
     * call was answered for good and never ran again on resume.
     */
    @Test
    void toolInterruptedInside_storesNoResult_andTheCallRunsAgainOnResume() {
        Tool interrupted = new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("lookup", "lookup", RawJson.of("{\"type\":\"object\"}"));
            }

            @Override
            public Output call(RawJson arguments) {
                Thread.currentThread().interrupt(); // as an agent inside ends its step when interrupted
                throw new IllegalStateException("interrupted while running tool write_draft");
            }
        };
        AgentConfig config = new AgentConfig("scripted", "script-1", null, List.of(interrupted), 8);
        Agent agent = new Agent(config, new ScriptedProvider("scripted", ScriptedProvider.sequence(
                List.of(calls("c1"), text("unreachable")))), store(AgentId.MAIN), null, clock);
        agent.submitUserMessage("go");
        try {
            assertThatThrownBy(() -> agent.runStep(Receiver.NONE)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("interrupted while running tool lookup");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(logged()).extracting(m -> m.role().name()).containsExactly("user", "assistant");

        Agent resumed = Agent.resume(config(), new ScriptedProvider("scripted",
                ScriptedProvider.sequence(List.of(text("finished")))), store(AgentId.MAIN), clock);
        assertThat(resumed.runStep(Receiver.NONE).toolCalls()).isEqualTo(1);
        assertThat(logged()).extracting(Message::text).endsWith("finished");
    }

    @Test
    void danglingPrompt_isNeverSentAutomatically_andSendingItDoesNotDuplicateIt() {
        Agent first = new Agent(config(), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("first");
        first.runStep(Receiver.NONE);
        first.submitUserMessage("second, then a crash");
        Agent resumed = Agent.resume(config(), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        assertThat(resumed.danglingPrompt()).map(Message::text).contains("second, then a crash");
        assertThat(resumed.messages()).extracting(Message::text).containsExactly("first", "You said: first");
        assertThatThrownBy(() -> resumed.runStep(Receiver.NONE)).isInstanceOf(IllegalStateException.class);
        resumed.sendDanglingPrompt();
        resumed.runStep(Receiver.NONE);
        assertThat(logged()).extracting(Message::text)
                .containsExactly("first", "You said: first", "second, then a crash", "You said: second, then a crash");
        assertThat(EntryTree.of(log.load(S, null)).leaves()).hasSize(1);
    }

    /**
     * A prompt queued while a step ran (whose provider then failed) and a reload that found the failed step's prompt
     * dangling: the next step's flush sent the dangling prompt by itself, with the queued one after it, although a
     * dangling prompt is never sent automatically.
     */
    @Test
    void queuedPrompt_whenAReloadLeavesADanglingPrompt_isNotFlushed_andTheDanglingPromptIsNotSentAutomatically() {
        AtomicReference<Agent> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        ScriptedProvider provider = new ScriptedProvider("scripted", request -> {
            if (calls.getAndIncrement() == 0) {
                self.get().prompt("queued meanwhile");
                throw new ProviderException("the model server went away", true, null);
            }
            return text("reply to " + request.messages().size());
        });
        self.set(new Agent(config(), provider, store(AgentId.MAIN), null, clock));
        Agent agent = self.get();
        agent.submitUserMessage("first");
        assertThatThrownBy(() -> agent.runStep(Receiver.NONE)).isInstanceOf(ProviderException.class);
        agent.reload();
        assertThat(agent.danglingPrompt()).map(Message::text).contains("first");

        assertThatThrownBy(() -> agent.runStep(Receiver.NONE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dangling prompt");
        assertThatThrownBy(agent::flushQueued).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dangling prompt");
        assertThat(calls.get()).as("model calls").isEqualTo(1);
        assertThat(logged()).extracting(Message::text).containsExactly("first");
        assertThat(agent.queued()).extracting(QueuedPrompt::text).containsExactly("queued meanwhile");
        assertThat(agent.danglingPrompt()).map(Message::text).contains("first");

        // The user's choice: send it, and the queued prompt follows it.
        agent.sendDanglingPrompt();
        agent.runStep(Receiver.NONE);
        assertThat(logged()).extracting(Message::text).containsExactly("first", "queued meanwhile", "reply to 2");
    }

    @Test
    void editingTheDanglingPrompt_branches_andTheOldBranchStays() {
        Agent first = new Agent(config(), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("first");
        first.runStep(Receiver.NONE);
        first.submitUserMessage("typo'd");
        Agent resumed = Agent.resume(config(), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        resumed.editDanglingPrompt("fixed");
        resumed.runStep(Receiver.NONE);
        List<Entry> entries = log.load(S, null);
        EntryTree tree = EntryTree.of(entries);
        Entry typo = entries.get(2);
        Entry fixed = entries.get(3);
        assertThat(fixed.parentId()).isEqualTo(typo.parentId());
        assertThat(tree.leaves()).extracting(Entry::id).containsExactly(typo.id(), entries.get(4).id());
        assertThat(Agent.resume(config(), ScriptedProvider.echo(), store(AgentId.MAIN), clock).messages())
                .extracting(Message::text).containsExactly("first", "You said: first", "fixed", "You said: fixed");
    }

    @Test
    void promptsWhileBusy_areQueuedUnpersisted_editableAndCancellable_thenFlushed() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScriptedProvider provider = new ScriptedProvider("scripted", request -> {
            inside.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return text("reply " + request.messages().size());
        });
        Agent agent = new Agent(config(), provider, store(AgentId.MAIN), null, clock);
        agent.submitUserMessage("start");
        Thread step = new Thread(() -> agent.runStep(Receiver.NONE));
        step.start();
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        QueuedPrompt a = agent.prompt("queued one").orElseThrow();
        QueuedPrompt b = agent.prompt("queued two").orElseThrow();
        agent.editQueued(a.id(), "queued one, edited");
        agent.cancelQueued(b.id());
        assertThat(logged()).extracting(Message::text).containsExactly("start");
        release.countDown();
        step.join(10_000);
        assertThat(agent.queued()).hasSize(1);
        agent.runStep(Receiver.NONE);
        assertThat(agent.queued()).isEmpty();
        assertThatThrownBy(() -> agent.editQueued(a.id(), "too late")).hasMessageContaining("already sent");
        assertThat(logged()).extracting(Message::text)
                .containsExactly("start", "reply 1", "queued one, edited", "reply 3");
    }

    /** reload had no guard: called while a step ran, it replaced the conversation that the step was extending. */
    @Test
    void reload_whileAStepRuns_isRefused_andTheStepsConversationStands() {
        AtomicReference<Agent> self = new AtomicReference<>();
        AtomicReference<Throwable> refused = new AtomicReference<>();
        ScriptedProvider provider = new ScriptedProvider("scripted", request -> {
            try {
                self.get().reload();
            } catch (IllegalStateException e) {
                refused.set(e);
            }
            return text("reply");
        });
        self.set(new Agent(config(), provider, store(AgentId.MAIN), null, clock));
        self.get().submitUserMessage("start");
        self.get().runStep(Receiver.NONE);
        assertThat(refused.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("a step is running");
        assertThat(self.get().messages()).extracting(Message::text).containsExactly("start", "reply");
    }

    /** An agent whose provider queues {@code text} (as a user would while the step runs) on its first call. */
    Agent agentQueuingOnFirstCall(AgentSession session, String text, AtomicReference<QueuedPrompt> queued) {
        AtomicReference<Agent> self = new AtomicReference<>();
        ScriptedProvider provider = new ScriptedProvider("scripted", request -> {
            if (queued.get() == null) {
                queued.set(self.get().prompt(text).orElseThrow());
            }
            return text("reply " + request.messages().size());
        });
        self.set(new Agent(config(), provider, session, null, clock));
        return self.get();
    }

    @Test
    void queuedPrompt_isStoredUnderTheIdItWasGivenWhenQueued() {
        AtomicReference<QueuedPrompt> queued = new AtomicReference<>();
        Agent agent = agentQueuingOnFirstCall(store(AgentId.MAIN), "while busy", queued);
        agent.submitUserMessage("start");
        agent.runStep(Receiver.NONE);
        assertThat(log.load(S, null)).extracting(Entry::id).doesNotContain(queued.get().id());
        assertThat(agent.flushQueued()).isEqualTo(FlushResult.FLUSHED);
        Entry stored = log.load(S, null).get(2);
        assertThat(stored.id()).isEqualTo(queued.get().id());
        assertThat(stored.message().text()).isEqualTo("while busy");
        assertThat(agent.flushQueued()).isEqualTo(FlushResult.NOOP);
    }

    /**
     * An agent whose second step failed in its flush of the prompt "while busy" (queued during the first step, which
     * {@code "reply 1"} answered) although the log stored it: the answer was lost.
     */
    Agent agentWhoseFlushAnswerWasLost(RecordingLog recording, AtomicReference<QueuedPrompt> queued) {
        Agent agent = agentQueuingOnFirstCall(new AgentSession(recording, S, AgentId.MAIN, ids, clock), "while busy",
                queued);
        agent.submitUserMessage("start");
        agent.runStep(Receiver.NONE);
        recording.loseNextAnswer();
        assertThatThrownBy(() -> agent.runStep(Receiver.NONE)).isInstanceOf(UnavailableException.class);
        return agent;
    }

    @Test
    void flushRetriedAfterItsAnswerWasLost_storesTheQueuedPromptOnce() {
        RecordingLog recording = new RecordingLog(log);
        AtomicReference<QueuedPrompt> queued = new AtomicReference<>();
        Agent agent = agentWhoseFlushAnswerWasLost(recording, queued);
        assertThat(logged()).extracting(Message::text).containsExactly("start", "reply 1", "while busy");
        assertThat(agent.queued()).isEmpty();
        assertThatThrownBy(() -> agent.editQueued(queued.get().id(), "too late")).hasMessageContaining("already sent");

        agent.runStep(Receiver.NONE);
        assertThat(recording.calls.get(recording.calls.size() - 2).written()).as("the flush sent again").isZero();
        assertThat(logged()).extracting(Message::text).containsExactly("start", "reply 1", "while busy", "reply 3");
        assertThat(EntryTree.of(log.load(S, null)).leaves()).hasSize(1);
    }

    /** The other side of the dangling-prompt rule: a prompt the user already sent is not held back after a reload. */
    @Test
    void flushWhoseAnswerWasLost_thenAReload_sendsTheStoredPromptOnceWithoutAskingAgain() {
        Agent agent = agentWhoseFlushAnswerWasLost(new RecordingLog(log), new AtomicReference<>());
        agent.reload();
        assertThat(agent.danglingPrompt()).map(Message::text).contains("while busy");

        agent.runStep(Receiver.NONE);
        assertThat(logged()).extracting(Message::text).containsExactly("start", "reply 1", "while busy", "reply 3");
        assertThat(agent.danglingPrompt()).isEmpty();
    }

    @Test
    void compaction_isPersisted_andAResumedConversationStartsFromTheSummary() {
        Agent agent = new Agent(config(), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        for (int i = 0; i < 4; i++) {
            agent.submitUserMessage("q" + i);
            agent.runStep(Receiver.NONE);
        }
        Agent.Compaction c = agent.compact(2, "we talked about q0 to q2", "summarize");
        assertThat(c.compactedMessages()).isEqualTo(6);
        assertThat(agent.messages()).extracting(Message::text)
                .containsExactly("we talked about q0 to q2", "q3", "You said: q3");
        assertThat(log.load(S, null)).hasSize(9);
        Agent resumed = Agent.resume(config(), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        assertThat(resumed.messages()).extracting(m -> m.role().name() + ":" + m.text())
                .containsExactly("compactionSummary:we talked about q0 to q2", "user:q3", "assistant:You said: q3");
        assertThat(log.load(S, null).get(8).payload()).isInstanceOf(EntryPayload.Compaction.class);
    }

    @Test
    void rewind_truncatesAcrossAgents() {
        Agent main = new Agent(config(), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        Agent worker = new Agent(config(), ScriptedProvider.echo(), store(new AgentId("worker")), null, clock);
        EntryId keep = main.submitUserMessage("one").orElseThrow().id();
        worker.submitUserMessage("worker prompt");
        main.runStep(Receiver.NONE);
        main.rewindTo(keep);
        assertThat(log.load(S, null)).extracting(Entry::id).containsExactly(keep);
        assertThat(main.danglingPrompt()).map(Message::text).contains("one");
    }

    @Test
    void multiAgentSession_interleavesEveryAgentsMessages() {
        AgentTeam team = new AgentTeam(log, S, ids, clock);
        ScriptedProvider workerModel = new ScriptedProvider("scripted", r -> text("worker did: "
                + r.messages().get(r.messages().size() - 1).text()));
        Map<String, java.util.function.Supplier<Agent>> workers = Map.of(
                "worker-1", () -> team.agent(new AgentId("worker-1"), prompted("work"), workerModel),
                "worker-2", () -> team.agent(new AgentId("worker-2"), prompted("work"), workerModel));
        ScriptedProvider orchestratorModel = new ScriptedProvider("scripted", ScriptedProvider.sequence(List.of(
                Message.builder(Role.ASSISTANT)
                        .add(new ContentBlock.ToolCall("d1", "delegate", RawJson.of("{\"worker\":\"worker-1\",\"task\":\"A\"}")))
                        .add(new ContentBlock.ToolCall("d2", "delegate", RawJson.of("{\"worker\":\"worker-2\",\"task\":\"B\"}")))
                        .build(),
                text("both done"),
                Message.builder(Role.ASSISTANT)
                        .add(new ContentBlock.ToolCall("d3", "delegate", RawJson.of("{\"worker\":\"worker-1\",\"task\":\"C\"}")))
                        .build(),
                text("done again"))));
        Agent orchestrator = team.agent(new AgentId("orchestrator"),
                prompted("orchestrate").withTools(List.of(new DelegateTool(workers, Receiver.NONE))), orchestratorModel);
        orchestrator.submitUserMessage("split the work");
        orchestrator.runStep(Receiver.NONE);
        List<Entry> rows = team.sessionMessages();
        assertThat(rows).extracting(e -> e.agentId().value() + ":" + e.message().role().name())
                .containsExactly("orchestrator:system", "orchestrator:user", "orchestrator:assistant", "worker-1:system",
                        "worker-1:user", "worker-1:assistant", "orchestrator:tool", "worker-2:system", "worker-2:user",
                        "worker-2:assistant", "orchestrator:tool", "orchestrator:assistant");
        assertThat(rows.get(6).message().toolResults().get(0).text()).isEqualTo("worker did: A");
        // Each worker is resumed for every task it gets; its prompt is written once, when its conversation starts.
        orchestrator.submitUserMessage("again");
        orchestrator.runStep(Receiver.NONE);
        assertThat(loggedPrompts()).containsExactly("orchestrate", "work", "work");
        for (int i = 1; i < rows.size(); i++) {
            assertThat(rows.get(i).seq()).isGreaterThan(rows.get(i - 1).seq());
        }
    }

    @Test
    void promptQueuedOnTheNullStore_joinsTheConversationWhenFlushed() {
        try (Store none = Stores.open("null:")) {
            AtomicReference<QueuedPrompt> queued = new AtomicReference<>();
            Agent agent = agentQueuingOnFirstCall(new AgentSession(none.log(), S, AgentId.MAIN, ids, clock), "while busy",
                    queued);
            agent.submitUserMessage("start");
            agent.runStep(Receiver.NONE);
            agent.runStep(Receiver.NONE);
            assertThat(agent.messages()).extracting(Message::text)
                    .containsExactly("start", "reply 1", "while busy", "reply 3");
            assertThat(agent.conversation().get(2).entry()).isEqualTo(queued.get().id());
            assertThat(none.log().load(S, null)).isEmpty();
        }
    }

    @Test
    void assistantReply_isStoredWithItsUsageInOneAppend() {
        RecordingLog recording = new RecordingLog(log);
        Agent agent = new Agent(config(), ScriptedProvider.echo(), new AgentSession(recording, S, AgentId.MAIN, ids,
                clock), null, clock);
        agent.submitUserMessage("hi");
        agent.runStep(Receiver.NONE);
        RecordingLog.Call reply = recording.calls.get(recording.calls.size() - 1);
        assertThat(reply.batch()).extracting(e -> ((Message) e.payload()).role()).containsExactly(Role.ASSISTANT);
        assertThat(reply.usage()).isEqualTo(((Message) reply.batch().get(0).payload()).usage());
        assertThat(recording.calls).as("one write for the prompt, one for the reply and its usage").hasSize(2);
        assertThat(log.loadUsage(S, AgentId.MAIN)).isEqualTo(reply.usage());
    }

    @Test
    void adoptedConversation_endingInADanglingPrompt_continuesFromItsParent() {
        Agent first = new Agent(config(), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("first");
        first.runStep(Receiver.NONE);
        first.submitUserMessage("never answered");
        AgentSession session = store(AgentId.MAIN);
        var loaded = session.loadConversation(Agent.resumeOptions());
        assertThat(session.leaf()).as("reading moves nothing").isEqualTo(loaded.danglingUserEntry());
        Agent resumed = new Agent(config(), ScriptedProvider.echo(), session, loaded, clock);
        assertThat(session.leaf()).isEqualTo(loaded.continueFrom());
        Entry edited = resumed.editDanglingPrompt("answered").orElseThrow();
        assertThat(edited.parentId()).isEqualTo(log.load(S, null).get(2).parentId());
    }

    // ---- the system prompt: panto's seed-fresh and reconcile-on-resume ----

    @Test
    void freshStart_persistsTheSystemPromptOnce_asTheSessionsFirstEntry() {
        Agent agent = new Agent(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        Message first = log.load(S, null).get(0).message();
        assertThat(Agent.isSystemPrompt(first)).isTrue();
        assertThat(first.text()).isEqualTo("be brief");
        agent.submitUserMessage("hi");
        agent.runStep(Receiver.NONE);
        assertThat(loggedPrompts()).containsExactly("be brief");
        assertThat(log.load(S, null)).hasSize(3);
    }

    @Test
    void resumeWithTheSamePrompt_writesNothing() {
        Agent first = new Agent(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("hi");
        first.runStep(Receiver.NONE);
        List<Entry> before = log.load(S, null);
        Agent resumed = Agent.resume(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        assertThat(log.load(S, null)).isEqualTo(before);
        assertThat(resumed.systemPrompt()).isEqualTo("be brief");
    }

    @Test
    void resumeAfterACompactionCutThePromptFromTheConversation_withTheSamePrompt_writesNothing() {
        Agent first = new Agent(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        for (int i = 0; i < 3; i++) {
            first.submitUserMessage("q" + i);
            first.runStep(Receiver.NONE);
        }
        first.compact(2, "we talked", "summarize");
        List<Entry> before = log.load(S, null);
        Agent resumed = Agent.resume(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        assertThat(resumed.messages()).extracting(Message::text).containsExactly("we talked", "q2", "You said: q2");
        assertThat(log.load(S, null)).isEqualTo(before);
    }

    @Test
    void resumeWithAChangedPrompt_appendsIt_andTheNextRequestUsesIt() {
        Agent first = new Agent(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("hi");
        first.runStep(Receiver.NONE);
        List<ModelRequest> requests = new ArrayList<>();
        ScriptedProvider provider = new ScriptedProvider("scripted", request -> {
            requests.add(request);
            return text("ok");
        });
        Agent resumed = Agent.resume(prompted("be thorough"), provider, store(AgentId.MAIN), clock);
        assertThat(loggedPrompts()).containsExactly("be brief", "be thorough");
        resumed.submitUserMessage("again");
        resumed.runStep(Receiver.NONE);
        assertThat(requests).singleElement().satisfies(r -> {
            assertThat(r.systemPrompt()).isEqualTo("be thorough");
            assertThat(r.messages()).noneMatch(Agent::isSystemPrompt);
        });
        assertThat(Agent.resume(prompted("be thorough"), provider, store(AgentId.MAIN), clock).systemPrompt())
                .isEqualTo("be thorough");
        assertThat(loggedPrompts()).hasSize(2);
    }

    @Test
    void resumedConversationWithAChangedPrompt_logShowsBothPromptsInOrder() {
        Agent first = new Agent(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("one");
        first.runStep(Receiver.NONE);
        Agent resumed = Agent.resume(prompted("be thorough"), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        resumed.submitUserMessage("two");
        resumed.runStep(Receiver.NONE);
        assertThat(log.load(S, null)).extracting(e -> e.message().role().name() + ":" + e.message().text())
                .containsExactly("system:be brief", "user:one", "assistant:You said: one", "system:be thorough",
                        "user:two", "assistant:You said: two");
        assertThat(EntryTree.of(log.load(S, null)).leaves()).hasSize(1);
    }

    /** Under the prompt "be brief": a turn "one", then a prompt that a crash left without a reply. */
    void promptedTurnThenADanglingPrompt(String dangling) {
        Agent first = new Agent(prompted("be brief"), ScriptedProvider.echo(), store(AgentId.MAIN), null, clock);
        first.submitUserMessage("one");
        first.runStep(Receiver.NONE);
        first.submitUserMessage(dangling);
    }

    @Test
    void resumeWithAChangedPromptAndADanglingPrompt_writesThePromptWhenTheDanglingOneIsResolved() {
        promptedTurnThenADanglingPrompt("never answered");
        Agent resumed = Agent.resume(prompted("be thorough"), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        assertThat(loggedPrompts()).as("not beside the dangling prompt, off its path").containsExactly("be brief");
        resumed.sendDanglingPrompt();
        resumed.runStep(Receiver.NONE);
        assertThat(log.load(S, null)).extracting(e -> e.message().role().name() + ":" + e.message().text())
                .containsExactly("system:be brief", "user:one", "assistant:You said: one", "user:never answered",
                        "system:be thorough", "assistant:You said: never answered");
        assertThat(EntryTree.of(log.load(S, null)).leaves()).hasSize(1);
    }

    @Test
    void resumeWithAChangedPromptAndADanglingPrompt_writesThePromptBeforeTheEditedOne() {
        promptedTurnThenADanglingPrompt("typo'd");
        Agent resumed = Agent.resume(prompted("be thorough"), ScriptedProvider.echo(), store(AgentId.MAIN), clock);
        resumed.editDanglingPrompt("fixed");
        resumed.runStep(Receiver.NONE);
        assertThat(Agent.resume(prompted("be thorough"), ScriptedProvider.echo(), store(AgentId.MAIN), clock).messages())
                .extracting(m -> m.role().name() + ":" + m.text())
                .containsExactly("system:be brief", "user:one", "assistant:You said: one", "system:be thorough",
                        "user:fixed", "assistant:You said: fixed");
        assertThat(loggedPrompts()).containsExactly("be brief", "be thorough");
    }

    @Test
    void wholeTurnWithAToolCall_onTheNullStore_succeedsAndStoresNothing() {
        try (Store none = Stores.open("null:")) {
            ScriptedProvider provider = new ScriptedProvider("scripted", ScriptedProvider.sequence(List.of(
                    calls("c1"), text("found it"))));
            Agent agent = new Agent(prompted("be brief"), provider, new AgentSession(none.log(), S, AgentId.MAIN, ids,
                    clock), null, clock);
            agent.submitUserMessage("look it up");
            StepResult result = agent.runStep(Receiver.NONE);
            assertThat(result.toolCalls()).isEqualTo(1);
            assertThat(result.reply().text()).isEqualTo("found it");
            assertThat(agent.messages()).extracting(m -> m.role().name())
                    .containsExactly("system", "user", "assistant", "tool", "assistant");
            assertThat(none.log().load(S, null)).isEmpty();
            assertThat(none.log().loadUsage(S, AgentId.MAIN)).isEqualTo(Usage.ZERO);
            assertThat(none.catalog()).isEmpty();
        }
    }

    @Test
    void providerValidLoad_repairsAbortedRepliesAndConsecutivePrompts() {
        AgentSession s = store(AgentId.MAIN);
        s.appendMessages(List.of(Message.user("one"),
                Message.builder(Role.ASSISTANT).content(List.of()).stopReason("aborted").errorMessage("aborted").build(),
                Message.user("two"), text("answer"), calls("x1")));
        var loaded = s.loadConversation(ConversationOptions.PROVIDER_VALID);
        List<Message> m = loaded.messages();
        assertThat(m).extracting(x -> x.role().name()).containsExactly("user", "assistant", "assistant", "tool");
        assertThat(m.get(0).text()).isEqualTo("one\n\ntwo");
        assertThat(m.get(3).toolResults().get(0).isError()).isTrue();
        assertThat(loaded.repairs()).hasSize(3);
        assertThat(Usage.ZERO).isNotNull();
        assertThat(new ArrayList<>(m)).hasSize(4);
    }
}
