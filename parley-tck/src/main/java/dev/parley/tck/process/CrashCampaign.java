package dev.parley.tck.process;

import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreUri;
import dev.parley.core.store.Stores;
import dev.parley.tck.StoreHarness;
import dev.parley.tck.spi.ConformanceSupport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The crash campaign: writer processes ({@link CrashWorker}) append batches to a store and update its session records,
 * and are killed with SIGKILL at random moments — while they append, while they update, and while they open the
 * store, a new one included — round after round. After every round the store must open, and hold every entry and
 * record revision a writer was told about exactly once, every batch whole (all of its entries or none). It runs
 * against any store URI whose backend is on the class path, from a backend's tests and from
 * {@code parley conformance --crash N --store URI}.
 *
 * <p>Each round starts two writers. Most rounds run on the store under test, in a scope of the campaign's own
 * ({@code crash-…}, removed afterwards when nothing failed; a URI that pins {@code parley.scope=} is used as it is),
 * and kill each writer at a random moment shortly after it opened the store; one round in five kills them at a random
 * moment after they started, which often falls inside the open. When the backend's
 * {@link ConformanceSupport#freshStore} can make a new store, every fifth round instead starts both writers at once on a
 * new, empty store, killed at a random moment from their start: concurrent first opens, killed part-way. A writer that
 * exits by itself, fails to open, or has not opened after {@value #OPEN_TIMEOUT_MILLIS} ms is a violation.
 *
 * <p>Each round checks the sessions written in it; the last round checks every session of the campaign. Sessions and
 * records rotate every ten rounds so that a check's cost stays flat. Not thread-safe; one campaign at a time per
 * work directory.
 */
public final class CrashCampaign {
    /** How long a writer may take to open a store before the round fails. */
    public static final long OPEN_TIMEOUT_MILLIS = 30_000;
    private static final int WRITERS = 2;
    private static final int SESSIONS_PER_EPOCH = 3;
    private static final int RECORDS_PER_EPOCH = 2;
    private static final int ROUNDS_PER_EPOCH = 10;

    /**
     * What a campaign showed.
     *
     * @param kills writer processes killed with SIGKILL while running
     * @param acknowledged entries whose append was acknowledged to a writer
     * @param acknowledgedRevisions record updates acknowledged to a writer
     * @param lost acknowledged entries and record updates missing afterwards
     * @param duplicated entries and record updates stored more than once
     * @param partial batches of which some entries are stored and others not
     * @param violations every broken rule in words (the counts above, a store that did not open, a writer that
     *     failed); empty when the store passed
     * @param elapsed how long the campaign took
     */
    public record Report(int kills, long acknowledged, long acknowledgedRevisions, long lost, long duplicated,
                         long partial, List<String> violations, Duration elapsed) {
        /**
         * Copies {@code violations}.
         *
         * @param kills writer processes killed with SIGKILL while running
         * @param acknowledged entries whose append was acknowledged to a writer
         * @param acknowledgedRevisions record updates acknowledged to a writer
         * @param lost acknowledged entries and record updates missing afterwards
         * @param duplicated entries and record updates stored more than once
         * @param partial batches of which some entries are stored and others not
         * @param violations every broken rule in words; empty when the store passed
         * @param elapsed how long the campaign took
         * @throws NullPointerException if {@code violations} is null or holds a null
         */
        public Report {
            violations = List.copyOf(violations);
        }

        /**
         * Whether nothing was lost, duplicated or partial and every round's store opened.
         *
         * @return true when {@link #violations()} is empty
         */
        public boolean passed() {
            return violations.isEmpty();
        }
    }

    private final String uri;
    private final Path workDir;
    private final Random random;
    private final Consumer<String> progress;
    private final String scope;
    private final @Nullable ConformanceSupport support;

    private int kills;
    private long acknowledged;
    private long acknowledgedRevisions;
    private long lost;
    private long duplicated;
    private long partial;
    private final List<String> violations = new ArrayList<>();
    /** Acknowledged batches by store URI and session. */
    private final Map<String, Map<String, List<List<String>>>> batches = new HashMap<>();
    /** Acknowledged record lines by record id. */
    private final Map<String, List<String>> recordLines = new HashMap<>();

    private CrashCampaign(String uri, Path workDir, long seed, Consumer<String> progress) {
        this.uri = uri;
        this.workDir = workDir;
        this.random = new Random(seed);
        this.progress = progress;
        String pinned = StoreUri.parse(uri).scope();
        this.scope = pinned != null ? pinned : "crash-" + Long.toString(seed & Long.MAX_VALUE, 36);
        this.support = StoreHarness.supportFor(StoreUri.parse(uri).scheme());
    }

    /**
     * Runs a campaign of at least {@code kills} kills against the store at {@code uri}.
     *
     * @param uri the store under test; a scope it pins with {@code parley.scope=} is used as it is, else the
     *     campaign works in a scope of its own
     * @param kills the kills to reach, at least 1; the campaign ends sooner when the store no longer opens
     * @param workDir a directory for the campaign's new stores and the writers' error output; created if absent
     * @param seed the seed of every random choice (the moments of the kills still depend on timing)
     * @param progress told a line of progress now and then (every 50 kills)
     * @return what the campaign showed; {@link Report#passed()} when the store kept every rule
     * @throws IOException if the work directory cannot be created or a writer process cannot be started
     * @throws InterruptedException if this thread is interrupted while it waits for a writer
     * @throws IllegalArgumentException if {@code kills} is below 1 (a store that does not open is a violation in the
     *     report, not an exception)
     */
    public static Report run(String uri, int kills, Path workDir, long seed, Consumer<String> progress)
            throws IOException, InterruptedException {
        Objects.requireNonNull(uri, "uri");
        if (kills < 1) {
            throw new IllegalArgumentException("kills must be positive");
        }
        Files.createDirectories(workDir);
        return new CrashCampaign(uri, workDir, seed, progress).run(kills);
    }

    private Report run(int target) throws IOException, InterruptedException {
        long start = System.nanoTime();
        int round = 0;
        int reported = 0;
        Set<String> epochsCreated = new LinkedHashSet<>();
        while (kills < target) {
            int epoch = round / ROUNDS_PER_EPOCH;
            Optional<String> freshUri = support == null || round % 5 != 4 ? Optional.empty()
                    : support.freshStore(workDir.resolve("fresh").resolve("r" + round));
            boolean fresh = freshUri.isPresent();
            String roundUri = freshUri.orElse(uri);
            List<String> sessions = new ArrayList<>();
            List<String> records = new ArrayList<>();
            if (fresh) {
                sessions.add("crash-fresh");
            } else {
                for (int i = 0; i < SESSIONS_PER_EPOCH; i++) {
                    sessions.add("crash-" + epoch + "-" + i);
                }
                for (int i = 0; i < RECORDS_PER_EPOCH; i++) {
                    records.add("crash-rec-" + epoch + "-" + i);
                }
                if (epochsCreated.add("e" + epoch) && !createRecords(records)) {
                    break;
                }
            }
            runRound(round, roundUri, sessions, records, fresh ? Kill.FROM_START : random.nextInt(5) == 0
                    ? Kill.FROM_START : Kill.AFTER_OPEN);
            boolean opened = check(roundUri, sessions, records, "round " + round);
            if (fresh) {
                deleteTree(workDir.resolve("fresh"), roundUri);
            }
            if (!opened) {
                break; // a store that no longer opens ends the campaign: every later round would say the same
            }
            if (kills - reported >= 50) {
                reported = kills;
                progress.accept(kills + " kills, " + acknowledged + " entries and " + acknowledgedRevisions
                        + " revisions acknowledged, " + lost + " lost, " + duplicated + " duplicated, " + partial
                        + " partial");
            }
            round++;
        }
        if (violations.isEmpty()) {
            List<String> all = new ArrayList<>();
            List<String> allRecords = new ArrayList<>();
            for (int e = 0; e <= (round - 1) / ROUNDS_PER_EPOCH; e++) {
                for (int i = 0; i < SESSIONS_PER_EPOCH; i++) {
                    all.add("crash-" + e + "-" + i);
                }
                for (int i = 0; i < RECORDS_PER_EPOCH; i++) {
                    allRecords.add("crash-rec-" + e + "-" + i);
                }
            }
            check(uri, all, allRecords, "the final check");
        }
        if (violations.isEmpty() && StoreUri.parse(uri).scope() == null) {
            try (Store store = open(uri)) {
                store.deleteScope();
            }
        }
        return new Report(kills, acknowledged, acknowledgedRevisions, lost, duplicated, partial, violations,
                Duration.ofNanos(System.nanoTime() - start));
    }

    private enum Kill { FROM_START, AFTER_OPEN }

    private Store open(String storeUri) {
        return Stores.open(storeUri, StoreUri.parse(storeUri).scope() != null ? StoreOptions.defaults()
                : StoreOptions.defaults().withScope(scope));
    }

    private boolean createRecords(List<String> records) {
        try (Store store = open(uri)) {
            Optional<ChatSessionRepository> repo = store.sessions();
            if (repo.isEmpty()) {
                return true; // a store without records: the campaign appends only
            }
            for (String id : records) {
                if (repo.get().read(id).isEmpty()) {
                    repo.get().create(ChatSession.builder(id, Instant.parse("2026-01-01T00:00:00Z")).build());
                }
            }
            return true;
        } catch (ParleyException e) {
            violations.add("the store does not open to create records: " + e);
            return false;
        }
    }

    /** A started writer and what it acknowledged, read from its output as it comes. */
    private static final class Writer {
        final Process process;
        final List<String> acks = new ArrayList<>();
        final CountDownLatch ready = new CountDownLatch(1);
        final Thread reader;
        final Path err;

        Writer(Process process, Path err) {
            this.process = process;
            this.err = err;
            this.reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (line.equals("ready")) {
                            ready.countDown();
                        } else {
                            synchronized (acks) {
                                acks.add(line);
                            }
                        }
                    }
                } catch (IOException e) {
                    // the pipe closed with the process: what was read is what was acknowledged
                }
            }, "crash-writer-output");
            reader.setDaemon(true);
            reader.start();
        }
    }

    private void runRound(int round, String roundUri, List<String> sessions, List<String> records, Kill kill)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Writer> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            String name = "r" + round + "w" + w;
            Path err = workDir.resolve("writer-" + w + ".err");
            Process p = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-cp",
                    System.getProperty("java.class.path"), CrashWorker.class.getName(), roundUri, scope, name,
                    String.join(",", sessions), records.isEmpty() ? "-" : String.join(",", records))
                    .redirectError(err.toFile()).start();
            writers.add(new Writer(p, err));
        }
        long started = System.nanoTime();
        // Each writer's moment of death: from its start (often inside the open), or some time after it opened.
        long[] due = new long[writers.size()];
        for (int i = 0; i < writers.size(); i++) {
            Writer w = writers.get(i);
            if (kill == Kill.FROM_START) {
                due[i] = started + TimeUnit.MILLISECONDS.toNanos(100 + random.nextInt(1400));
                continue;
            }
            long left = OPEN_TIMEOUT_MILLIS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (!w.ready.await(Math.max(1, left), TimeUnit.MILLISECONDS) && w.process.isAlive()) {
                violations.add("round " + round + ": a writer did not open " + redacted(roundUri) + " in "
                        + OPEN_TIMEOUT_MILLIS + " ms");
            }
            due[i] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50 + random.nextInt(900));
        }
        Integer[] order = new Integer[writers.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(i -> due[i]));
        for (int i : order) {
            Writer w = writers.get(i);
            long wait = due[i] - System.nanoTime();
            if (wait > 0 ? w.process.waitFor(wait, TimeUnit.NANOSECONDS) : !w.process.isAlive()) {
                finished(w, round);
                continue;
            }
            w.process.destroyForcibly(); // SIGKILL
            w.process.waitFor();
            kills++;
        }
        for (Writer w : writers) {
            w.reader.join(10_000);
            synchronized (w.acks) {
                for (String line : w.acks) {
                    record(roundUri, line, round);
                }
            }
        }
    }

    /** A writer that ended before it was killed: only a clean exit of a writer never asked to stop would be odd. */
    private void finished(Writer w, int round) {
        String err;
        try {
            err = Files.readString(w.err);
        } catch (IOException e) {
            err = e.toString();
        }
        violations.add("round " + round + ": a writer exited by itself with status " + w.process.exitValue() + ": "
                + err.lines().limit(12).reduce("", (a, b) -> a + "\n  " + b));
    }

    private void record(String roundUri, String line, int round) {
        String[] f = line.split(" ");
        switch (f[0]) {
            case "A" -> {
                List<String> ids = List.of(f[2].split(","));
                batches.computeIfAbsent(roundUri, k -> new HashMap<>())
                        .computeIfAbsent(f[1], k -> new ArrayList<>()).add(ids);
                acknowledged += ids.size();
            }
            case "R" -> {
                recordLines.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f[2]);
                acknowledgedRevisions++;
            }
            case "DUP" -> {
                duplicated++;
                violations.add("round " + round + ": a retried batch starting " + f[1] + " was written again");
            }
            default -> violations.add("round " + round + ": a writer printed '" + line + "'");
        }
    }

    /** Opens the store and checks the given sessions and records; false when the store does not open. */
    private boolean check(String storeUri, List<String> sessions, List<String> records, String when) {
        Store store;
        try {
            store = open(storeUri);
        } catch (ParleyException e) {
            violations.add(when + ": the store " + redacted(storeUri) + " does not open: " + e);
            return false;
        }
        try (store) {
            Map<String, List<List<String>>> acked = batches.getOrDefault(storeUri, Map.of());
            for (String session : sessions) {
                checkSession(store, session, acked.getOrDefault(session, List.of()), when);
            }
            Optional<ChatSessionRepository> repo = store.sessions();
            if (repo.isPresent()) {
                for (String record : records) {
                    checkRecord(repo.get(), record, when);
                }
            }
        } catch (ParleyException e) {
            violations.add(when + ": reading " + redacted(storeUri) + " failed: " + e);
        }
        return true;
    }

    private void checkSession(Store store, String session, List<List<String>> acked, String when) {
        List<Entry> entries = store.log().load(new SessionId(session), null);
        Map<String, Integer> count = new HashMap<>();
        long lastSeq = Long.MIN_VALUE;
        for (Entry e : entries) {
            count.merge(e.id().value(), 1, Integer::sum);
            if (e.seq() <= lastSeq) {
                violations.add(when + ": session " + session + ": seq " + e.seq() + " does not increase");
            }
            lastSeq = e.seq();
        }
        Map<String, Set<Integer>> batchesSeen = new LinkedHashMap<>();
        Map<String, Integer> batchSize = new HashMap<>();
        for (Map.Entry<String, Integer> c : count.entrySet()) {
            String id = c.getKey();
            if (c.getValue() > 1) {
                duplicated += c.getValue() - 1;
                violations.add(when + ": session " + session + ": entry " + id + " is stored " + c.getValue()
                        + " times");
            }
            int dash = id.lastIndexOf('-');
            int of = id.lastIndexOf("of");
            if (dash > 0 && of > dash) {
                String batch = id.substring(0, dash);
                batchesSeen.computeIfAbsent(batch, k -> new java.util.TreeSet<>())
                        .add(Integer.parseInt(id.substring(dash + 1, of)));
                batchSize.put(batch, Integer.parseInt(id.substring(of + 2)));
            }
        }
        for (Map.Entry<String, Set<Integer>> b : batchesSeen.entrySet()) {
            if (b.getValue().size() != batchSize.get(b.getKey())) {
                partial++;
                violations.add(when + ": session " + session + ": batch " + b.getKey() + " holds entries "
                        + b.getValue() + " of " + batchSize.get(b.getKey()));
            }
        }
        for (List<String> batch : acked) {
            for (String id : batch) {
                if (!count.containsKey(id)) {
                    lost++;
                    violations.add(when + ": session " + session + ": acknowledged entry " + id + " is missing");
                }
            }
        }
    }

    private void checkRecord(ChatSessionRepository repo, String record, String when) {
        Optional<StoredSession> stored = repo.read(record);
        List<String> acked = recordLines.getOrDefault(record, List.of());
        if (stored.isEmpty()) {
            if (!acked.isEmpty()) {
                lost += acked.size();
                violations.add(when + ": record " + record + " with " + acked.size() + " acknowledged updates is"
                        + " missing");
            }
            return;
        }
        Map<String, Integer> count = new HashMap<>();
        for (ConversationLine l : stored.get().session().messages()) {
            count.merge(l.id(), 1, Integer::sum);
        }
        count.forEach((id, n) -> {
            if (n > 1) {
                duplicated += n - 1;
                violations.add(when + ": record " + record + ": update " + id + " is stored " + n + " times");
            }
        });
        for (String id : acked) {
            if (!count.containsKey(id)) {
                lost++;
                violations.add(when + ": record " + record + ": acknowledged update " + id + " is missing");
            }
        }
        long lines = stored.get().session().messages().size();
        if (stored.get().revision() != lines + 1) {
            violations.add(when + ": record " + record + " is at revision " + stored.get().revision() + " with "
                    + lines + " updates (expected revision " + (lines + 1) + ")");
        }
    }

    private static String redacted(String storeUri) {
        return Stores.redact(storeUri);
    }

    private void deleteTree(Path dir, String roundUri) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the new store " + redacted(roundUri), e);
        }
        batches.remove(roundUri);
    }
}
