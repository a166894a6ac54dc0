package dev.parley.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;

/** An AI service with a tool and a window memory per user, as a LangChain4j application declares one. */
interface WeatherAssistant {
    @SystemMessage("You answer weather questions with the get_weather tool.")
    String chat(@MemoryId String user, @UserMessage String question);

    /** The weather tool. */
    final class Weather {
        @Tool(name = "get_weather", value = "Current weather of a city")
        public String getWeather(@P("the city") String city) {
            return "21°C and sunny in " + city;
        }
    }

    /** The service over an OpenAI-compatible server, with a window of 20 messages kept in {@code store}. */
    static WeatherAssistant create(String baseUrl, ChatMemoryStore store) {
        OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(baseUrl).apiKey("test-key").modelName("gpt-4o-mini")
                .build();
        return AiServices.builder(WeatherAssistant.class).chatModel(model)
                .chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
                        .chatMemoryStore(store).build())
                .tools(new Weather()).build();
    }
}
