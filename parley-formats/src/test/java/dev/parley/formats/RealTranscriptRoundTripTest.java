package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import dev.parley.core.store.Stores;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The foundation's acceptance, in-process (Codex rollouts included): every real transcript imports, agrees with {@code MANIFEST.json}, and
 * exports back JSON-equal to its source, line by line; importing again changes nothing.
 */
class RealTranscriptRoundTripTest {
    static final List<String> DIRS = List.of("claude-code", "pi", "pi-v3", "openai-chat", "anthropic-messages", "codex");

    @TempDir
    Path tmp;

    Store open(String store) {
        return switch (store) {
            case "memory" -> MemoryStore.open();
            case "sqlite" -> Stores.open("sqlite:" + tmp.resolve("p.db"));
            case "jsonl" -> Stores.open("jsonl:" + tmp.resolve("pj"));
            default -> throw new IllegalArgumentException(store);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "sqlite", "jsonl"})
    void everyTranscript_roundTripsExactly_andMatchesTheManifest(String store) throws Exception {
        Path data = RealTranscripts.dir();
        JsonNode manifest = Json.mapper().readTree(data.resolve("MANIFEST.json").toFile());
        try (Store log = open(store)) {
            Recorder first = importAll(log, data);
            assertThat(first.fatal()).isEmpty();
            Exporter exporter = new Exporter(log);
            int checked = 0;
            Map<String, Long> entriesByFile = new HashMap<>();
            int openAiSessions = 0;
            long openAiMessages = 0;
            for (ImportResult r : first.sessions) {
                switch (r.format()) {
                    case CLAUDE_CODE, PI, CODEX -> {
                        for (ImportResult.Agent a : r.agents()) {
                            String text = exporter.export(r.session(), r.format(), a.agent());
                            List<JsonNode> got = parseLines(text);
                            List<JsonNode> want = parseLines(Files.readString(a.source()));
                            assertThat(got).as("lines of %s", a.source()).hasSameSizeAs(want);
                            for (int i = 0; i < want.size(); i++) {
                                assertThat(Json.same(got.get(i), want.get(i)))
                                        .as("%s line %d", a.source(), i + 1).isTrue();
                            }
                            entriesByFile.put(data.relativize(a.source()).toString(), a.entries());
                            checked++;
                        }
                    }
                    case OPENAI_CHAT -> {
                        JsonNode doc = Json.mapper().readTree(r.source().toFile());
                        JsonNode want = doc.get(r.index()).get("traj");
                        JsonNode got = Json.parse(exporter.export(r.session(), r.format(), null)).get("messages");
                        assertThat(Json.same(got, want)).as("conversation %d", r.index()).isTrue();
                        openAiSessions++;
                        openAiMessages += r.messages();
                        checked++;
                    }
                    case ANTHROPIC_MESSAGES -> {
                        Path source = r.agents().get(0).source();
                        JsonNode want = Json.mapper().readTree(source.toFile());
                        JsonNode got = Json.parse(exporter.export(r.session(), r.format(), null));
                        assertThat(Json.same(got, want)).as("%s", source).isTrue();
                        assertThat(r.messages()).isEqualTo(
                                manifest.get(data.relativize(source).toString()).get("stats").get("messages").asLong());
                        checked++;
                    }
                    default -> throw new AssertionError("unexpected format " + r.format());
                }
            }
            assertThat(checked).isGreaterThan(200);
            entriesByFile.forEach((file, entries) -> assertThat(entries).as(file)
                    .isEqualTo(manifest.get(file).get("stats").get("entries").asLong()));
            JsonNode tau = manifest.get("openai-chat/tau-bench-historical-gpt-4o-airline.json").get("stats");
            assertThat(openAiSessions).isEqualTo(tau.get("trajectories").asInt());
            assertThat(openAiMessages).isEqualTo(tau.get("messages").asLong());

            Recorder again = importAll(log, data);
            assertThat(again.sessions).hasSameSizeAs(first.sessions)
                    .allSatisfy(r -> assertThat(r.status()).isEqualTo(ImportResult.Status.UNCHANGED));
            assertThat(again.sessions).extracting(ImportResult::session)
                    .containsExactlyElementsOf(first.sessions.stream().map(ImportResult::session).toList());
        }
    }

    static Recorder importAll(Store log, Path data) {
        Recorder recorder = new Recorder();
        List<Path> paths = new ArrayList<>();
        DIRS.forEach(d -> paths.add(data.resolve(d)));
        new Importer(log, IdGenerator.uuidV7()).importPaths(paths, null, recorder);
        return recorder;
    }

    static List<JsonNode> parseLines(String text) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                out.add(Json.parse(line));
            }
        }
        return out;
    }
}
