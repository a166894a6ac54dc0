package dev.parley.springai;

import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/** A Spring AI application's chat, as its documentation writes one, over an OpenAI-compatible server. */
final class WeatherChat {
    static final String SYSTEM = "You answer weather questions with the get_weather tool.";

    /** The weather tool. */
    static final class WeatherTools {
        @Tool(name = "get_weather", description = "Current weather of a city")
        public String getWeather(@ToolParam(description = "the city") String city) {
            return "21°C and sunny in " + city;
        }
    }

    final OpenAiChatModel model;
    final ChatMemory memory;

    /** @param baseUrl the server's base URL, ending in {@code /v1} */
    WeatherChat(String baseUrl, ChatMemoryRepository repository) {
        OpenAiApi api = OpenAiApi.builder().baseUrl(baseUrl.substring(0, baseUrl.length() - "/v1".length()))
                .apiKey("test-key").build();
        this.model = OpenAiChatModel.builder().openAiApi(api)
                .defaultOptions(OpenAiChatOptions.builder().model("gpt-4o-mini").build()).build();
        this.memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).build(); // window of 20
    }

    /** A turn through ChatClient with the memory advisor; the model runs the tool itself. */
    String clientTurn(String conversation, String question) {
        return ChatClient.builder(model).defaultSystem(SYSTEM)
                .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build()).build()
                .prompt().user(question).tools(new WeatherTools())
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                .call().content();
    }

    /**
     * A turn with user-controlled tool execution and the chat memory (Spring AI's reference documentation, "Tool
     * Calling"): the call, the tool's response and the answer all go into the memory.
     */
    String memoryTurn(String conversation, String question) {
        ToolCallingManager tools = DefaultToolCallingManager.builder().build();
        ToolCallingChatOptions options = OpenAiChatOptions.builder().model("gpt-4o-mini")
                .toolCallbacks(List.of(ToolCallbacks.from(new WeatherTools()))).internalToolExecutionEnabled(false)
                .build();
        if (memory.get(conversation).isEmpty()) {
            memory.add(conversation, new SystemMessage(SYSTEM));
        }
        memory.add(conversation, new UserMessage(question));
        Prompt prompt = new Prompt(memory.get(conversation), options);
        ChatResponse response = model.call(prompt);
        memory.add(conversation, response.getResult().getOutput());
        while (response.hasToolCalls()) {
            ToolExecutionResult result = tools.executeToolCalls(prompt, response);
            List<Message> history = result.conversationHistory();
            memory.add(conversation, history.get(history.size() - 1));
            prompt = new Prompt(memory.get(conversation), options);
            response = model.call(prompt);
            memory.add(conversation, response.getResult().getOutput());
        }
        return response.getResult().getOutput().getText();
    }
}
