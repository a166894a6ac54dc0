package com.example.chat;

import dev.parley.core.store.Store;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A chat whose memory is kept by Parley: {@code parley-spring-boot-starter} on the class path and nothing
 * configured gives a {@code Store} on the embedded default and Parley's {@code ChatMemoryRepository} under Spring AI's
 * {@code ChatMemory}. The model is scripted (no network, no key): it says how much of the conversation it was sent.
 *
 * <p>{@code java -jar target/spring-boot-chat.jar --once="Hello"} does one exchange and exits; without
 * {@code --once} it chats over standard input. {@code --conversation=ID} picks the conversation (default {@code demo}).
 */
@SpringBootApplication
public class ChatApplication {

    public static void main(String[] args) {
        System.exit(SpringApplication.exit(SpringApplication.run(ChatApplication.class, args)));
    }

    /** A scripted model in place of a provider: it answers with what it was sent. */
    @Bean
    ChatModel scriptedModel() {
        return new ChatModel() {
            @Override
            public ChatResponse call(Prompt prompt) {
                List<Message> sent = prompt.getInstructions();
                String question = prompt.getUserMessage().getText();
                long earlier = sent.stream().filter(m -> m instanceof UserMessage || m instanceof AssistantMessage)
                        .count() - 1;
                return new ChatResponse(List.of(new Generation(new AssistantMessage(
                        "You said '" + question + "'. I remember " + earlier + " earlier messages."))));
            }
        };
    }

    @Bean
    ApplicationRunner chat(ChatModel model, ChatMemory memory, ChatMemoryRepository repository, Store store,
                           ApplicationContext context, @Value("${once:#{null}}") String once, @Value("${conversation:demo}") String conversation) {
        return (ApplicationArguments args) -> {
            ChatClient client = ChatClient.builder(model)
                    .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build()).build();
            System.out.println("memory: " + repository.getClass().getSimpleName() + " on " + store.uri());
            // The starter's indicator for this Spring Boot line (Actuator is on the class path)
            System.out.println("health indicator: " + (context.containsBean("parleyHealthIndicator")
                    ? context.getBean("parleyHealthIndicator").getClass().getName() : "none"));
            if (once != null) {
                exchange(client, conversation, once);
            } else {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line; (line = in.readLine()) != null; ) {
                    if (!line.isBlank()) {
                        exchange(client, conversation, line);
                    }
                }
            }
            System.out.println("conversation '" + conversation + "' holds "
                    + repository.findByConversationId(conversation).size() + " messages");
        };
    }

    private static void exchange(ChatClient client, String conversation, String text) {
        String answer = client.prompt().user(text).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                .call().content();
        System.out.println("assistant: " + answer);
    }
}
