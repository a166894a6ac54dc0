package dev.parley.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code import} reports problems and a summary; {@code export} says what a conversion left out. Real SQLite stores. */
class TranscriptCommandsTest {
    @TempDir
    Path dir;

    CliRun parley(String... args) {
        return CliRun.run(args);
    }

    static final String SESSION = "0199c0de-0000-7000-8000-00000000c0de";

    Path rollout() throws Exception {
        Path file = dir.resolve("rollout.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"timestamp\":\"2025-10-01T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"" + SESSION + "\",\"cwd\":\"/w\"}}",
                "{\"timestamp\":\"2025-10-01T10:00:01.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"run it\"}]}}",
                "{\"timestamp\":\"2025-10-01T10:00:02.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"reasoning\",\"summary\":[],\"encrypted_content\":\"gAAA\"}}",
                "{\"timestamp\":\"2025-10-01T10:00:02.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{}\",\"call_id\":\"call_1\"}}",
                "{\"timestamp\":\"2025-10-01T10:00:03.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call_output\",\"call_id\":\"call_0\",\"output\":\"stray\"}}",
                "{\"timestamp\":\"2025-10-01T10:00:04.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"turn_aborted\",\"reason\":\"interrupted\"}}") + "\n",
                StandardCharsets.UTF_8);
        return file;
    }

    static List<JsonNode> jsonLines(String text) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : text.split("\n")) {
            if (!l.isBlank()) {
                out.add(Json.parse(l));
            }
        }
        return out;
    }

    @Test
    void importJson_reportsEveryProblemAsJson_andEndsWithASummary() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"messages\": [ oops");
        CliRun r = parley("--store", store, "import", "--json", rollout().toString(), bad.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(jsonLines(r.out())).singleElement().satisfies(s -> {
            assertThat(s.get("session").asText()).isEqualTo(SESSION);
            assertThat(s.get("format").asText()).isEqualTo("codex");
        });
        List<JsonNode> err = jsonLines(r.err());
        assertThat(err).allSatisfy(o -> assertThat(o.has("problem") || o.has("summary")).isTrue());
        assertThat(err).anySatisfy(o -> {
            assertThat(o.path("problem").asText()).isEqualTo("warning");
            assertThat(o.path("callId").asText()).isEqualTo("call_0");
            assertThat(o.path("line").asInt()).isEqualTo(5);
        });
        assertThat(err).anySatisfy(o -> {
            assertThat(o.path("callId").asText()).isEqualTo("call_1");
            assertThat(o.path("message").asText()).contains("dangling");
        });
        assertThat(err).anySatisfy(o -> {
            assertThat(o.path("problem").asText()).isEqualTo("error");
            assertThat(o.path("file").asText()).isEqualTo(bad.toString());
            // Not one line's problem: no "line" (it was 0, beside a message that named the parser's line 1)
            assertThat(o.has("line")).as(o.toString()).isFalse();
        });
        JsonNode summary = err.get(err.size() - 1).get("summary");
        assertThat(summary.get("imported").asInt()).isEqualTo(1);
        assertThat(summary.get("failed").asInt()).isEqualTo(1);
        assertThat(summary.get("messages").asInt()).isEqualTo(4);
        assertThat(summary.has("seconds")).isTrue();
    }

    /**
     * Found by a newcomer's trial: a directory with no transcript in it ("no transcripts found") exited 0, while the
     * same file named alone exited 2; pointing import at the wrong place looked like success to a script.
     */
    @Test
    void import_ofDirectoriesWithNoTranscript_isNotFound_exit3_andNamesWhatWasSkipped() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("settings.json"), "{\"theme\": \"dark\"}\n");

        CliRun none = parley("--store", store, "import", empty.toString());
        CliRun skipped = parley("--store", store, "import", notes.toString());

        assertThat(none.exit()).as(none.err()).isEqualTo(3);
        assertThat(none.err()).contains("no transcripts found in [" + empty + "]");
        assertThat(skipped.exit()).as(skipped.err()).isEqualTo(3);
        assertThat(skipped.err()).contains("no transcripts found").contains("1 file was of no format Parley reads");
        assertThat(parley("--store", store, "import", rollout().toString()).exit()).isZero();
    }

    /**
     * Found by a newcomer's trial: with --json, an import of a directory holding no transcript exited 3 with only the
     * summary on standard error, no problem object saying why (the text mode says "no transcripts found").
     */
    @Test
    void importJson_ofADirectoryWithNoTranscript_reportsTheProblemAsJson() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("settings.json"), "{\"theme\": \"dark\"}\n");

        CliRun r = parley("--store", "sqlite:" + dir.resolve("p.db"), "import", "--json", notes.toString());

        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        List<JsonNode> err = jsonLines(r.err());
        assertThat(err.get(err.size() - 1).has("summary")).isTrue();
        assertThat(err).filteredOn(o -> o.has("paths")).singleElement().satisfies(o -> {
            assertThat(o.get("problem").asText()).isEqualTo("error");
            assertThat(o.get("paths")).singleElement().satisfies(p -> assertThat(p.asText()).isEqualTo(notes.toString()));
            assertThat(o.get("skipped").asInt()).isEqualTo(1);
            assertThat(o.get("message").asText()).startsWith("no transcripts found in [" + notes + "]");
        });
    }

    /**
     * Found by a newcomer's trial: a mistyped path exited 2 (invalid input), where a mistyped path is exit 3 (not
     * found) for every other command; a file that exists but does not parse stays 2.
     */
    @Test
    void import_ofAPathThatDoesNotExist_isNotFound_exit3() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        Path typo = dir.resolve("transcript");

        CliRun missing = parley("--store", store, "import", typo.toString());
        CliRun withAGoodOne = parley("--store", store, "import", rollout().toString(), typo.toString());
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), "{\"foo\":1\n");
        CliRun missingAndBad = parley("--store", store, "import", typo.toString(), bad.toString());

        assertThat(missing.exit()).as(missing.err()).isEqualTo(3);
        assertThat(missing.err()).contains(typo + ": no such file or directory");
        assertThat(withAGoodOne.exit()).as(withAGoodOne.err()).isEqualTo(3);
        assertThat(withAGoodOne.out()).startsWith("imported");
        assertThat(missingAndBad.exit()).as(missingAndBad.err()).isEqualTo(2);
    }

    @Test
    void importText_endsWithASummaryLine_andReimportIsUnchanged() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        Path file = rollout();
        assertThat(parley("--store", store, "import", file.toString()).err())
                .contains("parley: 1 session imported, 0 updated, 0 unchanged, 0 failed; 4 messages;");
        CliRun again = parley("--store", store, "import", file.toString());
        assertThat(again.out()).startsWith("unchanged");
        assertThat(again.err().strip().lines().reduce((a, b) -> b).orElseThrow())
                .matches("parley: 0 sessions imported, 0 updated, 1 unchanged, 0 failed; 4 messages; [0-9.]+ s");
    }

    @Test
    void exportToAnotherFormat_saysWhatItLeftOut_onStandardError() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        parley("--store", store, "import", rollout().toString());
        CliRun chat = parley("--store", store, "export", SESSION, "--format", "openai-chat");
        assertThat(chat.exit()).isZero();
        JsonNode messages = Json.parse(chat.out()).get("messages");
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).get("content").asText()).isEqualTo("run it");
        assertThat(chat.err()).contains("left out reasoning blocks (openai-chat cannot take them back): 1")
                .contains("left out tool calls that no result answers: 1 (call_1)")
                .contains("left out tool results that answer no call before them: 1 (call_0)")
                .contains("left out custom records (no form in openai-chat): 2 (session_meta, event_msg)");
        CliRun same = parley("--store", store, "export", SESSION, "--format", "codex");
        assertThat(same.err()).isEmpty();
        assertThat(jsonLines(same.out())).hasSize(6);
    }
}
