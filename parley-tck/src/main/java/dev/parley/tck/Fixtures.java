package dev.parley.tck;

import dev.parley.core.RawJson;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.Lease;
import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.TurnSummary;
import java.time.Instant;
import java.util.List;

/** Session records for the scenarios: fully populated, as Heddle's conformance fixtures are. */
public final class Fixtures {
    /** Text that only a transcript holds: it must never appear in a catalog entry. */
    public static final String TRANSCRIPT_SENTINEL = "transcript-only: do not list me";

    private Fixtures() {}

    static Instant day(int d) {
        return Instant.parse(String.format("2026-01-%02dT00:00:00.000Z", d));
    }

    /** A fully populated record: lease with fencing token 1, context, model, fixed timestamps. */
    public static ChatSession session(String id) {
        return ChatSession.builder(id, day(1)).name("Session " + id).retention("reusable").workspaceId("workspace-a")
                .updatedAt(day(2)).model("gpt-5.4-mini").reasoningEffort("medium").driftEnabled(false)
                .context(RawJson.of("{\"estimatedHistoryTokens\":1200}"))
                .leaseEpoch(1L).lease(new Lease("tui", "host-1", "owner-1", 1, day(3), day(4), null))
                .history(List.of(ChatMessage.of("user", TRANSCRIPT_SENTINEL)))
                .build();
    }

    /** A record with every part: system/user/assistant-with-tool-calls/tool history, turns, archives, queue. */
    public static ChatSession richSession(String id) {
        return session(id).toBuilder()
                .history(List.of(
                        ChatMessage.of("system", "You are careful."),
                        ChatMessage.of("user", "List the files. " + TRANSCRIPT_SENTINEL),
                        new ChatMessage("assistant", "Listing.", List.of(new ChatMessage.ToolCall("call-1", "list_files",
                                RawJson.of("{\"path\":\".\"}"))), null, RawJson.of("{\"provider\":\"kimi\",\"reasoningContent\":\"r\"}")),
                        new ChatMessage("tool", "[\"a.txt\",\"😀.md\"]", List.of(), "call-1", null)))
                .messages(List.of(new ConversationLine("line-1", "user", "List the files.", null, null, null),
                        new ConversationLine("line-2", "assistant", "a.txt, 😀.md", false, false, null)))
                .turns(List.of(new TurnSummary("turn-1", "List the files.", "completed", "Listed two files.", 2,
                        "traces/turn-1.json", List.of("tool:list_files", "answer"), null,
                        RawJson.of("{\"id\":\"agent-1\",\"name\":\"Coder\"}"), null)))
                .context(RawJson.of("{\"estimatedHistoryTokens\":1200,\"request\":{\"estimatedTokens\":900,"
                        + "\"toolNames\":[\"list_files\"],\"goal\":\"list\",\"usage\":{\"inputTokens\":800,"
                        + "\"outputTokens\":40,\"totalTokens\":840}},\"compaction\":{\"compactedMessages\":4,"
                        + "\"status\":\"idle\"},\"archive\":{\"count\":1}}"))
                .archives(List.of(new ArchiveRecord("archive-1", "db://a/messages", "db://a/summary", "first", 4,
                        day(2), "gpt-5.4-mini")))
                .lease(new Lease("daemon", "host-1", "owner-1", 1, day(3), day(4), "laptop"))
                .queuedPrompts(List.of(new QueuedPrompt("queued-prompt-1", "And the sizes?", null, null, null, day(4),
                        day(4))))
                .build();
    }
}
