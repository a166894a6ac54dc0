package dev.parley.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.parley.agent.Agent;
import dev.parley.agent.AgentConfig;
import dev.parley.agent.ModelProvider;
import dev.parley.agent.ModelProviders;
import dev.parley.agent.Receiver;
import dev.parley.agent.StepResult;
import dev.parley.agent.Tool;
import dev.parley.agent.ToolSpec;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LangChain4j path end to end: an agent's tool-calling turn through LangChain4j's OpenAI chat model, against a
 * real HTTP server on loopback that speaks the chat-completions wire format.
 */
class OpenAiLoopbackTest {
    HttpServer server;
    final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    static final String TOOL_CALL = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1764400000,"model":"gpt-4o-mini",
             "choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_w1",
             "type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Lisbon\\"}"}}]},
             "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":61,"completion_tokens":17,"total_tokens":78}}""";
    static final String ANSWER = """
            {"id":"chatcmpl-2","object":"chat.completion","created":1764400001,"model":"gpt-4o-mini",
             "choices":[{"index":0,"message":{"role":"assistant","content":"It is 21°C and sunny in Lisbon."},
             "finish_reason":"stop"}],"usage":{"prompt_tokens":95,"completion_tokens":12,"total_tokens":107}}""";

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            JsonNode body = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            requests.add(body);
            String reply = requests.size() == 1 ? TOOL_CALL : ANSWER;
            byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void toolCallingTurn_throughLangChain4jOpenAi_againstALoopbackServer() {
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
        ModelProvider provider = ModelProviders.create("openai", "gpt-4o-mini",
                Map.of("OPENAI_API_KEY", "test-key", "OPENAI_BASE_URL", base));
        Tool weather = new Tool() {
            @Override
            public ToolSpec spec() {
                return new ToolSpec("get_weather", "Current weather of a city.", RawJson.of(
                        "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}"));
            }

            @Override
            public Output call(RawJson arguments) throws Exception {
                return Output.ok("21°C, sunny in " + Json.parse(arguments.text()).get("city").asText());
            }
        };
        Store log = MemoryStore.open();
        SessionId session = new SessionId("0199e0e0-0000-7000-8000-000000000001");
        Agent agent = new Agent(AgentConfig.of("openai", "gpt-4o-mini", "Use tools.").withTools(List.of(weather)),
                provider, new AgentSession(log.log(), session, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC()),
                null, Clock.systemUTC());
        agent.submitUserMessage("What's the weather in Lisbon?");
        StepResult result = agent.runStep(Receiver.NONE);

        assertThat(result.reply().text()).isEqualTo("It is 21°C and sunny in Lisbon.");
        assertThat(result.toolCalls()).isEqualTo(1);
        assertThat(requests).hasSize(2);
        JsonNode first = requests.get(0);
        assertThat(first.get("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(first.get("tools").get(0).get("function").get("name").asText()).isEqualTo("get_weather");
        JsonNode toolMessage = requests.get(1).get("messages").get(3);
        assertThat(toolMessage.get("role").asText()).isEqualTo("tool");
        assertThat(toolMessage.get("tool_call_id").asText()).isEqualTo("call_w1");
        assertThat(toolMessage.get("content").asText()).isEqualTo("21°C, sunny in Lisbon");

        List<Message> logged = log.log().load(session, null).stream().map(Entry::message).toList();
        assertThat(logged).extracting(m -> m.role().name())
                .containsExactly("system", "user", "assistant", "tool", "assistant");
        assertThat(logged.get(0).text()).isEqualTo("Use tools.");
        assertThat(logged.get(2).toolCalls().get(0).arguments().text()).isEqualTo("{\"city\":\"Lisbon\"}");
        assertThat(logged.get(4).usage().inputTokens()).isEqualTo(95);
        assertThat(log.log().loadUsage(session, AgentId.MAIN).outputTokens()).isEqualTo(29);
    }

    /** Regression: a provider nobody answered failed with "ollama call failed: java.net.ConnectException". */
    @Test
    void aProviderThatDoesNotAnswer_isNamedWithWhereAndWhy() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // free again once closed: nothing listens there
        }
        String base = "http://127.0.0.1:" + closed;
        for (var provider : List.of(ModelProviders.create("ollama", "m", Map.of("OLLAMA_BASE_URL", base)),
                ModelProviders.create("openai", "m", Map.of("OPENAI_API_KEY", "k", "OPENAI_BASE_URL", base + "/v1")))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> provider.complete(new dev.parley.agent.ModelRequest(
                    "m", null, List.of(Message.user("hi")), List.of()), Receiver.NONE))
                    .isInstanceOf(dev.parley.agent.ProviderException.class)
                    .hasMessageContaining(" call to " + base).hasMessageContaining("ConnectException");
        }
    }

    /** Regression (review): a base URL with a password in it was printed whole in the failed call's message. */
    @Test
    void aFailedCallsMessage_masksThePasswordInTheBaseUrl() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        var provider = ModelProviders.create("ollama", "m",
                Map.of("OLLAMA_BASE_URL", "http://me:s3cret@127.0.0.1:" + closed));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> provider.complete(new dev.parley.agent.ModelRequest(
                "m", null, List.of(Message.user("hi")), List.of()), Receiver.NONE))
                .isInstanceOf(dev.parley.agent.ProviderException.class)
                .hasMessageContaining(" call to http://me:***@127.0.0.1:" + closed)
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void missingApiKey_failsClearly() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ModelProviders.create("anthropic", "m", Map.of()))
                .hasMessageContaining("ANTHROPIC_API_KEY");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ModelProviders.create("nope", "m", Map.of()))
                .hasMessageContaining("unknown provider 'nope'").hasMessageContaining("openai");
    }
}
