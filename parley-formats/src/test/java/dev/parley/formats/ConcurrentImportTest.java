package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.IdGenerator;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14, break 5: processes importing the same sources at once made a second session for a source now and then
 * (the session of one appeared between another's lookup and its create, which then took a derived id). Here six
 * importers, each on its own store instance, import the same three files (two sources identified by their session id,
 * and an Aider history of two conversations identified by file and position) at the same moment, round after round;
 * each source session must end in exactly one Parley session, as a lone import makes them, every entry once.
 * {@code ConcurrentImportProcessesTest} in parley-cli does the same with real processes.
 */
class ConcurrentImportTest {
    static final List<Path> SOURCES = List.of(
            SourceSessionIdentityTest.ROLLOUT,
            CrossFormatExportTest.SAMPLES.resolve("session-2025-10-02T09-00-5d1e6c2a.json"),
            CrossFormatExportTest.SAMPLES.resolve(".aider.chat.history.md"));
    static final int IMPORTERS = 6;
    static final int ROUNDS = 15;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "jsonl"})
    void concurrentImportsOfTheSameSources_makeOneSessionPerSource(String backend) throws Exception {
        int expected;
        try (Store alone = Stores.open("sqlite:" + dir.resolve("alone.db"))) {
            new Importer(alone, IdGenerator.uuidV7()).importPaths(SOURCES, null, new Recorder());
            expected = alone.catalog().orElseThrow().list(null, 100).sessions().size(); // the Aider history holds two
        }
        ExecutorService pool = Executors.newFixedThreadPool(IMPORTERS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String uri = backend.equals("sqlite") ? "sqlite:" + dir.resolve("r" + round + ".db")
                        : "jsonl:" + dir.resolve("r" + round);
                CyclicBarrier start = new CyclicBarrier(IMPORTERS);
                List<Future<Recorder>> runs = new ArrayList<>();
                for (int i = 0; i < IMPORTERS; i++) {
                    runs.add(pool.submit(() -> {
                        try (Store store = Stores.open(uri)) {
                            Importer importer = new Importer(store, IdGenerator.uuidV7());
                            Recorder r = new Recorder();
                            start.await(60, TimeUnit.SECONDS); // an importer that failed to open breaks the barrier
                            importer.importPaths(SOURCES, null, r);
                            return r;
                        }
                    }));
                }
                List<Throwable> failures = new ArrayList<>();
                for (Future<Recorder> run : runs) {
                    try {
                        assertThat(run.get().fatal()).as("round %d", round).isEmpty();
                    } catch (ExecutionException e) {
                        failures.add(e.getCause());
                    }
                }
                // The importers that waited at the barrier for one that failed fail with a broken barrier: report it.
                failures.sort(java.util.Comparator.comparing(f -> f instanceof BrokenBarrierException
                        || f instanceof TimeoutException));
                if (!failures.isEmpty()) {
                    throw new AssertionError("round " + round + " on " + backend + ": " + failures.size()
                            + " importers failed", failures.get(0));
                }
                try (Store store = Stores.open(uri)) {
                    List<SessionInfo> sessions = store.catalog().orElseThrow().list(null, 100).sessions();
                    assertThat(sessions).as("sessions after round %d on %s", round, backend).hasSize(expected);
                    Set<String> origins = new HashSet<>();
                    for (SessionInfo s : sessions) {
                        assertThat(origins.add(s.origin())).as("one session for origin %s", s.origin()).isTrue();
                        List<Entry> entries = store.log().load(s.id(), null);
                        assertThat(entries.stream().map(Entry::id).distinct().count())
                                .as("entries of %s stored once", s.id()).isEqualTo(entries.size());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
