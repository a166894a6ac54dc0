package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Codex rollouts, Responses API conversations, Gemini CLI sessions and Aider histories: the samples in
 * {@code src/test/resources/transcripts} (and the real Codex and Aider files when the workspace has them) import and
 * export back to their own format exactly.
 */
class NewFormatsTest {
    static final Path SAMPLES = CrossFormatExportTest.SAMPLES;

    final Store store = MemoryStore.open();

    Recorder importPaths(Path... paths) {
        Recorder r = new Recorder();
        new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(paths), null, r);
        assertThat(r.fatal()).isEmpty();
        return r;
    }

    String export(SessionId s, Format f) {
        return new Exporter(store).export(s, f, null);
    }

    @Test
    void codexRollout_importsAsItsModel_andExportsBackLineForLine() throws Exception {
        Path file = SourceSessionIdentityTest.ROLLOUT;
        ImportResult r = importPaths(file).sessions.get(0);
        assertThat(r.format()).isEqualTo(Format.CODEX);
        assertThat(r.session()).isEqualTo(SourceSessionIdentityTest.ROLLOUT_ID);
        assertThat(RealTranscriptRoundTripTest.parseLines(export(r.session(), Format.CODEX)))
                .isEqualTo(RealTranscriptRoundTripTest.parseLines(Files.readString(file)));
        var loaded = new AgentSession(store.log(), r.session(), dev.parley.core.AgentId.MAIN, IdGenerator.uuidV7(),
                java.time.Clock.systemUTC()).loadConversation(dev.parley.core.conversation.ConversationOptions.AS_WRITTEN);
        // After the compaction: its summary, the new prompt, the call and its output, the answer.
        List<Message> messages = loaded.items().stream().map(i -> i.message()).toList();
        assertThat(messages.get(0).role()).isEqualTo(Role.COMPACTION_SUMMARY);
        assertThat(messages.get(1).text()).isEqualTo("Try the tests again.");
        assertThat(messages.get(2).toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("call_test2");
            assertThat(c.arguments().text()).isEqualTo("{\"command\":[\"pytest\",\"-q\"]}");
        });
        assertThat(messages.get(3).toolResults()).singleElement().satisfies(t -> assertThat(t.callId()).isEqualTo("call_test2"));
        assertThat(messages.get(4).text()).isEqualTo("All 3 tests pass.");
        assertThat(loaded.activeModel().model()).isEqualTo("gpt-5-codex");
    }

    @Test
    void codexRolloutWithADanglingCall_isReportedWithFileLineAndCallId() {
        Recorder r = importPaths(SourceSessionIdentityTest.ROLLOUT);
        assertThat(r.problems).singleElement().satisfies(p -> {
            assertThat(p.fatal()).isFalse();
            assertThat(p.callId()).isEqualTo("call_test1");
            assertThat(p.line()).isEqualTo(20);
            assertThat(p.message()).contains("dangling tool call call_test1");
        });
    }

    @Test
    void realCodexRollouts_exportBackLineForLine() throws Exception {
        Path dir = RealTranscripts.dir().resolve("codex");
        Recorder r = importPaths(dir);
        assertThat(r.sessions).hasSize(5);
        for (ImportResult s : r.sessions) {
            Path source = s.agents().get(0).source();
            assertThat(RealTranscriptRoundTripTest.parseLines(export(s.session(), Format.CODEX))).as("%s", source)
                    .isEqualTo(RealTranscriptRoundTripTest.parseLines(Files.readString(source)));
        }
    }

    @Test
    void responsesConversation_mapsItsItems_andExportsBackExactly() throws Exception {
        Path file = SAMPLES.resolve("responses-conversation.json");
        ImportResult r = importPaths(file).sessions.get(0);
        assertThat(r.format()).isEqualTo(Format.OPENAI_RESPONSES);
        assertThat(Json.same(Json.parse(export(r.session(), Format.OPENAI_RESPONSES)), Json.mapper().readTree(file.toFile())))
                .isTrue();
        JsonNode chat = Json.parse(export(r.session(), Format.OPENAI_CHAT));
        assertThat(chat.get("messages").get(0).get("role").asText()).isEqualTo("system");
        assertThat(chat.get("messages").get(2).get("tool_calls").get(0).get("id").asText()).isEqualTo("call_w1");
        assertThat(ApiRules.openAiChat(chat)).isEmpty();
    }

    @Test
    void geminiSession_mapsThoughtsCallsAndResults_andExportsBackExactly() throws Exception {
        Path file = SAMPLES.resolve("session-2025-10-02T09-00-5d1e6c2a.json");
        Recorder rec = importPaths(file);
        ImportResult r = rec.sessions.get(0);
        assertThat(r.format()).isEqualTo(Format.GEMINI);
        assertThat(r.session().value()).isEqualTo("5d1e6c2a-8b7f-4c3e-9a21-0f4e3d2c1b0a");
        assertThat(Json.same(Json.parse(export(r.session(), Format.GEMINI)), Json.mapper().readTree(file.toFile()))).isTrue();
        List<Message> messages = new ArrayList<>();
        store.log().load(r.session(), null).forEach(e -> {
            if (e.message() != null) {
                messages.add(e.message());
            }
        });
        Message reply = messages.get(1);
        assertThat(reply.content()).hasSize(4).satisfies(c -> {
            assertThat(c.get(0)).isInstanceOf(ContentBlock.Thinking.class);
            assertThat(c.get(2)).isInstanceOf(ContentBlock.ToolCall.class);
            assertThat(c.get(3)).isInstanceOf(ContentBlock.ToolResult.class);
        });
        assertThat(reply.usage().inputTokens()).isEqualTo(1200);
        assertThat(rec.problems).singleElement().satisfies(p -> assertThat(p.callId())
                .isEqualTo("run_shell_command-1759395680000-b2"));
    }

    @Test
    void aiderHistory_becomesOneSessionPerStart_andExportsBackByteForByte() throws Exception {
        Path file = SAMPLES.resolve(".aider.chat.history.md");
        Recorder r = importPaths(SAMPLES);
        List<ImportResult> aider = r.sessions.stream().filter(s -> s.format() == Format.AIDER).toList();
        assertThat(aider).hasSize(2);
        assertThat(aider.get(0).messages()).isEqualTo(3);
        assertThat(aider.get(1).messages()).isEqualTo(2);
        StringBuilder back = new StringBuilder();
        aider.forEach(s -> back.append(export(s.session(), Format.AIDER)));
        assertThat(back.toString()).isEqualTo(Files.readString(file));
        Message prompt = store.log().load(aider.get(1).session(), null).stream().map(e -> e.message())
                .filter(m -> m != null && m.role().equals(Role.USER)).findFirst().orElseThrow();
        assertThat(prompt.text()).isEqualTo("what does\nthis repo do?");
    }

    @Test
    void realAiderHistory_importsEverySession_andExportsBackByteForByte() throws Exception {
        Path file = RealTranscripts.dir().resolve("aider/aider-repo-chat-history-2024-08-excerpt.md");
        JsonNode stats = Json.mapper().readTree(RealTranscripts.dir().resolve("MANIFEST.json").toFile())
                .get("aider/aider-repo-chat-history-2024-08-excerpt.md").get("stats");
        Recorder r = importPaths(file);
        assertThat(r.sessions).hasSize(stats.get("sessions").asInt());
        StringBuilder back = new StringBuilder();
        r.sessions.forEach(s -> back.append(export(s.session(), Format.AIDER)));
        assertThat(back.toString()).isEqualTo(Files.readString(file));
        assertThat(importPaths(file).sessions).allSatisfy(s -> assertThat(s.status()).isEqualTo(ImportResult.Status.UNCHANGED));
    }
}
