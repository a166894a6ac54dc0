package dev.parley.tck.process;

import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.StoredSession;
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
 * Compare-and-swap across operating-system processes: several JVMs ({@link CasWorker}) update the same sessions of one
 * store for a while, then the store is checked against what each process was told. It is the multi-process form of
 * CS-2: a backend passes when every acknowledged update's line is in the final record, no line is there that was not
 * acknowledged, every session's final revision is one more than its acknowledged updates, no two acknowledgements of a
 * session carry the same revision, and every loser was told with a conflict whose actual revision is newer than the
 * expected one.
 *
 * <p>The workers run with this JVM's class path, so the backend of {@code storeUri} must be on it.
 */
public final class MultiProcessCas {
    private MultiProcessCas() {}

    /**
     * What the run showed.
     *
     * @param acknowledged updates acknowledged across all processes
     * @param conflicts updates rejected with a revision conflict
     * @param violations every broken rule, each naming the session and what was wrong; empty when the backend passed
     */
    public record Report(int acknowledged, int conflicts, List<String> violations) {
        public Report {
            violations = List.copyOf(violations);
        }
    }

    /**
     * Creates {@code sessions} sessions in {@code scope} of the store, runs {@code processes} worker JVMs against them
     * for {@code duration}, and checks the outcome.
     *
     * @param workDir a directory for the workers' result and error files
     * @throws IllegalStateException if a worker fails or does not finish in time (its error output is included)
     */
    public static Report run(String storeUri, String scope, int processes, int sessions, Duration duration,
                             Path workDir) throws IOException, InterruptedException {
        Objects.requireNonNull(storeUri, "storeUri");
        List<String> ids = new ArrayList<>();
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        try (MessageLog log = Stores.open(storeUri)) {
            ChatSessionRepository repo = log.repositories().orElseThrow(() ->
                    new IllegalArgumentException(storeUri + " has no session repositories")).sessions(scope);
            for (int i = 0; i < sessions; i++) {
                String id = "cas-" + i;
                repo.create(ChatSession.builder(id, t0).name("contended " + i).build());
                ids.add(id);
            }
        }
        Files.createDirectories(workDir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long startAt = System.currentTimeMillis() + 2000;
        List<Process> children = new ArrayList<>();
        List<Path> results = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            Path result = workDir.resolve("worker-" + p + ".txt");
            results.add(result);
            children.add(new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                    System.getProperty("java.class.path"), CasWorker.class.getName(), storeUri, scope,
                    String.join(",", ids), "w" + p, Long.toString(startAt), Long.toString(duration.toMillis()),
                    result.toString())
                    .redirectError(workDir.resolve("worker-" + p + ".err").toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
        }
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
        return check(storeUri, scope, ids, results);
    }

    private static Report check(String storeUri, String scope, List<String> ids, List<Path> results) throws IOException {
        List<String> violations = new ArrayList<>();
        Map<String, Set<String>> acknowledgedLines = new HashMap<>();
        Map<String, Set<Long>> acknowledgedRevisions = new HashMap<>();
        int acknowledged = 0;
        int conflicts = 0;
        for (Path result : results) {
            List<String> lines = Files.readAllLines(result, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(lines.size() - 1).equals("done")) {
                violations.add(result + " is incomplete");
                continue;
            }
            for (String line : lines.subList(0, lines.size() - 1)) {
                String[] f = line.split(" ");
                if (f[0].equals("ok")) {
                    acknowledged++;
                    acknowledgedLines.computeIfAbsent(f[1], k -> new HashSet<>()).add(f[2]);
                    if (!acknowledgedRevisions.computeIfAbsent(f[1], k -> new HashSet<>()).add(Long.parseLong(f[3]))) {
                        violations.add(f[1] + ": revision " + f[3] + " was acknowledged to two writers");
                    }
                } else {
                    conflicts++;
                    if (Long.parseLong(f[3]) <= Long.parseLong(f[2])) {
                        violations.add(f[1] + ": a conflict reported actual revision " + f[3] + " for expected " + f[2]);
                    }
                }
            }
        }
        try (MessageLog log = Stores.open(storeUri)) {
            ChatSessionRepository repo = log.repositories().orElseThrow().sessions(scope);
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
        }
        return new Report(acknowledged, conflicts, violations);
    }
}
