package dev.parley.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.process.MultiProcessCas;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three JVMs against one database — three replicas of a hosted product — update the same three session records and
 * append to three shared log sessions for four seconds. No acknowledged write is lost, every loser got a conflict,
 * and every read in any JVM sees every write acknowledged anywhere before it started.
 */
class MultiProcessTest {
    @TempDir
    Path dir;

    static void check(MultiProcessCas.Report report) {
        assertThat(report.problems(11, true)).isEmpty();
    }

    @Test
    void run_threeReplicasOnTheEmbeddedServer_loseNoWrite() throws Exception {
        check(MultiProcessCas.run("postgres:" + TestDatabases.newEmbeddedDatabase(), "replicas", 3, 3,
                Duration.ofSeconds(4), dir, true));
    }

    @Test
    @EnabledIfEnvironmentVariable(named = TestDatabases.EXTERNAL, matches = ".+")
    void run_threeReplicasOnTheGivenServer_loseNoWrite() throws Exception {
        check(MultiProcessCas.run("postgres:" + TestDatabases.external(), "replicas-" + System.nanoTime(), 3, 3,
                Duration.ofSeconds(4), dir, true));
    }
}
