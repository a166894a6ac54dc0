package dev.parley.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.agent.memory.MemoryLog;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeTypeUtils;

/** The Spring AI repository on a real SQLite file, reloaded through a new store each time. */
class ParleyChatMemoryRepositoryTest {
    @TempDir
    Path dir;

    String uri() {
        return "sqlite:" + dir.resolve("chat.db");
    }

    static final List<Message> EVERY_TYPE = List.of(
            SystemMessage.builder().text("You are terse.").metadata(Map.of("version", 3)).build(),
            new UserMessage("What is the weather in Lisbon? 🌦"),
            AssistantMessage.builder().content(null).properties(Map.of("id", "chatcmpl-1", "finishReason", "TOOL_CALLS",
                            "index", 0, "annotations", List.of(Map.of("type", "note"))))
                    .toolCalls(List.of(
                            new AssistantMessage.ToolCall("call_1", "function", "get_weather", "{\"city\":\"Lisbon\"}"),
                            new AssistantMessage.ToolCall("call_2", "function", "get_time", "{ \"zone\" : \"WET\" }")))
                    .build(),
            ToolResponseMessage.builder().responses(List.of(
                    new ToolResponseMessage.ToolResponse("call_1", "get_weather", "21°C, sunny"),
                    new ToolResponseMessage.ToolResponse("call_2", "get_time", "14:05\u0000"))).build(),
            new AssistantMessage("It is 21°C and 14:05."),
            new AssistantMessage(""));

    @Test
    void saveAll_everyMessageType_readsBackEqualInANewStore() {
        try (Store store = Stores.open(uri())) {
            new ParleyChatMemoryRepository(store).saveAll("c-1", EVERY_TYPE);
        }
        try (Store store = Stores.open(uri())) {
            assertThat(new ParleyChatMemoryRepository(store).findByConversationId("c-1"))
                    .containsExactlyElementsOf(EVERY_TYPE);
        }
    }

    @Test
    void saveAll_userMedia_keepsTypeDataIdAndName() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1};
        UserMessage message = UserMessage.builder().text("look").media(
                Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG).data(new ByteArrayResource(png)).name("cat").id("file-1").build(),
                Media.builder().mimeType(MimeTypeUtils.parseMimeType("application/pdf"))
                        .data(URI.create("https://example.com/a.pdf")).name("a").build()).build();
        try (Store store = Stores.open(uri())) {
            new ParleyChatMemoryRepository(store).saveAll("media", List.of(message));
        }
        try (Store store = Stores.open(uri())) {
            UserMessage back = (UserMessage) new ParleyChatMemoryRepository(store).findByConversationId("media").get(0);
            assertThat(back.getText()).isEqualTo("look");
            assertThat(back.getMedia()).hasSize(2);
            assertThat(back.getMedia().get(0).getDataAsByteArray()).isEqualTo(png);
            assertThat(back.getMedia().get(0).getMimeType()).isEqualTo(MimeTypeUtils.IMAGE_PNG);
            assertThat(back.getMedia().get(0).getName()).isEqualTo("cat");
            assertThat(back.getMedia().get(0).getId()).isEqualTo("file-1");
            assertThat(back.getMedia().get(1).getData()).isEqualTo("https://example.com/a.pdf");
            assertThat(back.getMedia().get(1).getName()).isEqualTo("a");
        }
    }

    /** Found by a breaker: a Double in a message's metadata came back a BigDecimal, unequal to what was saved. */
    @Test
    void saveAll_doubleMetadata_comesBackADouble() {
        AssistantMessage scored = AssistantMessage.builder().content("4").properties(Map.of("score", 1.25,
                "nested", List.of(0.5, 2))).build();
        try (Store store = Stores.open(uri())) {
            new ParleyChatMemoryRepository(store).saveAll("scored", List.of(scored));
        }
        try (Store store = Stores.open(uri())) {
            Message back = new ParleyChatMemoryRepository(store).findByConversationId("scored").get(0);
            assertThat(back.getMetadata().get("score")).isEqualTo(1.25);
            assertThat(back).isEqualTo(scored);
        }
    }

    /** Found by a breaker: a tool call whose type is null came back with the type "function". */
    @Test
    void saveAll_toolCallWithoutAType_comesBackWithoutOne() {
        AssistantMessage calls = AssistantMessage.builder().content(null).toolCalls(List.of(
                new AssistantMessage.ToolCall("1", null, "f", "{}"),
                new AssistantMessage.ToolCall("2", "function", "g", "{}"),
                new AssistantMessage.ToolCall("3", "custom", "h", "{}"))).build();
        try (Store store = Stores.open(uri())) {
            new ParleyChatMemoryRepository(store).saveAll("typed", List.of(calls));
        }
        try (Store store = Stores.open(uri())) {
            assertThat(new ParleyChatMemoryRepository(store).findByConversationId("typed")).containsExactly(calls);
        }
    }

    static UserMessage picture(String text, byte b) {
        return UserMessage.builder().text(text).media(Media.builder().mimeType(MimeTypeUtils.IMAGE_PNG)
                .data(new ByteArrayResource(new byte[] {b})).build()).build();
    }

    /**
     * Found by a breaker: Spring AI's UserMessage.equals leaves out the media, so a new question with the same text
     * and another picture was taken for the old one, and its picture never stored: the model was shown the old one.
     */
    @Test
    void messageWindowChatMemory_sameQuestionWithAnotherPicture_storesTheNewPicture() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            MessageWindowChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository)
                    .maxMessages(2).build();
            memory.add("c", picture("What is in this picture?", (byte) 1));
            memory.add("c", new AssistantMessage("A cat."));
            memory.add("c", picture("What is in this picture?", (byte) 2));
            UserMessage last = (UserMessage) memory.get("c").get(memory.get("c").size() - 1);
            assertThat(last.getMedia().get(0).getDataAsByteArray()).containsExactly(2);
            assertThat(store.log().loadMessages(repository.sessionId("c"), MemoryLog.AGENT)).hasSize(3);
        }
        try (Store store = Stores.open(uri())) {
            List<Message> back = new ParleyChatMemoryRepository(store).findByConversationId("c");
            assertThat(((UserMessage) back.get(back.size() - 1)).getMedia().get(0).getDataAsByteArray())
                    .containsExactly(2);
        }
        // In place: the same question with another picture where the first one stands, which only the comparison of
        // what the store keeps tells apart (a review found the window above passes on the order rule alone).
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            repository.saveAll("d", List.of(picture("And this one?", (byte) 1)));
            repository.saveAll("d", List.of(picture("And this one?", (byte) 3)));
            assertThat(((UserMessage) repository.findByConversationId("d").get(0)).getMedia().get(0)
                    .getDataAsByteArray()).containsExactly(3);
        }
        try (Store store = Stores.open(uri())) {
            assertThat(((UserMessage) new ParleyChatMemoryRepository(store).findByConversationId("d").get(0))
                    .getMedia().get(0).getDataAsByteArray()).containsExactly(3);
        }
    }

    @Test
    void messageWindowChatMemory_defaultWindow_keepsTheWholeHistoryInTheLog() {
        List<Message> window;
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            MessageWindowChatMemory memory = MessageWindowChatMemory.builder().chatMemoryRepository(repository).build();
            memory.add("c-2", new SystemMessage("sys"));
            for (int i = 0; i < 30; i++) {
                memory.add("c-2", i % 2 == 0 ? new UserMessage("q" + i) : new AssistantMessage("a" + i));
            }
            // The framework's window of 20: Spring AI 1.1 keeps the last 20 messages, 2.0 evicts whole exchanges (19).
            window = memory.get("c-2");
            assertThat(window).hasSizeBetween(18, 20).first().isEqualTo(new SystemMessage("sys"));
            assertThat(window).last().isEqualTo(new AssistantMessage("a29"));
            assertThat(store.log().loadMessages(repository.sessionId("c-2"), MemoryLog.AGENT)).hasSize(31);
        }
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            assertThat(repository.findByConversationId("c-2")).containsExactlyElementsOf(window);
            assertThat(repository.findConversationIds()).containsExactly("c-2");
            repository.deleteByConversationId("c-2");
            assertThat(repository.findConversationIds()).isEmpty();
        }
    }

    /**
     * Found by a review: a tool call with null arguments or a tool response with null data was a NullPointerException
     * from deep in the mapping; a tool call without a name or a response without an id, which a Parley message
     * cannot hold, was one too. The nulls now come back as nulls, the missing parts are refused by name.
     */
    @Test
    void saveAll_nullArgumentsAndResponseData_comeBackNull_andMissingNamesAndIdsAreRefusedByName() {
        List<Message> nulls = List.of(
                AssistantMessage.builder().toolCalls(List.of(
                        new AssistantMessage.ToolCall("call_1", "function", "get_weather", null),
                        new AssistantMessage.ToolCall("call_2", "function", "get_time", "{}"))).build(),
                ToolResponseMessage.builder().responses(List.of(
                        new ToolResponseMessage.ToolResponse("call_1", "get_weather", null),
                        new ToolResponseMessage.ToolResponse("call_2", "get_time", ""))).build());
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            repository.saveAll("nulls", nulls);
            assertThat(new ParleyChatMemoryRepository(store).findByConversationId("nulls"))
                    .containsExactlyElementsOf(nulls);

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> repository.saveAll("nameless", List.of(
                            AssistantMessage.builder().toolCalls(List.of(
                                    new AssistantMessage.ToolCall("call_1", "function", null, "{}"))).build())))
                    .isInstanceOf(dev.parley.core.InvalidInputException.class).hasMessageContaining("tool call 0 has no name");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> repository.saveAll("idless", List.of(
                            ToolResponseMessage.builder().responses(List.of(
                                    new ToolResponseMessage.ToolResponse(null, "get_time", "x"))).build())))
                    .isInstanceOf(dev.parley.core.InvalidInputException.class).hasMessageContaining("has no id");
            assertThat(repository.findConversationIds()).containsExactly("nulls");
        }
    }

    /** Found by a review: deleting a conversation and saving the list read before it stored nothing at all. */
    @Test
    void saveAll_ofTheListReadBeforeDeleteByConversationId_storesItWhole() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            repository.saveAll("c", EVERY_TYPE);
            List<Message> read = repository.findByConversationId("c");
            repository.deleteByConversationId("c");
            repository.saveAll("c", read);
            assertThat(new ParleyChatMemoryRepository(store).findByConversationId("c"))
                    .containsExactlyElementsOf(EVERY_TYPE);
        }
    }
}
