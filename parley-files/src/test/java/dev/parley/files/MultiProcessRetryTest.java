package dev.parley.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three JVMs append the same chain of batches to one session of one scope at once, each retrying what the others may
 * have written: the writer lock makes each batch, with its usage, land exactly once.
 */
class MultiProcessRetryTest {
    static final int ROUNDS = 60;
    static final int PROCESSES = 3;

    @TempDir
    Path dir;

    @Test
    void append_sameBatchesFromThreeProcessesAreEachWrittenOnce() throws Exception {
        String uri = "jsonl:" + dir.resolve("store") + "?parley.scope=retry";
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long startAt = System.currentTimeMillis() + 3000;
        List<Process> children = new ArrayList<>();
        List<Path> results = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            Path result = dir.resolve("worker-" + p + ".txt");
            results.add(result);
            children.add(new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                    System.getProperty("java.class.path"), RetryWorker.class.getName(), uri, Long.toString(startAt),
                    Integer.toString(ROUNDS), result.toString())
                    .redirectError(dir.resolve("worker-" + p + ".err").toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        }
        for (int p = 0; p < PROCESSES; p++) {
            assertThat(children.get(p).waitFor(60, TimeUnit.SECONDS)).as("worker %d finished", p).isTrue();
            assertThat(children.get(p).exitValue()).as("worker %d: %s", p,
                    Files.readString(dir.resolve("worker-" + p + ".err"))).isZero();
        }

        Map<Integer, Integer> writtenPerRound = new HashMap<>();
        for (Path result : results) {
            for (String line : Files.readAllLines(result)) {
                String[] f = line.split(" ");
                writtenPerRound.merge(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer::sum);
            }
        }
        assertThat(writtenPerRound).hasSize(ROUNDS).allSatisfy((round, written) ->
                assertThat(written).as("entries written for round %d across processes", round).isEqualTo(2));
        try (Store store = Stores.open(uri)) {
            assertThat(store.log().load(RetryWorker.SESSION, null)).hasSize(2 * ROUNDS);
            assertThat(store.log().loadUsage(RetryWorker.SESSION, AgentId.MAIN)).isEqualTo(Usage.of(10L * ROUNDS, ROUNDS));
        }
    }
}
