package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every cross-format export of every transcript — the real ones in {@code ../shared/data/transcripts} and the samples
 * of this module — is acceptable to the target API's message rules ({@link ApiRules}); the log formats (Claude Code,
 * pi, Aider) import back without an error. Both the active conversation and the whole history ({@code --full}).
 */
class CrossFormatExportTest {
    static final Path SAMPLES = Path.of("src/test/resources/transcripts");

    @TempDir
    Path tmp;

    @Test
    void everyCrossFormatExportOfTheRealTranscripts_isAcceptableToTheTargetApi() throws Exception {
        Path data = RealTranscripts.dir();
        List<Path> dirs = new ArrayList<>();
        try (var list = Files.list(data)) {
            list.filter(Files::isDirectory).sorted().forEach(dirs::add);
        }
        Recorder r = new Recorder();
        assertThat(checkAll(dirs, r)).isEmpty();
        // every transcript was checked: each file of the data set gave at least one session (none passed over)
        Set<Path> imported = new HashSet<>();
        for (ImportResult s : r.sessions) {
            if (s.source() != null) {
                imported.add(s.source().toAbsolutePath().normalize());
            }
            s.agents().stream().map(ImportResult.Agent::source).filter(java.util.Objects::nonNull)
                    .forEach(a -> imported.add(a.toAbsolutePath().normalize()));
        }
        List<String> notImported = new ArrayList<>();
        try (var walk = Files.walk(data)) {
            walk.filter(Files::isRegularFile).map(f -> f.toAbsolutePath().normalize())
                    .filter(f -> !f.getFileName().toString().equals("MANIFEST.json")
                            && !f.getFileName().toString().equals("SOURCES.md"))
                    .filter(f -> !imported.contains(f))
                    .forEach(f -> notImported.add(data.toAbsolutePath().normalize().relativize(f).toString()));
        }
        assertThat(notImported).as("files of the data set that gave no session").containsExactlyElementsOf(NOT_SESSIONS);
    }

    /** Files of the data set that are not sessions (SOURCES.md: one pi AssistantMessage object, codec test material). */
    static final List<String> NOT_SESSIONS = List.of("pi-fragments/pi-mono-assistant-message-with-thinking-code.json");

    @Test
    void everyCrossFormatExportOfTheSamples_isAcceptableToTheTargetApi() throws Exception {
        assertThat(checkAll(List.of(SAMPLES), new Recorder())).isEmpty();
    }

    List<String> checkAll(List<Path> paths, Recorder r) throws Exception {
        Store store = MemoryStore.open();
        new Importer(store, IdGenerator.uuidV7()).importPaths(paths, null, r);
        assertThat(r.fatal()).as("import problems").isEmpty();
        assertThat(r.sessions).isNotEmpty();
        Exporter exporter = new Exporter(store);
        List<String> bad = new ArrayList<>();
        int checked = 0;
        for (ImportResult s : r.sessions) {
            for (ImportResult.Agent a : s.agents()) {
                List<String> cut = List.of();
                for (Format target : Format.values()) {
                    if (target == s.format() || target == Format.PARLEY) {
                        continue;
                    }
                    for (boolean full : new boolean[] {false, true}) {
                        if (full && cut.isEmpty()) {
                            break; // without a compaction the whole history is the conversation, checked already
                        }
                        Exporter.Result out = exporter.export(s.session(), target, a.agent(), full);
                        if (!full) {
                            cut = out.notes().stream().filter(n -> n.startsWith("cut ")).toList();
                        }
                        String where = s.session() + "/" + a.agent() + " (" + s.format() + ", " + a.source()
                                + (s.index() == null ? "" : "[" + s.index() + "]") + ") as " + target
                                + (full ? " --full" : "") + ": ";
                        for (String v : violations(target, out.text())) {
                            bad.add(where + v);
                        }
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(0);
        return bad.size() > 40 ? bad.subList(0, 40) : bad;
    }

    List<String> violations(Format target, String text) throws Exception {
        return switch (target) {
            case OPENAI_CHAT -> ApiRules.openAiChat(Json.parse(text));
            case ANTHROPIC_MESSAGES -> ApiRules.anthropic(Json.parse(text));
            case OPENAI_RESPONSES -> ApiRules.responses(list(Json.parse(text).path("input")));
            case GEMINI -> ApiRules.gemini(Json.parse(text));
            case CODEX -> {
                List<JsonNode> items = new ArrayList<>();
                List<String> bad = new ArrayList<>();
                List<JsonNode> lines = RealTranscriptRoundTripTest.parseLines(text);
                if (lines.isEmpty() || !lines.get(0).path("type").asText().equals("session_meta")) {
                    bad.add("a rollout starts with session_meta");
                }
                for (JsonNode l : lines) {
                    if (l.path("type").asText().equals("response_item")) {
                        items.add(l.path("payload"));
                    }
                }
                bad.addAll(ApiRules.responses(items));
                yield bad;
            }
            default -> reimport(target, text);
        };
    }

    /** A log format's export imports back without an error. */
    List<String> reimport(Format target, String text) throws Exception {
        Path file = Files.createTempFile(tmp, "export", target == Format.AIDER ? ".md" : ".jsonl");
        Files.writeString(file, text);
        Recorder r = new Recorder();
        new Importer(MemoryStore.open(), IdGenerator.uuidV7()).importPaths(List.of(file), target, r);
        return r.fatal().stream().map(ImportProblem::describe).toList();
    }

    static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
