package dev.parley.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14, break 5, with real processes: six {@code parley import} processes of the same two files (a Codex rollout,
 * identified by its session id, and an OpenAI chat file, identified by its file) started at the same moment must leave
 * one session per source, every entry once, and all exit 0.
 */
class ConcurrentImportProcessesTest {
    static final int PROCESSES = 6;
    static final int ROUNDS = 2;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "jsonl"})
    void sixProcessesImportingTheSameFiles_makeOneSessionPerSource(String backend) throws Exception {
        Path rollout = dir.resolve("rollout.jsonl");
        Files.writeString(rollout, String.join("\n",
                "{\"timestamp\":\"2025-10-01T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":"
                        + "\"0199c0de-0000-7000-8000-0000000000b5\",\"cwd\":\"/w\"}}",
                "{\"timestamp\":\"2025-10-01T10:00:01.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\","
                        + "\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"run it\"}]}}",
                "{\"timestamp\":\"2025-10-01T10:00:02.000Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\","
                        + "\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"done\"}]}}") + "\n",
                StandardCharsets.UTF_8);
        Path chat = dir.resolve("chat.json");
        Files.writeString(chat, "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
                + "{\"role\":\"assistant\",\"content\":\"hello\"}]}\n", StandardCharsets.UTF_8);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int round = 0; round < ROUNDS; round++) {
            String uri = backend.equals("sqlite") ? "sqlite:" + dir.resolve("r" + round + ".db")
                    : "jsonl:" + dir.resolve("r" + round);
            long startAt = System.currentTimeMillis() + 4000;
            List<Process> children = new ArrayList<>();
            for (int p = 0; p < PROCESSES; p++) {
                children.add(new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                        System.getProperty("java.class.path"), ImportWorker.class.getName(), Long.toString(startAt),
                        "--store", uri, "import", rollout.toString(), chat.toString())
                        .redirectError(dir.resolve("r" + round + "-p" + p + ".err").toFile())
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
            for (int p = 0; p < PROCESSES; p++) {
                assertThat(children.get(p).waitFor(120, TimeUnit.SECONDS)).as("process %d finished", p).isTrue();
                assertThat(children.get(p).exitValue()).as("process %d: %s", p,
                        Files.readString(dir.resolve("r" + round + "-p" + p + ".err"))).isZero();
            }
            try (Store store = Stores.open(uri)) {
                List<SessionInfo> sessions = store.catalog().orElseThrow().list(null, 100).sessions();
                assertThat(sessions).as("sessions after round %d on %s", round, backend).hasSize(2);
                Set<String> origins = new HashSet<>();
                for (SessionInfo s : sessions) {
                    assertThat(origins.add(s.origin())).as("one session for origin %s", s.origin()).isTrue();
                    List<Entry> entries = store.log().load(s.id(), null);
                    assertThat(entries.stream().map(Entry::id).distinct().count()).as("entries of %s stored once",
                            s.id()).isEqualTo(entries.size()).isGreaterThanOrEqualTo(2);
                }
            }
        }
    }
}
