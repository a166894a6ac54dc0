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
import java.util.Locale;
import java.util.Map;

/** Session records for the scenarios: fully populated, as Heddle's conformance fixtures are. */
public final class Fixtures {
    /** Text that only a transcript holds: it must never appear in a catalog entry. */
    public static final String TRANSCRIPT_SENTINEL = "transcript-only: do not list me";

    private Fixtures() {}

    static Instant day(int d) {
        return Instant.parse(String.format(Locale.ROOT, "2026-01-%02dT00:00:00.000Z", d));
    }

    /**
     * Session records as JSON documents, keyed by what they exercise, each with a {@code %s} where its id goes. Keys
     * are in the canonical codec's order, so a faithful store gives back the same text:
     * <ul>
     *   <li>{@code absent}: every optional key left out ({@code archives}, a message's {@code toolCalls}, the lease,
     *       the context);</li>
     *   <li>{@code empty}: every optional list and object present and empty ({@code "archives": []},
     *       {@code "toolCalls": []}, {@code "context": {}}, a turn's {@code "events": []}, empty opaque values);</li>
     *   <li>{@code raw}: full lists, and opaque values whose keys are out of alphabetical order and whose numbers are
     *       spelled {@code 1.50}, {@code 2.0} or wider than a long.</li>
     * </ul>
     */
    public static final Map<String, String> EXACT_RECORDS = Map.of("absent", """
            {"id":"%s","name":"Absent","pinned":false,\
            "history":[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"},\
            {"role":"assistant","content":"hello"},{"role":"tool","content":"","toolCallId":"call-0"}],\
            "messages":[{"id":"line-1","role":"user","text":"hi"}],\
            "turns":[{"id":"turn-1","prompt":"hi","outcome":"completed","summary":"said hello","steps":1,\
            "traceFile":"traces/turn-1.json","events":["answer"]}],\
            "createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-02T00:00:00.000Z",\
            "queuedPrompts":[{"id":"queued-prompt-1","prompt":"next","createdAt":"2026-01-02T00:00:00.000Z",\
            "updatedAt":"2026-01-02T00:00:00.000Z"}]}""", "empty", """
            {"id":"%s","name":"","retention":"one_off","workspaceId":"","pinned":false,\
            "history":[{"role":"assistant","content":"","toolCalls":[],"providerContinuation":{}},\
            {"role":"assistant","content":"calling","toolCalls":[{"id":"call-1","tool":"noop","input":{}}]},\
            {"role":"tool","content":"{}","toolCallId":"call-1"}],\
            "messages":[{"id":"line-1","role":"assistant","text":"","isStreaming":false,"isPending":false,\
            "directShellResult":{}}],\
            "turns":[{"id":"turn-1","prompt":"","outcome":"","summary":"","steps":0,"traceFile":"","events":[],\
            "presentation":{},"agent":{},"agentSnapshot":{}}],\
            "createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-02T00:00:00.000Z","model":"",\
            "driftEnabled":false,"lastContinuePrompt":"","context":{},"archives":[],"leaseEpoch":0,\
            "queuedPrompts":[]}""", "raw", """
            {"id":"%s","name":"Raw","pinned":true,"archivedAt":"2026-01-03T00:00:00.500Z",\
            "history":[{"role":"assistant","content":"two calls","toolCalls":[\
            {"id":"call-1","tool":"read","input":{"path":"b.txt","limit":1.50,"offset":0}},\
            {"id":"call-2","tool":"read","input":"{\\"path\\": \\"a.txt\\"}"}],\
            "providerContinuation":{"reasoningContent":"r","provider":"kimi"}},\
            {"role":"tool","content":"1","toolCallId":"call-1"},{"role":"tool","content":"2","toolCallId":"call-2"}],\
            "messages":[],"turns":[],\
            "createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-04T00:00:00.000Z","model":"gpt-5.4-mini",\
            "reasoningEffort":"high","context":{"request":{"usage":{"totalTokens":840,"outputTokens":40,\
            "inputTokens":800},"toolNames":[],"goal":"g"},"estimatedHistoryTokens":12345678901234567890123,\
            "compaction":{"status":"idle","compactedMessages":2.0}},\
            "archives":[{"id":"archive-1","path":"db://a/messages","summaryPath":"db://a/summary","messageCount":0,\
            "createdAt":"2026-01-02T00:00:00.000Z"},{"id":"archive-2","path":"db://b/messages",\
            "summaryPath":"db://b/summary","shortDescription":"","messageCount":3,\
            "createdAt":"2026-01-01T00:00:00.000Z","summaryModel":"m"}],\
            "leaseEpoch":7,"lease":{"ownerKind":"daemon","ownerId":"owner-1","fencingToken":7,\
            "acquiredAt":"2026-01-03T00:00:00.000Z","lastSeenAt":"2026-01-04T00:00:00.000Z"},\
            "queuedPrompts":[]}""");

    /**
     * A fully populated record: lease with fencing token 1, context, model, fixed timestamps.
     *
     * @param id the record's id
     * @return the record; its history holds {@link #TRANSCRIPT_SENTINEL}
     */
    public static ChatSession session(String id) {
        return ChatSession.builder(id, day(1)).name("Session " + id).retention("reusable").workspaceId("workspace-a")
                .updatedAt(day(2)).model("gpt-5.4-mini").reasoningEffort("medium").driftEnabled(false)
                .context(RawJson.of("{\"estimatedHistoryTokens\":1200}"))
                .leaseEpoch(1L).lease(new Lease("tui", "host-1", "owner-1", 1, day(3), day(4), null))
                .history(List.of(ChatMessage.of("user", TRANSCRIPT_SENTINEL)))
                .build();
    }

    /**
     * A record with every part: system/user/assistant-with-tool-calls/tool history, turns, archives, queue.
     *
     * @param id the record's id
     * @return the record: {@link #session} with those parts added; its history holds {@link #TRANSCRIPT_SENTINEL}
     */
    public static ChatSession richSession(String id) {
        return session(id).toBuilder()
                .history(List.of(
                        ChatMessage.of("system", "You are careful."),
                        ChatMessage.of("user", "List the files. " + TRANSCRIPT_SENTINEL),
                        new ChatMessage("assistant", "Listing.", List.of(new ChatMessage.ToolCall("call-1", "list_files",
                                RawJson.of("{\"path\":\".\"}"))), null, RawJson.of("{\"provider\":\"kimi\",\"reasoningContent\":\"r\"}")),
                        new ChatMessage("tool", "[\"a.txt\",\"😀.md\"]", null, "call-1", null)))
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
