package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.model.Message;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * For each pi v3 file, the conversation Parley builds is the one pi builds for the file's leaf: the same path, the
 * same messages in order, roles mapped (toolResult → tool) and user texts equal. The expected files are pi's own
 * {@code buildSessionContext()} output.
 */
class PiContextTest {
    static final Map<String, String> ROLES = Map.of("toolResult", "tool");

    @ParameterizedTest
    @ValueSource(strings = {"pi-mono-before-compaction.v3.jsonl", "pi-mono-before-compaction.branched.v3.jsonl",
            "pi-mono-before-compaction.fork.v3.jsonl"})
    void conversation_matchesPisOwnContext(String name) throws Exception {
        Path file = RealTranscripts.dir().resolve("pi-v3").resolve(name);
        JsonNode expected = Json.mapper().readTree(RealTranscripts.expected().resolve("pi-v3")
                .resolve(name + ".context.json").toFile());
        Store log = MemoryStore.open();
        Recorder r = new Recorder();
        new Importer(log, IdGenerator.uuidV7()).importPaths(List.of(file), null, r);
        assertThat(r.fatal()).isEmpty();
        var session = r.sessions.get(0).session();
        LoadedConversation c = ConversationBuilder.build(session, log.log().load(session, null), AgentId.MAIN,
                ConversationOptions.AS_WRITTEN);
        assertThat(c.leaf().value()).isEqualTo(expected.get("leafId").asText());
        List<String> path = Stream.of(expected.get("pathEntryIds")).flatMap(n -> {
            java.util.List<String> ids = new java.util.ArrayList<>();
            n.forEach(x -> ids.add(x.asText()));
            return ids.stream();
        }).toList();
        assertThat(c.path()).extracting(dev.parley.core.EntryId::value).containsExactlyElementsOf(path);
        JsonNode want = expected.get("messages");
        List<Message> got = c.messages();
        if (c.danglingUser() != null) {
            got = new java.util.ArrayList<>(got);
            got.add(c.danglingUser());
        }
        assertThat(got).hasSize(want.size());
        for (int i = 0; i < want.size(); i++) {
            String role = want.get(i).get("role").asText();
            assertThat(got.get(i).role().name()).as("role of message %d", i).isEqualTo(ROLES.getOrDefault(role, role));
            if (role.equals("user")) {
                JsonNode content = want.get(i).get("content");
                String text = content.isTextual() ? content.asText() : textOf(content);
                assertThat(got.get(i).text()).as("text of message %d", i).isEqualTo(text);
            }
        }
        assertThat(c.activeModel().model()).isEqualTo(expected.get("model").get("modelId").asText());
        assertThat(Files.exists(file)).isTrue();
    }

    static String textOf(JsonNode blocks) {
        StringBuilder out = new StringBuilder();
        blocks.forEach(b -> {
            if (b.has("text")) {
                out.append(b.get("text").asText());
            }
        });
        return out.toString();
    }
}
