package dev.parley.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.image.Image;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.CustomMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.PdfFileContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.parley.agent.memory.MemoryLog;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LangChain4j chat memory store on a real SQLite file, reloaded through a new store each time. */
class ParleyChatMemoryStoreTest {
    @TempDir
    Path dir;

    String uri() {
        return "sqlite:" + dir.resolve("chat.db");
    }

    static final List<ChatMessage> EVERY_TYPE = List.of(
            SystemMessage.from("You are terse."),
            UserMessage.from("plain text"),
            UserMessage.builder().name("alice").attributes(Map.of("tenant", "t-1", "n", 3))
                    .contents(List.of(TextContent.from("look at these"), TextContent.from(" second part"),
                            ImageContent.from("https://example.com/cat.png"),
                            ImageContent.from("iVBORw0KGgo=", "image/png", ImageContent.DetailLevel.HIGH),
                            PdfFileContent.from("JVBERi0=", "application/pdf"),
                            AudioContent.from("UklGRg==", "audio/wav")))
                    .build(),
            AiMessage.builder().text("Let me check.").thinking("The user wants the weather; 🌦 call the tool.")
                    .toolExecutionRequests(List.of(
                            ToolExecutionRequest.builder().id("call_1").name("get_weather")
                                    .arguments("{\"city\":\"Lisbon\"}").build(),
                            ToolExecutionRequest.builder().id("call_2").name("get_time")
                                    .arguments("{ \"zone\" : \"WET\" }").build(),
                            ToolExecutionRequest.builder().id("call_3").name("no_args").arguments(null).build()))
                    .attributes(Map.of("provider_id", "resp_9"))
                    .build(),
            ToolExecutionResultMessage.from("call_1", "get_weather", "21°C, sunny"),
            ToolExecutionResultMessage.builder().id("call_2").toolName("get_time").text("boom").isError(true).build(),
            ToolExecutionResultMessage.builder().id("call_3").toolName("no_args").text("").isError(false).build(),
            AiMessage.from(""),
            AiMessage.from("It is 21°C.\u0000 Nothing else."),
            CustomMessage.from(Map.of("kind", "ui-note", "pinned", true, "tags", List.of("a", "b"))));

    @Test
    void updateMessages_everyMessageType_readsBackEqualInANewStore() {
        try (Store store = Stores.open(uri())) {
            new ParleyChatMemoryStore(store).updateMessages("every-type", EVERY_TYPE);
        }
        try (Store store = Stores.open(uri())) {
            List<ChatMessage> back = new ParleyChatMemoryStore(store).getMessages("every-type");
            assertThat(back).containsExactlyElementsOf(EVERY_TYPE);
            ImageContent high = (ImageContent) ((UserMessage) back.get(2)).contents().get(3);
            assertThat(high.detailLevel()).isEqualTo(ImageContent.DetailLevel.HIGH);
            assertThat(((ToolExecutionResultMessage) back.get(6)).isError()).isFalse();
            assertThat(((ToolExecutionResultMessage) back.get(4)).isError()).isNull();
        }
    }

    /** A content type was lower-cased in the default locale: under a Turkish one, audio was stored as "audıo". */
    @Test
    void updateMessages_underATurkishDefaultLocale_storesContentTypesInAscii() {
        underDefaultLocale("tr-TR", store -> {
            ParleyChatMemoryStore memoryStore = new ParleyChatMemoryStore(store);
            List<ChatMessage> messages = List.of(UserMessage.from(AudioContent.from("UklGRg==", "audio/wav")));
            memoryStore.updateMessages("audio", messages);
            List<String> types = store.log().loadMessages(memoryStore.sessionId("audio"), MemoryLog.AGENT).stream()
                    .flatMap(e -> e.message().content().stream())
                    .filter(b -> b instanceof ContentBlock.ProviderItem)
                    .map(b -> ((ContentBlock.ProviderItem) b).type()).toList();
            assertThat(types).containsExactly("langchain4j:audio");
            assertThat(memoryStore.getMessages("audio")).containsExactlyElementsOf(messages);
        });
    }

    /**
     * A memory's entry ids were formatted in the default locale: under an Arabic one their digits were Arabic-Indic
     * ("m-٠٠٠٠٠٠٠٠٠١"), which an entry id refuses, so no message could be stored.
     */
    @Test
    void updateMessages_underAnArabicDefaultLocale_storesAndReadsBack() {
        underDefaultLocale("ar-EG", store -> {
            ParleyChatMemoryStore memoryStore = new ParleyChatMemoryStore(store);
            memoryStore.updateMessages("arabic", EVERY_TYPE);
            assertThat(memoryStore.getMessages("arabic")).containsExactlyElementsOf(EVERY_TYPE);
            assertThat(store.log().load(memoryStore.sessionId("arabic"), null))
                    .allSatisfy(e -> assertThat(e.id().value()).matches("[A-Za-z0-9._-]+"));
        });
    }

    /** Runs {@code body} on this test's store with the JVM's default locale set to {@code tag}, then restores it. */
    void underDefaultLocale(String tag, java.util.function.Consumer<Store> body) {
        Locale saved = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag(tag));
        try (Store store = Stores.open(uri())) {
            body.accept(store);
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void updateMessages_windowOfThree_keepsTheHistoryInTheLogAndTheViewMoves() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryStore memoryStore = new ParleyChatMemoryStore(store);
            MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("user 7").maxMessages(3)
                    .chatMemoryStore(memoryStore).build();
            memory.add(SystemMessage.from("sys"));
            for (int i = 0; i < 6; i++) {
                memory.add(UserMessage.from("q" + i));
                memory.add(AiMessage.from("a" + i));
            }
            assertThat(memory.messages()).containsExactly(SystemMessage.from("sys"), UserMessage.from("q5"),
                    AiMessage.from("a5"));
            List<Entry> log = store.log().loadMessages(memoryStore.sessionId("user 7"), MemoryLog.AGENT);
            assertThat(log).hasSize(13); // every message ever added, once
            assertThat(memoryStore.sessionId("user 7").value()).startsWith("mem-");
        }
        try (Store store = Stores.open(uri())) {
            assertThat(new ParleyChatMemoryStore(store).getMessages("user 7")).containsExactly(
                    SystemMessage.from("sys"), UserMessage.from("q5"), AiMessage.from("a5"));
        }
    }

    /**
     * Found by a breaker: in a repetitive chat ("continue", "Sure."), a new message equal to the one the window was
     * evicting was taken for it and never written: 6 of 10 messages reached the log, and parley show lost the rest.
     */
    @Test
    void window_evictingAMessageEqualToTheNewOne_keepsEveryMessageInTheLog() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryStore memoryStore = new ParleyChatMemoryStore(store);
            MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id("chat").maxMessages(4)
                    .chatMemoryStore(memoryStore).build();
            memory.add(UserMessage.from("Tell me a story"));
            memory.add(AiMessage.from("Once upon a time..."));
            for (int i = 0; i < 4; i++) {
                memory.add(UserMessage.from("continue"));
                memory.add(AiMessage.from("Sure."));
            }
            assertThat(store.log().loadMessages(memoryStore.sessionId("chat"), MemoryLog.AGENT)).hasSize(10);
            assertThat(memory.messages()).containsExactly(UserMessage.from("continue"), AiMessage.from("Sure."),
                    UserMessage.from("continue"), AiMessage.from("Sure."));
        }
    }

    /**
     * Found by a breaker: an attribute that is a Double (a score) came back a BigDecimal after a reopen, so
     * {@code attribute("score", Double.class)} threw ClassCastException and the message no longer equalled itself.
     */
    @Test
    void updateMessages_doubleAttribute_comesBackADouble() {
        AiMessage scored = AiMessage.builder().text("4").attributes(Map.of("score", 0.87, "tokens", 12,
                "nested", Map.of("p", 0.5))).build();
        try (Store store = Stores.open(uri())) {
            new ParleyChatMemoryStore(store).updateMessages("scored", List.of(scored));
        }
        try (Store store = Stores.open(uri())) {
            AiMessage back = (AiMessage) new ParleyChatMemoryStore(store).getMessages("scored").get(0);
            assertThat(back.attribute("score", Double.class)).isEqualTo(0.87);
            assertThat(back).isEqualTo(scored);
        }
    }

    @Test
    void deleteMessages_clear_removesTheMemory() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryStore memoryStore = new ParleyChatMemoryStore(store);
            MessageWindowChatMemory memory = MessageWindowChatMemory.builder().id(42).maxMessages(10)
                    .chatMemoryStore(memoryStore).build();
            memory.add(UserMessage.from("hi"));
            memory.clear();
            assertThat(memory.messages()).isEmpty();
            assertThat(store.catalog().orElseThrow().find(memoryStore.sessionId(42))).isEmpty();
        }
    }

    /** Found by a review: deleteMessages and then updateMessages with the list read before it stored nothing. */
    @Test
    void updateMessages_ofTheListReadBeforeDeleteMessages_storesItWhole() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryStore memory = new ParleyChatMemoryStore(store);
            memory.updateMessages("m", EVERY_TYPE);
            List<ChatMessage> read = memory.getMessages("m");
            memory.deleteMessages("m");
            memory.updateMessages("m", read);
            assertThat(new ParleyChatMemoryStore(store).getMessages("m")).containsExactlyElementsOf(EVERY_TYPE);
        }
    }

    /** Found by a review: a tool execution request without a name was a NullPointerException from the mapping. */
    @Test
    void updateMessages_toolExecutionRequestWithoutAName_isRefusedByName_andNothingIsStored() {
        try (Store store = Stores.open(uri())) {
            ParleyChatMemoryStore memory = new ParleyChatMemoryStore(store);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> memory.updateMessages("m", List.of(
                            UserMessage.from("hi"), AiMessage.from(List.of(
                                    ToolExecutionRequest.builder().id("call_1").arguments("{}").build())))))
                    .isInstanceOf(dev.parley.core.InvalidInputException.class).hasMessageContaining("has no name");
            assertThat(memory.getMessages("m")).isEmpty();
        }
    }
}
