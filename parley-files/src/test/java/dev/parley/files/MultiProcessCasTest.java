package dev.parley.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.process.MultiProcessCas;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs update the same three sessions of one JSON file store directory for three seconds, and append to three
 * shared log sessions: no acknowledged write is lost, every read sees the writes acknowledged before it. */
class MultiProcessCasTest {
    @TempDir
    Path dir;

    @Test
    void twoProcessesNeverLoseAnUpdate() throws Exception {
        MultiProcessCas.Report report = MultiProcessCas.run("jsonl:" + dir.resolve("store"), "cas", 2, 3, Duration.ofSeconds(3),
                dir.resolve("work"), true);

        assertThat(report.problems(11, true)).isEmpty();
    }
}
