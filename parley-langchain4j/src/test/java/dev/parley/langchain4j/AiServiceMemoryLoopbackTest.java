package dev.parley.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.tck.model.ToolPairingModelServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory store proven with LangChain4j's own classes: an AI service with a tool and a
 * {@code MessageWindowChatMemory} runs whole tool-calling turns against an OpenAI-compatible server on loopback; then
 * a fresh JVM reloads the memory from the SQLite file and asks again, and the server — which refuses unpaired tool
 * messages as OpenAI does — accepts the reloaded history.
 */
class AiServiceMemoryLoopbackTest {
    @TempDir
    Path dir;
    ToolPairingModelServer server;

    @BeforeEach
    void start() throws IOException {
        server = new ToolPairingModelServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void toolCallingTurns_reloadedInAFreshJvm_areAcceptedByTheModelServer() throws Exception {
        String uri = "sqlite:" + dir.resolve("chat.db");
        try (Store store = Stores.open(uri)) {
            ParleyChatMemoryStore memory = new ParleyChatMemoryStore(store);
            WeatherAssistant assistant = WeatherAssistant.create(server.baseUrl(), memory);
            assertThat(assistant.chat("alice", "What is the weather in Lisbon?"))
                    .isEqualTo("Forecast: 21°C and sunny in Lisbon");
            assertThat(assistant.chat("alice", "And in Porto?")).isEqualTo("Forecast: 21°C and sunny in Porto");
            assertThat(memory.getMessages("alice")).hasSize(9); // system, then two turns of user, call, result, answer
        }
        assertThat(server.requests).hasSize(4);

        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                ReloadedAssistantMain.class.getName(), uri,
                server.baseUrl(), "alice", "And in Faro?").redirectErrorStream(true).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("reloaded 9 messages").contains("answer: Forecast: 21°C and sunny in Faro");
        assertThat(server.refusals).isEmpty();

        JsonNode reloaded = server.requests.get(4).get("messages"); // the fresh JVM's first call
        assertThat(reloaded).hasSize(10);
        assertThat(reloaded.get(2).get("tool_calls").get(0).get("id").asText()).isEqualTo("call_1");
        assertThat(reloaded.get(3).get("tool_call_id").asText()).isEqualTo("call_1");

        try (Store store = Stores.open(uri)) {
            List<ChatMessage> messages = new ParleyChatMemoryStore(store).getMessages("alice");
            assertThat(messages).hasSize(13);
            assertThat(messages.stream().filter(m -> m instanceof ToolExecutionResultMessage)).hasSize(3);
            assertThat(messages.stream().filter(m -> m instanceof AiMessage a && a.hasToolExecutionRequests()))
                    .hasSize(3);
        }
    }

    @Test
    void pairingCheck_historyWithoutToolMessages_isRefusedAsByTheProvider() {
        // The failure the reload above must not hit: a store that dropped the tool messages (as Spring AI's JDBC
        // repository does) leaves an assistant call with no result, and the provider refuses the whole request.
        InMemoryChatMemoryStore dropping = new InMemoryChatMemoryStore() {
            @Override
            public void updateMessages(Object memoryId, List<ChatMessage> messages) {
                super.updateMessages(memoryId, messages.stream()
                        .filter(m -> !(m instanceof ToolExecutionResultMessage)).toList());
            }
        };
        WeatherAssistant assistant = WeatherAssistant.create(server.baseUrl(), dropping);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
            assistant.chat("bob", "What is the weather in Lisbon?");
            assistant.chat("bob", "And in Porto?");
        }).hasMessageContaining("tool_call");
        assertThat(server.refusals).isNotEmpty();
    }
}
