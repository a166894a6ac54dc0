package dev.parley.tck.process;

import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Compare-and-swap across operating-system processes: several JVMs ({@link CasWorker}) update the same session records
 * of one store for a while — and, when asked, append to the same message-log sessions — then the store is checked
 * against what each process was told. It is the multi-process form of CS-2 and ML-12. A backend passes when
 * <ul>
 *   <li>every acknowledged update's line is in the final record, no line is there that was not acknowledged, every
 *       record's final revision is one more than its acknowledged updates, and no two acknowledgements of a record
 *       carry the same revision;</li>
 *   <li>every loser was told, with a conflict whose actual revision is newer than the expected one;</li>
 *   <li>every acknowledged append is in the final log with the sequence number it was given, once;</li>
 *   <li>every read sees every write acknowledged — in any process — before the read started (a record read returns at
 *       least the acknowledged revision; a log load holds at least the acknowledged entries). Times come from the
 *       one machine's wall clock, in microseconds.</li>
 * </ul>
 *
 * <p>The workers run with this JVM's class path, so the backend of {@code storeUri} must be on it.
 */
public final class MultiProcessCas {
    /** How long the workers may take to start and open the store before the run gives up. */
    static final long START_TIMEOUT_MILLIS = 120_000;

    private MultiProcessCas() {}

    /**
     * What the run showed.
     *
     * @param acknowledged updates acknowledged across all processes
     * @param conflicts updates rejected with a revision conflict
     * @param appends appends acknowledged across all processes (0 when the log was not exercised)
     * @param violations every broken rule, each naming the session and what was wrong; empty when the backend passed
     */
    public record Report(int acknowledged, int conflicts, int appends, List<String> violations) {
        /**
         * Copies {@code violations} into an unmodifiable list; the counts are not checked.
         *
         * @param acknowledged updates acknowledged across all processes
         * @param conflicts updates rejected with a revision conflict
         * @param appends appends acknowledged across all processes (0 when the log was not exercised)
         * @param violations every broken rule, each naming the session and what was wrong; empty when the backend
         *     passed
         * @throws NullPointerException if {@code violations} is null or holds a null
         */
        public Report {
            violations = List.copyOf(violations);
        }

        /**
         * What makes this run fail as a check: every violation, and too little work for the run to prove anything
         * (fewer than {@code minimum} acknowledged updates or appends, or no contention at all). Empty for a run
         * that passed.
         *
         * @param minimum the fewest acknowledged updates (and appends, when the run appended) that make the run
         *     meaningful
         * @param appended whether the workers appended to the log
         * @return the violations, then each shortfall in words; empty when the run passed
         */
        public List<String> problems(int minimum, boolean appended) {
            List<String> out = new ArrayList<>(violations);
            if (acknowledged < minimum) {
                out.add("only " + acknowledged + " updates were acknowledged (at least " + minimum + " expected)");
            }
            if (conflicts == 0) {
                out.add("the processes never contended: no update got a conflict");
            }
            if (appended && appends < minimum) {
                out.add("only " + appends + " appends were acknowledged (at least " + minimum + " expected)");
            }
            return out;
        }
    }

    /**
     * {@link #run(String, String, int, int, Duration, Path, boolean)} without log appends.
     *
     * @param storeUri the store under test
     * @param scope the scope to work in; it must hold no session record {@code cas-0}, {@code cas-1}…
     * @param processes how many worker JVMs to run
     * @param sessions how many session records the workers contend for
     * @param duration how long the workers run, from the moment every one has opened the store
     * @param workDir a directory for the workers' result and error files
     * @return what the run showed; judge it with {@link Report#problems}
     * @throws IllegalArgumentException if the store keeps no session records
     * @throws IllegalStateException if a worker fails or does not finish in time (its error output is included)
     * @throws IOException if a file in the work directory cannot be written or read, or a worker cannot be started
     * @throws InterruptedException if this thread is interrupted while it waits for the workers
     */
    public static Report run(String storeUri, String scope, int processes, int sessions, Duration duration,
                             Path workDir) throws IOException, InterruptedException {
        return run(storeUri, scope, processes, sessions, duration, workDir, false);
    }

    /**
     * Creates {@code sessions} session records in {@code scope} of the store, runs {@code processes} worker JVMs
     * against them for {@code duration}, and checks the outcome.
     *
     * @param storeUri the store under test
     * @param scope the scope to work in; it must hold no session record {@code cas-0}, {@code cas-1}…
     * @param processes how many worker JVMs to run
     * @param sessions how many session records the workers contend for (and log sessions, with {@code appendToLog})
     * @param duration how long the workers run, from the moment every one has opened the store
     * @param workDir a directory for the workers' result and error files
     * @param appendToLog whether the workers also append to {@code sessions} shared message-log sessions
     * @return what the run showed; judge it with {@link Report#problems}
     * @throws IllegalArgumentException if the store keeps no session records
     * @throws IllegalStateException if a worker fails or does not finish in time (its error output is included)
     * @throws IOException if a file in the work directory cannot be written or read, or a worker cannot be started
     * @throws InterruptedException if this thread is interrupted while it waits for the workers
     */
    public static Report run(String storeUri, String scope, int processes, int sessions, Duration duration,
                             Path workDir, boolean appendToLog) throws IOException, InterruptedException {
        Objects.requireNonNull(storeUri, "storeUri");
        List<String> ids = new ArrayList<>();
        List<String> logIds = new ArrayList<>();
        String run = Long.toString(System.nanoTime(), 36);
        if (appendToLog) {
            for (int i = 0; i < sessions; i++) {
                logIds.add("cas-log-" + run + "-" + i);
            }
        }
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        try (Store store = Stores.open(storeUri, StoreOptions.defaults().withScope(scope))) {
            ChatSessionRepository repo = store.sessions().orElseThrow(() ->
                    new IllegalArgumentException(storeUri + " has no session repositories"));
            for (int i = 0; i < sessions; i++) {
                String id = "cas-" + i;
                repo.create(ChatSession.builder(id, t0).name("contended " + i).build());
                ids.add(id);
            }
        }
        Files.createDirectories(workDir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path go = workDir.resolve("go");
        Files.deleteIfExists(go);
        List<Process> children = new ArrayList<>();
        List<Path> results = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            Path result = workDir.resolve("worker-" + p + ".txt");
            results.add(result);
            Files.deleteIfExists(Path.of(result + ".ready"));
            children.add(new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                    System.getProperty("java.class.path"), CasWorker.class.getName(), storeUri, scope,
                    String.join(",", ids), logIds.isEmpty() ? "-" : String.join(",", logIds), "w" + p, go.toString(), Long.toString(duration.toMillis()),
                    result.toString())
                    .redirectError(workDir.resolve("worker-" + p + ".err").toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        }
        // Every worker's window starts together, once all have started and opened the store (a loaded machine can
        // take seconds per JVM; a fixed start time let one worker run alone and the run then proved nothing).
        long giveUp = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        for (int p = 0; p < processes; p++) {
            Path ready = Path.of(results.get(p) + ".ready");
            while (!Files.exists(ready)) {
                Process child = children.get(p);
                if (!child.isAlive() || System.currentTimeMillis() > giveUp) {
                    children.forEach(Process::destroyForcibly);
                    throw new IllegalStateException("worker " + p + " did not start: "
                            + Files.readString(workDir.resolve("worker-" + p + ".err")));
                }
                Thread.sleep(5);
            }
        }
        Files.createFile(go);
        long limit = duration.toMillis() + 60_000;
        for (int p = 0; p < processes; p++) {
            Process child = children.get(p);
            if (!child.waitFor(limit, TimeUnit.MILLISECONDS)) {
                children.forEach(Process::destroyForcibly);
                throw new IllegalStateException("worker " + p + " did not finish in " + limit + " ms");
            }
            if (child.exitValue() != 0) {
                throw new IllegalStateException("worker " + p + " failed with status " + child.exitValue() + ": "
                        + Files.readString(workDir.resolve("worker-" + p + ".err")));
            }
        }
        return check(storeUri, scope, ids, logIds, results);
    }

    private record Ack(String session, String name, long value, long at) {}

    private record Read(String session, long count, long max, long start) {}

    private static Report check(String storeUri, String scope, List<String> ids, List<String> logIds,
                                List<Path> results) throws IOException {
        List<String> violations = new ArrayList<>();
        Map<String, Set<String>> acknowledgedLines = new HashMap<>();
        Map<String, Set<Long>> acknowledgedRevisions = new HashMap<>();
        List<Ack> updates = new ArrayList<>();
        List<Ack> appends = new ArrayList<>();
        List<Read> reads = new ArrayList<>();
        List<Read> loads = new ArrayList<>();
        int conflicts = 0;
        for (Path result : results) {
            List<String> lines = Files.readAllLines(result, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(lines.size() - 1).equals("done")) {
                violations.add(result + " is incomplete");
                continue;
            }
            for (String line : lines.subList(0, lines.size() - 1)) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "ok" -> {
                        updates.add(new Ack(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4])));
                        acknowledgedLines.computeIfAbsent(f[1], k -> new HashSet<>()).add(f[2]);
                        if (!acknowledgedRevisions.computeIfAbsent(f[1], k -> new HashSet<>())
                                .add(Long.parseLong(f[3]))) {
                            violations.add(f[1] + ": revision " + f[3] + " was acknowledged to two writers");
                        }
                    }
                    case "conflict" -> {
                        conflicts++;
                        if (Long.parseLong(f[3]) <= Long.parseLong(f[2])) {
                            violations.add(f[1] + ": a conflict reported actual revision " + f[3] + " for expected "
                                    + f[2]);
                        }
                    }
                    case "read" -> reads.add(new Read(f[1], 0, Long.parseLong(f[2]), Long.parseLong(f[3])));
                    case "load" -> loads.add(new Read(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]),
                            Long.parseLong(f[4])));
                    case "append" -> appends.add(new Ack(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4])));
                    default -> violations.add(result + ": unknown line " + line);
                }
            }
        }
        checkFreshness(updates, reads, false, violations);
        checkFreshness(appends, loads, true, violations);
        try (Store store = Stores.open(storeUri, StoreOptions.defaults().withScope(scope))) {
            ChatSessionRepository repo = store.sessions().orElseThrow();
            for (String id : ids) {
                StoredSession stored = repo.read(id).orElse(null);
                if (stored == null) {
                    violations.add(id + ": the session is gone");
                    continue;
                }
                Set<String> expected = acknowledgedLines.getOrDefault(id, Set.of());
                List<String> present = stored.session().messages().stream().map(ConversationLine::id).toList();
                Set<String> lost = new HashSet<>(expected);
                present.forEach(lost::remove);
                if (!lost.isEmpty()) {
                    violations.add(id + ": " + lost.size() + " acknowledged updates are lost, e.g. " + lost.iterator().next());
                }
                Set<String> phantom = new HashSet<>(present);
                phantom.removeAll(expected);
                if (!phantom.isEmpty()) {
                    violations.add(id + ": " + phantom.size() + " lines were never acknowledged, e.g. "
                            + phantom.iterator().next());
                }
                if (present.size() != new HashSet<>(present).size()) {
                    violations.add(id + ": a line is present twice");
                }
                if (stored.revision() != 1 + expected.size()) {
                    violations.add(id + ": revision " + stored.revision() + " after " + expected.size()
                            + " acknowledged updates");
                }
            }
            for (String logId : logIds) {
                List<dev.parley.core.model.Entry> entries = store.log().load(new dev.parley.core.SessionId(logId), null);
                Map<String, Long> stored = new HashMap<>();
                long last = 0;
                for (dev.parley.core.model.Entry e : entries) {
                    if (e.seq() <= last) {
                        violations.add(logId + ": the log is not in sequence order at " + e.id());
                    }
                    last = e.seq();
                    if (stored.put(e.id().value(), e.seq()) != null) {
                        violations.add(logId + ": entry " + e.id() + " is stored twice");
                    }
                }
                List<Ack> mine = appends.stream().filter(a -> a.session().equals(logId)).toList();
                for (Ack a : mine) {
                    Long seq = stored.get(a.name());
                    if (seq == null) {
                        violations.add(logId + ": the acknowledged append " + a.name() + " is lost");
                    } else if (seq != a.value()) {
                        violations.add(logId + ": " + a.name() + " was acknowledged with seq " + a.value()
                                + " but is stored with " + seq);
                    }
                }
                if (entries.size() != mine.size()) {
                    violations.add(logId + ": " + entries.size() + " entries stored for " + mine.size()
                            + " acknowledged appends");
                }
            }
        }
        return new Report(updates.size(), conflicts, appends.size(), violations);
    }

    /**
     * Every read must see every write acknowledged before it started: a record read at least the acknowledged
     * revision, a log load at least as many entries as were acknowledged before it, the newest among them included.
     */
    private static void checkFreshness(List<Ack> writes, List<Read> reads, boolean log, List<String> violations) {
        Map<String, List<Ack>> bySession = new HashMap<>();
        for (Ack w : writes) {
            bySession.computeIfAbsent(w.session(), k -> new ArrayList<>()).add(w);
        }
        bySession.values().forEach(l -> l.sort(java.util.Comparator.comparingLong(Ack::at)));
        int reported = 0;
        for (Read r : reads) {
            long before = 0;
            long newest = 0;
            for (Ack w : bySession.getOrDefault(r.session(), List.of())) {
                if (w.at() >= r.start()) {
                    break;
                }
                before++;
                newest = Math.max(newest, w.value());
            }
            boolean stale = log ? r.count() < before || r.max() < newest : r.max() < 1 + before || r.max() < newest;
            if (stale && reported++ < 5) {
                violations.add(r.session() + ": a " + (log ? "load" : "read") + " started at " + r.start()
                        + " saw " + (log ? r.count() + " entries up to seq " + r.max() : "revision " + r.max())
                        + " after " + before + " acknowledged writes up to " + newest);
            }
        }
    }
}
