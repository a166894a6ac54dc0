package dev.parley.json.repository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.RawJson;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.json.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A record reads back as it was written: absent keys stay absent, empty lists and objects stay empty. */
class ChatSessionCodecTest {
    static final Instant T = Instant.parse("2026-01-01T00:00:00.000Z");
    static final String HEAD = "{\"id\":\"s\",\"name\":\"n\",\"pinned\":false,";
    static final String LISTS = "\"messages\":[],\"turns\":[],\"createdAt\":\"2026-01-01T00:00:00.000Z\","
            + "\"updatedAt\":\"2026-01-01T00:00:00.000Z\"";
    static final String ARCHIVE = "{\"id\":\"a-1\",\"path\":\"p\",\"summaryPath\":\"sp\",\"messageCount\":1,"
            + "\"createdAt\":\"2026-01-01T00:00:00.000Z\"}";

    /** A record document with the given history and the given keys after the timestamps. */
    static String record(String history, String tail) {
        return HEAD + "\"history\":" + history + "," + LISTS + tail + ",\"queuedPrompts\":[]}";
    }

    static ChatSession strict(String json) throws Exception {
        return ChatSessionCodec.parseStrict(Json.parse(json), "test");
    }

    static ChatSession tolerant(String json) throws Exception {
        return ChatSessionCodec.parseTolerant(Json.parse(json), "test");
    }

    /** Parses strictly, encodes, and returns the compact text. */
    static String roundTrip(String json) throws Exception {
        return Json.write(ChatSessionCodec.encode(strict(json)));
    }

    @Test
    void parseStrict_emptyArchives_keepsAnEmptyListAndWritesItBack() throws Exception {
        String json = record("[]", ",\"archives\":[]");
        ChatSession s = strict(json);
        assertThat(s.archives()).isEmpty();
        assertThat(roundTrip(json)).isEqualTo(json);
    }

    @Test
    void parseStrict_absentArchives_readsAsNullAndWritesNoKey() throws Exception {
        String json = record("[]", "");
        ChatSession s = strict(json);
        assertThat(s.archives()).isNull();
        assertThat(s.archivesOrEmpty()).isEmpty();
        assertThat(roundTrip(json)).isEqualTo(json).doesNotContain("archives");
    }

    @Test
    void parseStrict_absentAndEmptyArchives_areDifferentRecords() throws Exception {
        assertThat(strict(record("[]", ""))).isNotEqualTo(strict(record("[]", ",\"archives\":[]")));
    }

    @Test
    void parseStrict_listedArchives_areKeptInOrder() throws Exception {
        String json = record("[]", ",\"archives\":[" + ARCHIVE + "," + ARCHIVE.replace("a-1", "a-0") + "]");
        assertThat(strict(json).archives()).extracting(ArchiveRecord::id).containsExactly("a-1", "a-0");
        assertThat(roundTrip(json)).isEqualTo(json);
    }

    @Test
    void parseStrict_emptyToolCalls_keepsAnEmptyListAndWritesItBack() throws Exception {
        String json = record("[{\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":[]}]", "");
        ChatMessage m = strict(json).history().get(0);
        assertThat(m.toolCalls()).isEmpty();
        assertThat(roundTrip(json)).isEqualTo(json);
    }

    @Test
    void parseStrict_absentToolCalls_readsAsNullAndWritesNoKey() throws Exception {
        String json = record("[{\"role\":\"assistant\",\"content\":\"hi\"}]", "");
        ChatMessage m = strict(json).history().get(0);
        assertThat(m.toolCalls()).isNull();
        assertThat(m.toolCallsOrEmpty()).isEmpty();
        assertThat(roundTrip(json)).isEqualTo(json).doesNotContain("toolCalls");
    }

    @Test
    void parseStrict_nullOnAnOptionalKey_readsAsAbsent() throws Exception {
        // Heddle's schema has no null on optional keys; Parley reads one as the key being absent, as it always has.
        String json = record("[{\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":null}]",
                ",\"context\":null,\"archives\":null,\"lease\":null");
        assertThat(roundTrip(json)).isEqualTo(record("[{\"role\":\"assistant\",\"content\":\"\"}]", ""));
    }

    @Test
    void encode_builderDefaults_writeNeitherArchivesNorToolCalls() {
        ChatSession s = ChatSession.builder("s", T).history(List.of(ChatMessage.of("user", "hi"))).build();
        String json = Json.write(ChatSessionCodec.encode(s));
        assertThat(json).doesNotContain("archives").doesNotContain("toolCalls");
    }

    @Test
    void encode_emptyListsGivenInJava_areWritten() {
        ChatSession s = ChatSession.builder("s", T).archives(List.of())
                .history(List.of(new ChatMessage("assistant", "", List.of(), null, null))).build();
        JsonNode o = ChatSessionCodec.encode(s);
        assertThat(o.get("archives").isArray()).isTrue();
        assertThat(o.get("archives")).isEmpty();
        assertThat(o.get("history").get(0).get("toolCalls")).isEmpty();
    }

    @Test
    void roundTrip_everyOptionalListAndObjectEmpty_isTheSameDocument() throws Exception {
        String json = HEAD.replace("\"pinned\"", "\"retention\":\"one_off\",\"workspaceId\":\"\",\"pinned\"")
                + "\"history\":[{\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":[],\"providerContinuation\":{}},"
                + "{\"role\":\"assistant\",\"content\":\"x\",\"toolCalls\":[{\"id\":\"c\",\"tool\":\"t\",\"input\":{}}]}],"
                + "\"messages\":[{\"id\":\"l\",\"role\":\"user\",\"text\":\"\",\"isStreaming\":false,\"directShellResult\":{}}],"
                + "\"turns\":[{\"id\":\"t\",\"prompt\":\"\",\"outcome\":\"\",\"summary\":\"\",\"steps\":0,\"traceFile\":\"\","
                + "\"events\":[],\"presentation\":{},\"agent\":[],\"agentSnapshot\":{}}],"
                + "\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"updatedAt\":\"2026-01-01T00:00:00.000Z\",\"model\":\"\","
                + "\"driftEnabled\":false,\"lastContinuePrompt\":\"\",\"context\":{},\"archives\":[],\"leaseEpoch\":0,"
                + "\"queuedPrompts\":[{\"id\":\"q\",\"prompt\":\"p\",\"agentSnapshot\":{},"
                + "\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"updatedAt\":\"2026-01-01T00:00:00.000Z\"}]}";
        assertThat(roundTrip(json)).isEqualTo(json);
    }

    @Test
    void roundTrip_opaqueValues_keepKeyOrderAndNumbers() throws Exception {
        String context = "{\"z\":{\"b\":[],\"a\":{}},\"a\":1.50,\"m\":2.0,\"big\":123456789012345678901234567890,"
                + "\"neg\":-0.001,\"text\":\"1.50\"}";
        String json = record("[{\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":[{\"id\":\"c\",\"tool\":\"t\","
                + "\"input\":{\"y\":1,\"x\":[1.0,10]}}],\"providerContinuation\":{\"reasoningContent\":\"r\",\"provider\":\"kimi\"}}]",
                ",\"context\":" + context);
        assertThat(roundTrip(json)).isEqualTo(json);
        assertThat(strict(json).context()).isEqualTo(RawJson.of(context));
    }

    @Test
    void roundTrip_exponent_keepsTheValueButNotTheCase() throws Exception {
        String json = record("[]", ",\"context\":{\"n\":1e-7}");
        String back = roundTrip(json);
        assertThat(back).isEqualTo(record("[]", ",\"context\":{\"n\":1E-7}"));
        assertThat(Json.same(Json.parse(back), Json.parse(json))).isTrue();
    }

    @Test
    void roundTrip_recordKeysOutOfOrder_comeBackInCanonicalOrderWithTheSameTree() throws Exception {
        String json = "{\"queuedPrompts\":[],\"archives\":[],\"updatedAt\":\"2026-01-01T00:00:00.000Z\","
                + "\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"turns\":[],\"messages\":[],\"history\":[],"
                + "\"pinned\":false,\"name\":\"n\",\"id\":\"s\"}";
        String back = roundTrip(json);
        assertThat(back).isEqualTo(record("[]", ",\"archives\":[]"));
        assertThat(Json.same(Json.parse(back), Json.parse(json))).isTrue();
    }

    @Test
    void parseStrict_archivesNotAList_failsNamingWhere() {
        assertThatThrownBy(() -> strict(record("[]", ",\"archives\":{}"))).isInstanceOf(StorageCorruptionException.class)
                .hasMessageContaining("test").hasMessageContaining("archives");
    }

    @Test
    void parseStrict_toolCallsNotAList_failsNamingWhere() {
        assertThatThrownBy(() -> strict(record("[{\"role\":\"assistant\",\"content\":\"\",\"toolCalls\":{}}]", "")))
                .isInstanceOf(StorageCorruptionException.class).hasMessageContaining("history[0]")
                .hasMessageContaining("toolCalls");
    }

    @Test
    void parseStrict_missingRequiredList_stillFails() {
        String json = record("[]", "").replace("\"turns\":[],", "");
        assertThatThrownBy(() -> strict(json)).isInstanceOf(StorageCorruptionException.class)
                .hasMessageContaining("turns");
    }

    @Test
    void parseTolerant_emptyArchives_keepsAnEmptyList() throws Exception {
        assertThat(tolerant(record("[]", ",\"archives\":[]")).archives()).isEmpty();
        assertThat(tolerant(record("[]", "")).archives()).isNull();
    }

    @Test
    void parseTolerant_archivesNotAList_readsAsAbsent() throws Exception {
        assertThat(tolerant(record("[]", ",\"archives\":\"oops\"")).archives()).isNull();
    }

    @Test
    void parseTolerant_badArchiveElement_isDroppedAndTheListKept() throws Exception {
        ChatSession s = tolerant(record("[]", ",\"archives\":[{\"id\":\"bad\"}," + ARCHIVE + "]"));
        assertThat(s.archives()).extracting(ArchiveRecord::id).containsExactly("a-1");
        assertThat(tolerant(record("[]", ",\"archives\":[{\"id\":\"bad\"}]")).archives()).isEmpty();
    }

    @Test
    void parseTolerant_missingLists_defaultToEmpty() throws Exception {
        ChatSession s = tolerant("{\"id\":\"s\",\"createdAt\":\"2026-01-01T00:00:00.000Z\","
                + "\"updatedAt\":\"2026-01-01T00:00:00.000Z\"}");
        assertThat(s.history()).isEmpty();
        assertThat(s.queuedPrompts()).isEmpty();
        assertThat(s.archives()).isNull();
    }

    @Test
    void catalogEntry_keepsAbsentAndEmptyArchivesApart() throws Exception {
        for (String tail : List.of("", ",\"archives\":[]", ",\"archives\":[" + ARCHIVE + "]")) {
            ChatSession s = strict(record("[]", tail));
            CatalogEntry entry = CatalogEntry.of(s, 3);
            assertThat(entry.archives()).isEqualTo(s.archives());
            JsonNode encoded = ChatSessionCodec.encodeCatalogEntry(entry);
            assertThat(encoded.has("archives")).as(tail).isEqualTo(!tail.isEmpty());
            assertThat(ChatSessionCodec.parseCatalogEntry(encoded, "catalog")).isEqualTo(entry);
        }
    }

    @Test
    void encodeArchivedMessages_keepAbsentAndEmptyToolCallsApart() {
        String lines = ChatSessionCodec.archivedMessagesJsonl(List.of(ChatMessage.of("assistant", "a"),
                new ChatMessage("assistant", "b", List.of(), null, null)));
        assertThat(lines).isEqualTo("{\"index\":0,\"role\":\"assistant\",\"content\":\"a\"}\n"
                + "{\"index\":1,\"role\":\"assistant\",\"content\":\"b\",\"toolCalls\":[]}\n");
    }
}
