package dev.parley.springai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.tck.model.ToolPairingModelServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * The repository proven with Spring AI's own classes: {@code ChatClient} with {@code MessageChatMemoryAdvisor} and a
 * tool, and the documented user-controlled tool loop over {@code MessageWindowChatMemory}, run whole tool-calling
 * turns against an OpenAI-compatible server on loopback; then a fresh JVM reloads both conversations from the SQLite
 * file and sends again, and the server — which refuses unpaired tool messages as OpenAI does — accepts them.
 */
class ChatClientMemoryLoopbackTest {
    @TempDir
    Path dir;
    ToolPairingModelServer server;

    @BeforeEach
    void start() throws Exception {
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
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            WeatherChat chat = new WeatherChat(server.baseUrl(), repository);
            assertThat(chat.clientTurn("client", "What is the weather in Lisbon?"))
                    .contains("21°C and sunny in Lisbon");
            assertThat(chat.clientTurn("client", "And in Porto?")).contains("21°C and sunny in Porto");
            assertThat(chat.memoryTurn("memory", "What is the weather in Lisbon?")).contains("21°C and sunny in Lisbon");
            // ChatClient keeps the question and the answer; the tool loop runs inside the model call
            assertThat(repository.findByConversationId("client")).hasSize(4);
            // the user-controlled loop keeps the call and the tool's response too
            List<Message> memory = repository.findByConversationId("memory");
            assertThat(memory).hasSize(5);
            assertThat(((AssistantMessage) memory.get(2)).getToolCalls().get(0).name()).isEqualTo("get_weather");
            assertThat(((ToolResponseMessage) memory.get(3)).getResponses().get(0).responseData())
                    .contains("21°C and sunny in Lisbon"); // as Spring AI's result converter writes it, JSON
        }
        int before = server.requests.size();

        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                ReloadedChatMain.class.getName(), uri,
                server.baseUrl()).redirectErrorStream(true).start();
        assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("reloaded client 4, memory 5")
                .containsPattern("client answer: Forecast: .?21°C and sunny in Faro")
                .containsPattern("memory answer: Forecast: .?21°C and sunny in Faro");
        assertThat(output).containsPattern("conversations \\[(client, memory|memory, client)\\]");
        assertThat(server.refusals).isEmpty();

        // the fresh JVM's first call of the user-controlled loop sent the reloaded tool call and its response
        JsonNode reloaded = server.requests.stream().skip(before)
                .filter(r -> r.get("messages").size() == 6 && r.get("messages").get(2).has("tool_calls")).findFirst().orElseThrow().get("messages");
        assertThat(reloaded.get(2).get("tool_calls").get(0).get("function").get("name").asText())
                .isEqualTo("get_weather");
        assertThat(reloaded.get(3).get("role").asText()).isEqualTo("tool");
        assertThat(reloaded.get(3).get("tool_call_id").asText())
                .isEqualTo(reloaded.get(2).get("tool_calls").get(0).get("id").asText());
    }
}
