package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.conversation.OrphanPolicy;
import dev.parley.core.conversation.Repair;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ConversationBuilderTest {
    static final SessionId S = new SessionId("s");
    final List<Entry> log = new ArrayList<>();

    Entry add(String id, String parent, EntryPayload payload) {
        return add(id, parent, payload, AgentId.MAIN);
    }

    Entry add(String id, String parent, EntryPayload payload, AgentId agent) {
        Entry e = new Entry(log.size() + 1, new EntryId(id), parent == null ? null : new EntryId(parent), agent, null,
                payload, null);
        log.add(e);
        return e;
    }

    LoadedConversation build(ConversationOptions options) {
        return ConversationBuilder.build(S, log, AgentId.MAIN, options);
    }

    static Message assistantCalling(String... callIds) {
        Message.Builder b = Message.builder(Role.ASSISTANT);
        for (String id : callIds) {
            b.add(new ContentBlock.ToolCall(id, "read", RawJson.of("{}")));
        }
        return b.build();
    }

    static Message result(String callId) {
        return Message.toolResults(List.of(ContentBlock.ToolResult.text(callId, "read", "ok", false)));
    }

    @Test
    void trailingUserPrompt_isDanglingAndExcluded() {
        add("u1", null, Message.user("hello"));
        add("a1", "u1", Message.assistant(List.of(new ContentBlock.Text("hi"))));
        add("u2", "a1", Message.user("are you there?"));
        LoadedConversation c = build(ConversationOptions.AS_WRITTEN);
        assertThat(c.messages()).extracting(Message::text).containsExactly("hello", "hi");
        assertThat(c.danglingUser().text()).isEqualTo("are you there?");
        assertThat(c.danglingUserEntry()).isEqualTo(new EntryId("u2"));
        assertThat(c.continueFrom()).isEqualTo(new EntryId("a1"));
    }

    @Test
    void activeLeaf_followsTheLatestBranch_andDetachedEventsAreNeverLeaves() {
        add("u1", null, Message.user("first"));
        add("a1", "u1", Message.assistant(List.of(new ContentBlock.Text("reply one"))));
        add("u2", "u1", Message.user("edited")); // sibling of a1: a branch
        add("a2", "u2", Message.assistant(List.of(new ContentBlock.Text("reply two"))));
        add("snap", null, new EntryPayload.Custom("file-history-snapshot", RawJson.EMPTY_OBJECT));
        LoadedConversation c = build(ConversationOptions.AS_WRITTEN);
        assertThat(c.leaf()).isEqualTo(new EntryId("a2"));
        assertThat(c.messages()).extracting(Message::text).containsExactly("first", "edited", "reply two");
        LoadedConversation old = build(ConversationOptions.AS_WRITTEN.withLeaf(new EntryId("a1")));
        assertThat(old.messages()).extracting(Message::text).containsExactly("first", "reply one");
    }

    @Test
    void compaction_startsWithItsSummaryThenKeptEntries() {
        add("u1", null, Message.user("old 1"));
        add("a1", "u1", Message.assistant(List.of(new ContentBlock.Text("old 2"))));
        add("u2", "a1", Message.user("kept"));
        add("a2", "u2", Message.assistant(List.of(new ContentBlock.Text("kept too"))));
        add("c1", "a2", new EntryPayload.Compaction("the summary", new EntryId("u2"), 1000L));
        add("u3", "c1", Message.user("after"));
        add("a3", "u3", Message.assistant(List.of(new ContentBlock.Text("answer"))));
        LoadedConversation c = build(ConversationOptions.AS_WRITTEN);
        assertThat(c.messages()).extracting(m -> m.role().name() + ":" + m.text())
                .containsExactly("compactionSummary:the summary", "user:kept", "assistant:kept too", "user:after",
                        "assistant:answer");
        assertThat(c.path()).hasSize(7);
    }

    @Test
    void splitResponses_areMerged_andParallelResultsOffThePathRecovered() {
        // Claude Code writes one record per block; parallel calls fork the tree.
        add("u1", null, Message.user("do two things"));
        add("a1", "u1", Message.builder(Role.ASSISTANT).add(new ContentBlock.ToolCall("X", "read", RawJson.of("{}")))
                .responseId("msg_1").build());
        add("a2", "a1", Message.builder(Role.ASSISTANT).add(new ContentBlock.ToolCall("Y", "read", RawJson.of("{}")))
                .responseId("msg_1").build());
        add("rx", "a1", result("X"));
        add("ry", "a2", result("Y"));
        add("a3", "ry", Message.assistant(List.of(new ContentBlock.Text("done"))));
        LoadedConversation c = build(ConversationOptions.AS_WRITTEN);
        assertThat(c.messages()).hasSize(5);
        assertThat(c.messages().get(1).toolCalls()).extracting(ContentBlock.ToolCall::id).containsExactly("X", "Y");
        assertThat(c.messages().get(2).toolResults().get(0).callId()).isEqualTo("X");
        assertThat(c.messages().get(3).toolResults().get(0).callId()).isEqualTo("Y");
    }

    @Test
    void parallelResultOffThePath_isRecovered_betweenAnotherAgentsEntries() {
        AgentId other = new AgentId("other");
        add("u1", null, Message.user("read both"));
        add("o1", null, Message.user("unrelated"), other);
        add("a1", "u1", assistantCalling("X", "Y"));
        add("rx", "a1", result("X"));
        add("o2", "o1", Message.assistant(List.of(new ContentBlock.Text("other reply"))), other);
        add("ry", "a1", result("Y")); // a sibling of rx: off the path from a2
        add("a2", "rx", Message.assistant(List.of(new ContentBlock.Text("done"))));
        LoadedConversation c = build(ConversationOptions.AS_WRITTEN);
        assertThat(c.items()).extracting(i -> i.entry().value()).containsExactly("u1", "a1", "rx", "ry", "a2");
    }

    @Test
    @Timeout(10)
    void parentChainThatLoops_isACorruptRecord_notAnEndlessWalk() {
        add("a", "b", Message.user("one"));
        add("b", "a", Message.assistant(List.of(new ContentBlock.Text("two"))));
        assertThatThrownBy(() -> build(ConversationOptions.AS_WRITTEN))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("the parent chain loops");
    }

    @Test
    void orphanedToolCalls_keptStrippedOrAnswered() {
        add("u1", null, Message.user("go"));
        add("a1", "u1", assistantCalling("A", "B"));
        add("r1", "a1", result("A"));
        assertThat(build(ConversationOptions.AS_WRITTEN).messages().get(1).toolCalls()).hasSize(2);

        LoadedConversation stripped = build(ConversationOptions.AS_WRITTEN.withOrphans(OrphanPolicy.STRIP));
        assertThat(stripped.messages().get(1).toolCalls()).extracting(ContentBlock.ToolCall::id).containsExactly("A");
        assertThat(stripped.repairs()).extracting(Repair::kind).containsExactly(Repair.Kind.STRIPPED_TOOL_CALL);

        LoadedConversation answered = build(ConversationOptions.PROVIDER_VALID);
        List<ContentBlock.ToolResult> results = answered.messages().get(2).toolResults();
        assertThat(results).extracting(ContentBlock.ToolResult::callId).containsExactly("A", "B");
        assertThat(results.get(1).isError()).isTrue();
        assertThat(answered.repairs()).extracting(Repair::kind).containsExactly(Repair.Kind.SYNTHESIZED_TOOL_RESULT);
    }

    @Test
    void providerValid_dropsAbortedEmptyReplies_andResultsWithoutCalls() {
        add("u1", null, Message.user("go"));
        add("a1", "u1", Message.builder(Role.ASSISTANT).content(List.of()).stopReason("aborted")
                .errorMessage("Request was aborted").build());
        add("r0", "a1", result("ghost"));
        add("a2", "r0", Message.assistant(List.of(new ContentBlock.Text("hello"))));
        LoadedConversation c = build(ConversationOptions.PROVIDER_VALID);
        assertThat(c.messages()).extracting(Message::text).containsExactly("go", "hello");
        assertThat(c.repairs()).extracting(Repair::kind)
                .containsExactly(Repair.Kind.DROPPED_INCOMPLETE_MESSAGE, Repair.Kind.DROPPED_ORPHAN_RESULT);
    }

    @Test
    void onlyTheAgentsOwnLeafIsUsed_butItsPathMayCrossAgents() {
        add("o1", null, Message.user("task for worker"));
        add("w1", "o1", Message.assistant(List.of(new ContentBlock.Text("worker reply"))), new AgentId("worker"));
        add("o2", "o1", Message.assistant(List.of(new ContentBlock.Text("orchestrator reply"))));
        LoadedConversation worker = ConversationBuilder.build(S, log, new AgentId("worker"), ConversationOptions.AS_WRITTEN);
        assertThat(worker.messages()).extracting(Message::text).containsExactly("task for worker", "worker reply");
        assertThat(build(ConversationOptions.AS_WRITTEN).messages()).extracting(Message::text)
                .containsExactly("task for worker", "orchestrator reply");
    }

    @Test
    void emptyLog_givesEmptyConversation() {
        LoadedConversation c = build(ConversationOptions.PROVIDER_VALID);
        assertThat(c.items()).isEmpty();
        assertThat(c.dangling()).isEmpty();
        assertThat(c.leaf()).isNull();
    }
}
