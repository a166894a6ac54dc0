package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.process.MultiProcessCas;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs update the same three sessions of one SQLite file for three seconds, and append to three
 * shared log sessions: no acknowledged write is lost, every read sees the writes acknowledged before it. */
class MultiProcessCasTest {
    @TempDir
    Path dir;

    @Test
    void run_twoProcessesOnOneFile_loseNoWrite() throws Exception {
        MultiProcessCas.Report report = MultiProcessCas.run("sqlite:" + dir.resolve("cas.db"), "cas", 2, 3,
                Duration.ofSeconds(3), dir.resolve("work"), true);

        assertThat(report.problems(11, true)).isEmpty();
    }

    @Test
    void run_storeThatIgnoresTheExpectedRevision_isCaught() throws Exception {
        MultiProcessCas.Report report = MultiProcessCas.run("lossy-sqlite:" + dir.resolve("lossy.db"), "cas", 2, 3,
                Duration.ofSeconds(2), dir.resolve("work"));

        assertThat(report.violations()).anySatisfy(v -> assertThat(v).contains("acknowledged updates are lost"));
    }
}
