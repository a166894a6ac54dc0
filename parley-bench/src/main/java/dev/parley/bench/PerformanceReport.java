package dev.parley.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.HotSpotDiagnosticMXBean;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.springframework.ai.chat.memory.repository.jdbc.JdbcChatMemoryRepository;

/**
 * The performance report of issue 12, in one run: every Parley figure beside the raw medium measured in the same run
 * on the same machine — SQLite (WAL, {@code synchronous=FULL}), JSONL files (fdatasync) and PostgreSQL (the embedded
 * server the tests use, {@code fsync=on}, {@code synchronous_commit=on}).
 *
 * <ul>
 *   <li>single-writer append (one 1 KB assistant message through {@link AgentSession#appendMessages}, durable on
 *       return) at session lengths 10, 1,000 and 10,000, beside a one-row INSERT + COMMIT (SQLite, PostgreSQL) or an
 *       append + fdatasync of a line of the same size (JSONL), and Spring AI's {@code JdbcChatMemoryRepository} on
 *       SQLite (a save of the conversation with the new message);</li>
 *   <li>bytes per append: what this process passed to {@code write} ({@code wchar} of {@code /proc/self/io}: WAL
 *       frames, checkpoints, file appends) for SQLite and JSONL; the WAL bytes the server generated
 *       ({@code pg_current_wal_lsn} before and after) for PostgreSQL;</li>
 *   <li>throughput with 1, 4, 16 and 64 writers, each appending to a session of its own;</li>
 *   <li>resume: loading a session of 100,000 and 1,000,000 messages as entries and as a conversation, time and peak
 *       heap, beside reading the same rows or lines and parsing each with Jackson;</li>
 *   <li>the catalog: pages of 50 over 1,000,000 sessions, the first page and deep pages, p50 and p99.</li>
 * </ul>
 *
 * <p>Before anything is measured, each backend's append path runs unmeasured: five times the per-case operation count
 * on sessions of their own, then {@value #WARM_APPENDS} appends to one session ({@code --warmup N}), since HotSpot's
 * C2 compiles a method only after thousands of calls ({@code Tier4InvocationThreshold}, 5,000, more while its queue
 * is long) and an append calls most of its methods once; the raw medium runs five times the per-case count. Each case
 * then has its own warm-up appends. The long warm-up runs only with the append or throughput section.
 *
 * <p>Usage (the command is also at the top of the report):
 * <pre>{@code
 * mvn -q -o -pl parley-bench -am package -DskipTests
 * java -Xms8g -Xmx8g -cp parley-bench/target/parley-bench.jar dev.parley.bench.PerformanceReport --out parley-bench/reports/performance.md
 * }</pre>
 * {@code --quick} runs smaller sizes for iteration; {@code --ops N}, {@code --warmup N}, {@code --resume N,N},
 * {@code --catalog N},
 * {@code --writers N,N}, {@code --lengths N,N}, {@code --throughput-ops N}, {@code --no-postgres},
 * {@code --dir DIR} override single settings; {@code --only append,throughput,resume,catalog} runs only the sections
 * named, and {@code --backends sqlite,jsonl,postgres} only the backends named (the warm-up included).
 */
public final class PerformanceReport {
    private static final int WARMUP = 30;
    /**
     * Appends to one session that warm each backend's append path before anything is measured. With 1,500 (five times
     * the per-case count, the whole warm-up before) JSONL measured 1.46–1.61× the raw append in three runs of the
     * append section alone, against 1.26–1.44× in two after 20,000 and 1.21–1.42× in the full report after it (the
     * disk's own drift is of that order, so the figures favour, and do not prove, a warm-up long enough for C2). On
     * tmpfs, where a sync costs nothing, an append's own work fell from 50–70 µs in the first thousands to about 20 µs
     * after 100,000.
     */
    static final int WARM_APPENDS = 20_000;
    private static final String PAD = "lorem ipsum dolor sit amet ".repeat(40).substring(0, 1000);
    private static final ObjectMapper JACKSON = new ObjectMapper();
    /** The heap the report is meant to run with: fixed, and room for a million-message session loaded twice. */
    static final String HEAP = "-Xms8g -Xmx8g";

    private PerformanceReport() {}

    /** The run's sizes. */
    record Config(Path out, Path dir, int ops, int warmup, int[] lengths, int[] writers, int throughputOps,
                  int[] resume, int catalog, int catalogSamples, boolean postgres, int springOps, Set<String> sections,
                  Set<String> backends) {
        static final Set<String> SECTIONS = Set.of("append", "throughput", "resume", "catalog");
        static final Set<String> BACKENDS = Set.of("sqlite", "jsonl", "postgres");

        static Config parse(String[] args) {
            boolean quick = Arrays.asList(args).contains("--quick");
            Path out = Path.of("parley-bench/reports/performance.md");
            Path dir = Path.of("parley-bench/target/performance-data");
            int ops = quick ? 60 : 300;
            int warmup = quick ? 2_000 : WARM_APPENDS;
            int[] lengths = {10, 1_000, 10_000};
            int[] writers = {1, 4, 16, 64};
            // 8,000: at 1,920 a case of 16 writers lasted about a tenth of a second, and the same case measured 1.8×
            // and 3.8× one writer in two runs (the writers' start and their last stragglers weighed on it).
            int throughputOps = quick ? 320 : 8_000;
            int[] resume = quick ? new int[] {10_000, 50_000} : new int[] {100_000, 1_000_000};
            int catalog = quick ? 50_000 : 1_000_000;
            int samples = quick ? 100 : 300;
            boolean postgres = true;
            int springOps = quick ? 10 : 30;
            Set<String> sections = SECTIONS;
            Set<String> backends = BACKENDS;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> { }
                    case "--out" -> out = Path.of(args[++i]);
                    case "--dir" -> dir = Path.of(args[++i]);
                    case "--ops" -> ops = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--lengths" -> lengths = ints(args[++i]);
                    case "--writers" -> writers = ints(args[++i]);
                    case "--throughput-ops" -> throughputOps = Integer.parseInt(args[++i]);
                    case "--resume" -> resume = ints(args[++i]);
                    case "--catalog" -> catalog = Integer.parseInt(args[++i]);
                    case "--spring-ops" -> springOps = Integer.parseInt(args[++i]);
                    case "--no-postgres" -> postgres = false;
                    case "--only" -> sections = names(args[++i], SECTIONS);
                    case "--backends" -> backends = names(args[++i], BACKENDS);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; usage: [--quick]"
                            + " [--out FILE] [--dir DIR] [--ops N] [--warmup N] [--lengths N,N] [--writers N,N]"
                            + " [--throughput-ops N]"
                            + " [--resume N,N] [--catalog N] [--spring-ops N] [--no-postgres]"
                            + " [--only SECTION,SECTION] [--backends NAME,NAME]");
                }
            }
            return new Config(out, dir, ops, warmup, lengths, writers, throughputOps, resume, catalog, samples,
                    postgres && backends.contains("postgres"), springOps, sections, backends);
        }

        /** Whether the section named is to be run. */
        boolean runs(String section) {
            return sections.contains(section);
        }

        static Set<String> names(String list, Set<String> known) {
            Set<String> names = Set.of(list.split(","));
            if (!known.containsAll(names)) {
                throw new IllegalArgumentException("unknown name in " + list + "; known: " + known);
            }
            return names;
        }

        static int[] ints(String list) {
            return Arrays.stream(list.split(",")).mapToInt(s -> Integer.parseInt(s.trim().replace("_", ""))).toArray();
        }
    }

    /** A backend under test: how to open a store in a directory, and its raw medium. */
    interface Backend {
        String name();

        String uri(Path dir);

        /** The raw medium's single-writer append: latencies in ns, and the bytes it wrote. */
        Measured raw(Path dir, int ops) throws Exception;

        /** A counter of bytes written by this backend's writes. */
        LongSupplier bytes();

        /**
         * Moves what a fill wrote out of the way before appends are measured (SQLite: a WAL checkpoint, so the
         * measured appends do not pay for the fill's); by default nothing.
         */
        default void settle(Path dir) throws Exception {}

        /** Reads the rows (or lines) of {@code session} and parses each with Jackson; answers how many. */
        int rawReadAndParse(Path dir, SessionId session) throws Exception;
    }

    /** Latencies of one case and the bytes written while measuring it. */
    record Measured(String what, long[] nanos, long bytes) {
        double mean() {
            return Arrays.stream(nanos).average().orElse(0) / 1e6;
        }

        double p(double percentile) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int i = (int) Math.min(sorted.length - 1, Math.ceil(percentile / 100 * sorted.length) - 1);
            return sorted[Math.max(0, i)] / 1e6;
        }

        double bytesPerOp() {
            return (double) bytes / nanos.length;
        }

        /** Runs of one case as one: every sample, and the bytes of them all. */
        static Measured pooled(List<Measured> runs) {
            long[] nanos = runs.stream().flatMapToLong(r -> Arrays.stream(r.nanos())).toArray();
            return new Measured(runs.get(0).what(), nanos, runs.stream().mapToLong(Measured::bytes).sum());
        }
    }

    /**
     * Runs the sections asked for, prints the report on standard output (progress, and a warning when the heap is
     * not fixed, on standard error) and writes it to a file.
     *
     * @param args the options of the class comment, and {@code --spring-ops N} (saves measured per case of Spring
     *     AI's repository; default 30, 10 with {@code --quick}); {@code --out FILE} defaults to
     *     {@code parley-bench/reports/performance.md} (its directory created), {@code --dir DIR} to
     *     {@code parley-bench/target/performance-data}, which is deleted with everything in it before the run and
     *     after it, also after a failure
     * @throws IllegalArgumentException if an argument is unknown, or {@code --only} or {@code --backends} names a
     *     section or backend that is unknown or given twice
     * @throws NumberFormatException if a number is not an integer
     * @throws ArrayIndexOutOfBoundsException if the last option has no value
     * @throws Exception if a store, the embedded PostgreSQL server or the file system fails; no report is written
     */
    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Config config = Config.parse(args);
        if (!heapIsFixed()) {
            System.err.println("warning: the heap is not fixed (-Xms below -Xmx): the resume figures will swing; run"
                    + " with " + HEAP);
        }
        Path dir = config.dir();
        AppendBenchmark.deleteTree(dir);
        Files.createDirectories(dir);
        long started = System.nanoTime();
        EmbeddedPostgres server = null;
        List<Backend> backends = new ArrayList<>();
        if (config.backends().contains("sqlite")) {
            backends.add(new Sqlite());
        }
        if (config.backends().contains("jsonl")) {
            backends.add(new Jsonl());
        }
        if (config.postgres()) {
            server = EmbeddedPostgres.builder().setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on").setServerConfig("full_page_writes", "on").start();
            backends.add(new Postgres(server));
        }
        StringBuilder report = new StringBuilder();
        try {
            Report r = new Report(config, report);
            r.header();
            // Warm the JIT on every backend's append path first: a few dozen warm-up appends per case leave the
            // first cases measuring the compiler rather than the store. New sessions (the path of length 10), then
            // one long session until C2 has compiled the path (WARM_APPENDS).
            for (Backend b : backends) {
                appendAt(b, dir.resolve(b.name() + "-warm"), 10, config.ops() * 5);
                if (config.runs("append") || config.runs("throughput")) {
                    appendAt(b, dir.resolve(b.name() + "-warm-long"), 100, config.warmup());
                }
                b.raw(dir.resolve(b.name() + "-warm-raw"), config.ops() * 5);
            }
            progress("warm");
            Map<String, List<Measured>> appends = new LinkedHashMap<>();
            Map<String, Measured> raws = new LinkedHashMap<>();
            for (Backend b : config.runs("append") ? backends : List.<Backend>of()) {
                // The raw medium is measured before every case, on a file of its own, and its samples pooled: on a
                // disk whose speed drifts during the run, each case has raw samples from its own minutes in the pool.
                List<Measured> rawRuns = new ArrayList<>();
                List<Measured> perLength = new ArrayList<>();
                for (int length : config.lengths()) {
                    rawRuns.add(b.raw(dir.resolve(b.name() + "-raw-" + length), config.ops()));
                    perLength.add(appendAt(b, dir.resolve(b.name() + "-" + length), length, config.ops()));
                    progress(b.name() + " append at " + length + " done");
                }
                raws.put(b.name(), Measured.pooled(rawRuns));
                appends.put(b.name(), perLength);
            }
            if (config.runs("append")) {
                List<Measured> spring = new ArrayList<>();
                for (int length : config.lengths()) {
                    spring.add(springAppend(dir.resolve("spring-" + length), length, config.springOps()));
                    progress("spring at " + length + " done");
                }
                r.appends(appends, raws, spring);
            }
            Map<String, double[]> throughput = new LinkedHashMap<>();
            for (Backend b : config.runs("throughput") ? backends : List.<Backend>of()) {
                double[] perWriters = new double[config.writers().length];
                for (int i = 0; i < config.writers().length; i++) {
                    perWriters[i] = throughput(b, dir.resolve(b.name() + "-w" + config.writers()[i]),
                            config.writers()[i], config.throughputOps());
                    progress(b.name() + " " + config.writers()[i] + " writers: " + (long) perWriters[i] + "/s");
                }
                throughput.put(b.name(), perWriters);
            }
            if (config.runs("throughput")) {
                r.throughput(throughput, raws);
            }
            if (config.runs("resume")) {
                r.resumeHeader();
            }
            for (Backend b : config.runs("resume") ? backends : List.<Backend>of()) {
                for (int size : config.resume()) {
                    r.resume(b, resume(b, dir.resolve(b.name() + "-resume-" + size), size), size);
                    progress(b.name() + " resume " + size + " done");
                }
            }
            if (config.runs("catalog")) {
                r.catalogHeader();
            }
            for (Backend b : config.runs("catalog") ? backends : List.<Backend>of()) {
                if (b instanceof Jsonl) {
                    continue; // a million session files: not a target of the file store
                }
                r.catalog(b.name(), catalog(b, dir.resolve(b.name() + "-catalog"), config.catalog(),
                        config.catalogSamples()));
                progress(b.name() + " catalog done");
            }
            r.footer((System.nanoTime() - started) / 1e9);
        } finally {
            if (server != null) {
                server.close();
            }
            AppendBenchmark.deleteTree(dir);
        }
        Files.createDirectories(config.out().toAbsolutePath().getParent());
        Files.writeString(config.out(), report.toString());
        System.out.println(report);
        System.err.println("report written to " + config.out().toAbsolutePath());
    }

    static void progress(String what) {
        System.err.println("[performance] " + what);
    }

    // ---- the workloads ----

    static String line(Random random) {
        return "{\"role\":\"assistant\",\"text\":\"reply " + random.nextLong() + " " + PAD + "\"}\n";
    }

    /** Single-writer appends at a session length: for length 10 one session per append, else one long session. */
    static Measured appendAt(Backend b, Path where, int length, int ops) throws Exception {
        Files.createDirectories(where);
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        Random random = new Random(length);
        long[] nanos = new long[ops];
        long bytes;
        try (Store store = Stores.open(b.uri(where), options)) {
            int sessions = length <= 10 ? ops + WARMUP : 1;
            List<AgentSession> handles = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                SessionId session = options.ids().newSessionId();
                AppendBenchmark.fill(store.log(), session, length, options.ids(), random);
                handles.add(new AgentSession(store.log(), session, AgentId.MAIN, options.ids(), Clock.systemUTC()));
            }
            b.settle(where);
            long before = 0;
            for (int i = -WARMUP; i < ops; i++) {
                if (i == 0) {
                    before = b.bytes().getAsLong();
                }
                AgentSession handle = handles.get(sessions == 1 ? 0 : i + WARMUP);
                Message m = AppendBenchmark.message(random);
                long t = System.nanoTime();
                handle.appendMessages(List.of(m));
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - t;
                }
            }
            bytes = b.bytes().getAsLong() - before;
        }
        return new Measured(String.format(Locale.ROOT, "Parley %s, length %,d", b.name(), length), nanos, bytes);
    }

    /** Spring AI's JDBC repository on SQLite: one append = a save of the conversation with the new message. */
    static Measured springAppend(Path where, int length, int ops) throws Exception {
        Files.createDirectories(where);
        Path file = where.resolve("spring.db");
        long[] nanos = new long[ops];
        long bytes;
        try (AdaptersBenchmark.Jdbc jdbc = new AdaptersBenchmark.Jdbc(file)) {
            JdbcChatMemoryRepository repository = jdbc.repository;
            List<org.springframework.ai.chat.messages.Message> all = new ArrayList<>();
            for (int i = 0; i < length; i++) {
                all.add(new org.springframework.ai.chat.messages.AssistantMessage("reply " + i + " " + PAD));
            }
            repository.saveAll("c", all);
            AdaptersBenchmark.checkpoint(file);
            int warmup = Math.min(WARMUP, 5);
            long before = 0;
            for (int i = -warmup; i < ops; i++) {
                if (i == 0) {
                    before = AdaptersBenchmark.writtenBytes();
                }
                all.add(new org.springframework.ai.chat.messages.AssistantMessage("reply " + i + " " + PAD));
                long t = System.nanoTime();
                repository.saveAll("c", all);
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - t;
                }
            }
            bytes = AdaptersBenchmark.writtenBytes() - before;
        }
        return new Measured(String.format(Locale.ROOT, "Spring AI JdbcChatMemoryRepository (SQLite), length %,d",
                length), nanos, bytes);
    }

    /** Appends per second with {@code writers} threads, each appending single messages to a session of its own. */
    static double throughput(Backend b, Path where, int writers, int totalOps) throws Exception {
        Files.createDirectories(where);
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        int perWriter = Math.max(5, totalOps / writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try (Store store = Stores.open(b.uri(where), options)) {
            List<AgentSession> handles = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                AgentSession h = new AgentSession(store.log(), options.ids().newSessionId(), AgentId.MAIN,
                        options.ids(), Clock.systemUTC());
                h.appendMessages(List.of(AppendBenchmark.message(new Random(w)))); // warm: the session exists
                handles.add(h);
            }
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                AgentSession h = handles.get(w);
                Random random = new Random(w);
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perWriter; i++) {
                        h.appendMessages(List.of(AppendBenchmark.message(random)));
                    }
                    return null;
                }));
            }
            long t = System.nanoTime();
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
            double seconds = (System.nanoTime() - t) / 1e9;
            return writers * (double) perWriter / seconds;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Resume figures of one backend at one size. */
    record Resume(double rawMillis, double entriesMillis, double conversationMillis, long rawHeap, long entriesHeap,
                  long conversationHeap, long entriesHeld, long conversationHeld, double fillSeconds) {}

    static Resume resume(Backend b, Path where, int size) throws Exception {
        Files.createDirectories(where);
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        SessionId session = options.ids().newSessionId();
        long t0 = System.nanoTime();
        try (Store store = Stores.open(b.uri(where), options)) {
            Random random = new Random(size);
            EntryId parent = null;
            int done = 0;
            Instant now = Instant.now();
            while (done < size) {
                int n = Math.min(2_000, size - done);
                List<NewEntry> batch = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    EntryId id = options.ids().newEntryId();
                    // a short exchange: user and assistant messages of ~300 bytes
                    Message m = (done + i) % 2 == 0 ? Message.user("question " + random.nextLong() + " "
                            + PAD.substring(0, 250)) : AppendBenchmark.message(random);
                    batch.add(NewEntry.of(id, parent, now, m));
                    parent = id;
                }
                store.log().append(session, AgentId.MAIN, batch);
                done += n;
            }
        }
        double fill = (System.nanoTime() - t0) / 1e9;
        int reps = size >= 500_000 ? 3 : 7;
        double[] raw = best(reps, () -> b.rawReadAndParse(where, session));
        double[] entries;
        double[] conversation;
        long entriesHeld;
        long conversationHeld;
        try (Store store = Stores.open(b.uri(where), options)) {
            Callable<List<Entry>> loadEntries = () -> store.log().load(session, null);
            Callable<LoadedConversation> loadConversation = () -> new AgentSession(store.log(), session, AgentId.MAIN,
                    options.ids(), Clock.systemUTC()).loadConversation();
            entries = best(reps, () -> loadEntries.call().size());
            entriesHeld = held(loadEntries::call);
            conversation = best(reps, () -> loadConversation.call().items().size());
            conversationHeld = held(loadConversation::call);
        }
        return new Resume(raw[0], entries[0], conversation[0], (long) raw[1], (long) entries[1],
                (long) conversation[1], entriesHeld, conversationHeld, fill);
    }

    interface Load {
        int run() throws Exception;
    }

    /** Whether the JVM's initial heap is its maximum (what the flags say: a collector may report less as usable). */
    static boolean heapIsFixed() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return vm.getVMOption("InitialHeapSize").getValue().equals(vm.getVMOption("MaxHeapSize").getValue());
    }

    /** The heap (bytes) that what {@code load} returns keeps: heap in use after a full collection, with and without it. */
    static long held(Callable<Object> load) throws Exception {
        System.gc();
        long before = usedHeap();
        Object result = load.call();
        System.gc();
        long after = usedHeap();
        Reference.reachabilityFence(result);
        return after - before;
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getUsage().getUsed()).sum();
    }

    /**
     * The best time (ms) of {@code reps} runs after one that is not timed (the first load of a kind also compiles its
     * code), and the peak heap (bytes) of the last.
     */
    static double[] best(int reps, Load load) throws Exception {
        load.run();
        double bestMillis = Double.MAX_VALUE;
        long peak = 0;
        for (int i = 0; i < reps; i++) {
            System.gc();
            List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).toList();
            long baseline = usedHeap();
            heap.forEach(MemoryPoolMXBean::resetPeakUsage);
            long t = System.nanoTime();
            int n = load.run();
            double millis = (System.nanoTime() - t) / 1e6;
            if (n <= 0) {
                throw new IllegalStateException("loaded nothing");
            }
            bestMillis = Math.min(bestMillis, millis);
            peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() - baseline;
        }
        return new double[] {bestMillis, peak};
    }

    /** Catalog page latencies: the first page, and deep pages at cursors spread over the second half. */
    record Catalog(Measured first, Measured deep, double fillSeconds) {}

    static Catalog catalog(Backend b, Path where, int sessions, int samples) throws Exception {
        Files.createDirectories(where);
        String scope = "catalog";
        long t0 = System.nanoTime();
        try (Store root = Stores.open(b.uri(where))) {
            // Created in bulk (one statement): a million sessions through the API would take the whole run.
            ((Bulk) b).fillCatalog(where, scope, sessions);
            double fill = (System.nanoTime() - t0) / 1e9;
            SessionCatalog catalog = root.withScope(scope).catalog().orElseThrow();
            for (int i = 0; i < 1_000; i++) {
                catalog.list(null, 50); // warm the JIT on the page path
            }
            long[] first = new long[samples];
            for (int i = 0; i < samples; i++) {
                long t = System.nanoTime();
                int n = catalog.list(null, 50).sessions().size();
                first[i] = System.nanoTime() - t;
                if (n != 50) {
                    throw new IllegalStateException("short first page: " + n);
                }
            }
            Random random = new Random(7);
            List<String> cursors = new ArrayList<>();
            for (int i = 0; i < samples; i++) {
                int rank = sessions / 2 + random.nextInt(sessions / 2 - 60);
                String id = ((Bulk) b).idAtRank(where, scope, rank);
                SessionInfo info = catalog.find(new SessionId(id)).orElseThrow();
                cursors.add(CatalogCursor.after(info).encode());
            }
            long[] deep = new long[samples];
            for (int i = 0; i < samples; i++) {
                long t = System.nanoTime();
                int n = catalog.list(cursors.get(i), 50).sessions().size();
                deep[i] = System.nanoTime() - t;
                if (n != 50) {
                    throw new IllegalStateException("short deep page: " + n);
                }
            }
            return new Catalog(new Measured("first page", first, 0), new Measured("deep page", deep, 0), fill);
        }
    }

    /** What the catalog figures need beyond the store: a bulk fill, and the id at a rank of the catalog order. */
    interface Bulk {
        void fillCatalog(Path where, String scope, int sessions) throws SQLException;

        String idAtRank(Path where, String scope, int rank) throws SQLException;
    }

    // ---- the backends ----

    /** A backend on a database: the raw read and the rank lookups go through its JDBC URL. */
    abstract static class JdbcBackend implements Backend, Bulk {
        abstract String jdbcUrl(Path dir);

        @Override
        public int rawReadAndParse(Path dir, SessionId session) throws Exception {
            try (Connection c = DriverManager.getConnection(jdbcUrl(dir));
                 PreparedStatement st = c.prepareStatement("SELECT seq, body FROM parley_log_entries"
                         + " WHERE scope_id = 'default' AND session_id = ? ORDER BY seq")) {
                st.setString(1, session.value());
                return parseRows(st);
            }
        }

        @Override
        public String idAtRank(Path where, String scope, int rank) throws SQLException {
            try (Connection c = DriverManager.getConnection(jdbcUrl(where));
                 PreparedStatement st = c.prepareStatement("SELECT id FROM parley_log_sessions WHERE scope_id = ?"
                         + " ORDER BY updated_at DESC, id ASC LIMIT 1 OFFSET ?")) {
                st.setString(1, scope);
                st.setInt(2, rank);
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    return rs.getString(1);
                }
            }
        }
    }

    /** SQLite: the store's file, and a one-row transaction on a file with the same settings. */
    static final class Sqlite extends JdbcBackend {
        @Override
        String jdbcUrl(Path dir) {
            return "jdbc:sqlite:" + dir.resolve("parley.db");
        }

        @Override
        public String name() {
            return "sqlite";
        }

        @Override
        public String uri(Path dir) {
            return "sqlite:" + dir.resolve("parley.db");
        }

        @Override
        public Measured raw(Path dir, int ops) throws Exception {
            Files.createDirectories(dir);
            try (Connection c = AdaptersBenchmark.sqlite(dir.resolve("raw.db"))) {
                return rawInserts(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)",
                        "raw: SQLite one-row INSERT + COMMIT (WAL, FULL)", ops, bytes());
            }
        }

        @Override
        public LongSupplier bytes() {
            return AdaptersBenchmark::writtenBytes;
        }

        @Override
        public void settle(Path dir) throws Exception {
            AdaptersBenchmark.checkpoint(dir.resolve("parley.db"));
        }

        @Override
        public void fillCatalog(Path where, String scope, int sessions) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + where.resolve("parley.db"));
                 PreparedStatement st = c.prepareStatement("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1"
                         + " FROM n WHERE i < ?) INSERT INTO parley_log_sessions (scope_id, id, created_at,"
                         + " updated_at, title, entry_count, message_count) SELECT ?, printf('s%09d', i),"
                         + " 1700000000000 + i, 1700000000000 + (i * 7919) % ?, 'session ' || i, 10, 10 FROM n")) {
                st.setInt(1, sessions);
                st.setString(2, scope);
                st.setInt(3, sessions * 3);
                st.executeUpdate();
            }
        }
    }

    /** The raw medium of a database: one-row INSERT + COMMIT of a line like an append's, one at a time. */
    static Measured rawInserts(Connection c, String createTable, String what, int ops, LongSupplier bytes)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(createTable);
        }
        Random random = new Random(1);
        long[] nanos = new long[ops];
        long before = 0;
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (body) VALUES (?)")) {
            c.setAutoCommit(false);
            for (int i = -WARMUP; i < ops; i++) {
                if (i == 0) {
                    before = bytes.getAsLong();
                }
                String body = line(random);
                long t = System.nanoTime();
                insert.setString(1, body);
                insert.executeUpdate();
                c.commit();
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - t;
                }
            }
        }
        return new Measured(what, nanos, bytes.getAsLong() - before);
    }

    static int parseRows(PreparedStatement st) throws Exception {
        int n = 0;
        try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                rs.getLong(1);
                JACKSON.readTree(rs.getString(2));
                n++;
            }
        }
        return n;
    }

    /** JSONL files: the store's directory, and an append + fdatasync of a line of the same size. */
    static final class Jsonl implements Backend {
        @Override
        public String name() {
            return "jsonl";
        }

        @Override
        public String uri(Path dir) {
            return "jsonl:" + dir;
        }

        @Override
        public Measured raw(Path dir, int ops) throws Exception {
            Files.createDirectories(dir);
            Random random = new Random(1);
            long[] nanos = new long[ops];
            long bytes;
            try (FileChannel ch = FileChannel.open(dir.resolve("raw.jsonl"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                long before = 0;
                for (int i = -WARMUP; i < ops; i++) {
                    if (i == 0) {
                        before = bytes().getAsLong();
                    }
                    byte[] line = line(random).getBytes(StandardCharsets.UTF_8);
                    long t = System.nanoTime();
                    ch.write(ByteBuffer.wrap(line));
                    ch.force(false);
                    if (i >= 0) {
                        nanos[i] = System.nanoTime() - t;
                    }
                }
                bytes = bytes().getAsLong() - before;
            }
            return new Measured("raw: file append + fdatasync", nanos, bytes);
        }

        @Override
        public LongSupplier bytes() {
            return AdaptersBenchmark::writtenBytes;
        }

        @Override
        public int rawReadAndParse(Path dir, SessionId session) throws Exception {
            Path file;
            try (var walk = Files.walk(dir)) {
                file = walk.filter(p -> p.getFileName().toString().equals(session.value() + ".jsonl")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no file for " + session + " in " + dir));
            }
            int n = 0;
            try (BufferedReader in = Files.newBufferedReader(file)) {
                for (String l = in.readLine(); l != null; l = in.readLine()) {
                    JACKSON.readTree(l);
                    n++;
                }
            }
            return n;
        }
    }

    /** PostgreSQL: a database per directory on the embedded server, and a one-row INSERT + COMMIT on it. */
    static final class Postgres extends JdbcBackend {
        private final EmbeddedPostgres server;
        private final Map<Path, String> urls = new LinkedHashMap<>();

        Postgres(EmbeddedPostgres server) {
            this.server = server;
        }

        @Override
        public String name() {
            return "postgres";
        }

        @Override
        String jdbcUrl(Path dir) {
            return url(dir);
        }

        String url(Path dir) {
            return urls.computeIfAbsent(dir, d -> {
                String name = "bench_" + urls.size();
                try (Connection c = server.getPostgresDatabase().getConnection();
                     Statement st = c.createStatement()) {
                    st.execute("CREATE DATABASE " + name + " ENCODING 'UTF8' TEMPLATE template0");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
                return server.getJdbcUrl("postgres", name);
            });
        }

        @Override
        public String uri(Path dir) {
            return "postgres:" + url(dir);
        }

        @Override
        public Measured raw(Path dir, int ops) throws Exception {
            try (Connection c = DriverManager.getConnection(url(dir))) {
                return rawInserts(c, "CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text)",
                        "raw: PostgreSQL one-row INSERT + COMMIT", ops, bytes());
            }
        }

        /** The server's WAL position, in bytes. */
        @Override
        public LongSupplier bytes() {
            return () -> {
                try (Connection c = server.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")) {
                    rs.next();
                    return rs.getLong(1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            };
        }

        @Override
        public void fillCatalog(Path where, String scope, int sessions) throws SQLException {
            try (Connection c = DriverManager.getConnection(url(where));
                 PreparedStatement st = c.prepareStatement("INSERT INTO parley_log_sessions (scope_id, id, created_at,"
                         + " updated_at, title, entry_count, message_count) SELECT ?, 's' || lpad(i::text, 9, '0'),"
                         + " to_timestamp(1700000000 + i), to_timestamp(1700000000 + (i::bigint * 7919) % ?),"
                         + " 'session ' || i, 10, 10 FROM generate_series(1, ?) AS i")) {
                st.setString(1, scope);
                st.setLong(2, sessions * 3L);
                st.setInt(3, sessions);
                st.executeUpdate();
                try (Statement analyze = c.createStatement()) {
                    analyze.execute("VACUUM ANALYZE parley_log_sessions");
                    // The fill and the vacuum dirtied the table's pages: flushed now, not by a checkpoint that would
                    // otherwise come due while the pages are timed and write them beside the reads.
                    analyze.execute("CHECKPOINT");
                }
            }
        }
    }

    // ---- the report ----

    /** Writes the Markdown report and its plots. */
    static final class Report {
        private final Config config;
        private final StringBuilder out;
        private final List<String> met = new ArrayList<>();

        Report(Config config, StringBuilder out) {
            this.config = config;
            this.out = out;
        }

        void header() {
            out.append("# Parley performance report\n\n");
            out.append("Run with:\n\n```sh\nmvn -q -o -pl parley-bench -am package -DskipTests\n"
                    + "java " + HEAP + " -cp parley-bench/target/parley-bench.jar dev.parley.bench.PerformanceReport"
                    + " --out " + config.out() + "\n```\n\n");
            out.append("This run's JVM options: `" + String.join(" ", ManagementFactory.getRuntimeMXBean()
                    .getInputArguments()) + "`. " + (heapIsFixed() ? "The heap is fixed (`-Xms` = `-Xmx`)"
                    : "**The heap was not fixed** (run with `" + HEAP + "`)") + ": a heap that the collector shrinks"
                    + " between measurements and grows again during one charges its growth to whatever load runs"
                    + " then, which made the resume figures swing by up to 2× between runs.\n\n");
            out.append(String.format(Locale.ROOT, "Sizes of this run: %d appends per case after %d warm-up appends"
                    + " (first, unmeasured, each backend's append path ran %,d appends to new sessions and %,d to one"
                    + " session, and its raw medium %,d, since HotSpot's C2 compiles a method only after thousands of"
                    + " calls), lengths %s, writers %s (%d appends in all per case), resume of %s messages,"
                    + " catalog of %,d"
                    + " sessions (%d pages per figure). Java %s, %s, %d cores. Each append is one assistant message"
                    + " of about 1 KB, durable on return (SQLite WAL with synchronous=FULL; JSONL fdatasync;"
                    + " PostgreSQL %s with fsync=on, synchronous_commit=on). Bytes are what this process passed to"
                    + " write() (`wchar` of /proc/self/io: WAL frames, checkpoints, file appends) for SQLite and JSONL,"
                    + " and the WAL the server generated (pg_current_wal_lsn) for PostgreSQL.%n%n",
                    config.ops(), WARMUP, config.ops() * 5, config.warmup(), config.ops() * 5,
                    Arrays.toString(config.lengths()), Arrays.toString(config.writers()),
                    config.throughputOps(), Arrays.toString(config.resume()), config.catalog(),
                    config.catalogSamples(), System.getProperty("java.version"), System.getProperty("os.name"),
                    Runtime.getRuntime().availableProcessors(), config.postgres() ? "17 (embedded)" : "(not run)"));
        }

        void appends(Map<String, List<Measured>> appends, Map<String, Measured> raws, List<Measured> spring)
                throws IOException {
            out.append("## Single-writer append\n\n");
            out.append("| case | p50 ms | p99 ms | mean ms | mean ÷ raw | bytes/append | bytes ÷ raw |\n");
            out.append("|---|---:|---:|---:|---:|---:|---:|\n");
            XYSeriesCollection data = new XYSeriesCollection();
            for (var e : appends.entrySet()) {
                Measured raw = raws.get(e.getKey());
                row(raw, null);
                XYSeries parley = new XYSeries("Parley " + e.getKey());
                XYSeries rawSeries = new XYSeries("raw " + e.getKey());
                double worst = 0;
                for (int i = 0; i < e.getValue().size(); i++) {
                    Measured m = e.getValue().get(i);
                    row(m, raw);
                    parley.add(config.lengths()[i], m.mean());
                    rawSeries.add(config.lengths()[i], raw.mean());
                    worst = Math.max(worst, m.mean() / raw.mean());
                }
                data.addSeries(parley);
                data.addSeries(rawSeries);
                met.add(String.format(Locale.ROOT, "single-writer append on %s within 1.25× of the raw medium at every"
                        + " length: worst %.2f× — %s", e.getKey(), worst, worst <= 1.25 ? "**met**" : "**not met**"));
                if (e.getKey().equals("sqlite")) {
                    double bytes = e.getValue().stream().mapToDouble(Measured::bytesPerOp).max().orElse(0);
                    double ratio = bytes / raw.bytesPerOp();
                    met.add(String.format(Locale.ROOT, "bytes per SQLite append within 1.5× of the raw insert's:"
                            + " worst %.2f× — %s", ratio, ratio <= 1.5 ? "**met**" : "**not met**"));
                }
            }
            Measured sqliteRaw = raws.get("sqlite");
            XYSeries springSeries = new XYSeries("Spring AI JDBC repository (SQLite)");
            for (int i = 0; i < spring.size(); i++) {
                row(spring.get(i), sqliteRaw);
                springSeries.add(config.lengths()[i], spring.get(i).mean());
            }
            data.addSeries(springSeries);
            out.append(String.format(Locale.ROOT, "%nRatios are to the raw medium of the same backend (Spring AI's"
                    + " repository: to the raw SQLite insert), measured before every case (%d appends each time, on a"
                    + " file of its own) with its samples pooled, so that a disk whose speed drifts during the run"
                    + " weighs on both sides. Spring AI's repository saves the whole conversation per append, so it is"
                    + " measured over %d appends per length.%n%n", config.ops(), config.springOps()));
            JFreeChart chart = ChartFactory.createXYLineChart("Durable append against session length",
                    "session length (entries)", "mean ms per append", data, PlotOrientation.VERTICAL, true, false,
                    false);
            XYPlot plot = chart.getXYPlot();
            plot.setDomainAxis(logAxis("session length (entries, log)", 10, "#,##0"));
            plot.setRangeAxis(logAxis("mean ms per append (log)", 10, "#,##0.###"));
            plot.setRenderer(new XYLineAndShapeRenderer(true, true));
            plot(chart, "performance-append.png", "Append time against session length");
        }

        private void row(Measured m, Measured raw) {
            String ratio = raw == null ? "—" : String.format(Locale.ROOT, "%.2f", m.mean() / raw.mean());
            String bytesRatio = raw == null ? "—" : String.format(Locale.ROOT, "%.2f", m.bytesPerOp()
                    / raw.bytesPerOp());
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %s | %,.0f | %s |%n", m.what(), m.p(50),
                    m.p(99), m.mean(), ratio, m.bytesPerOp(), bytesRatio));
        }

        void throughput(Map<String, double[]> throughput, Map<String, Measured> raws) throws IOException {
            out.append("## Throughput with many writers\n\nEach writer appends single messages to a session of its"
                    + " own; appends per second over all writers.\n\n| backend | raw single-writer /s |");
            for (int w : config.writers()) {
                out.append(' ').append(w).append(w == 1 ? " writer" : " writers").append(" |");
            }
            out.append(" 16 ÷ 1 |\n|---|---:|");
            for (int ignored : config.writers()) {
                out.append("---:|");
            }
            out.append("---:|\n");
            XYSeriesCollection data = new XYSeriesCollection();
            for (var e : throughput.entrySet()) {
                Measured raw = raws.get(e.getKey()); // absent when the append section was not run
                out.append("| ").append(e.getKey()).append(raw == null ? " | — |"
                        : String.format(Locale.ROOT, " | %,.0f |", 1000 / raw.mean()));
                XYSeries s = new XYSeries(e.getKey());
                double one = 0;
                double sixteen = 0;
                for (int i = 0; i < config.writers().length; i++) {
                    out.append(String.format(Locale.ROOT, " %,.0f |", e.getValue()[i]));
                    s.add(config.writers()[i], e.getValue()[i]);
                    if (config.writers()[i] == 1) {
                        one = e.getValue()[i];
                    }
                    if (config.writers()[i] == 16) {
                        sixteen = e.getValue()[i];
                    }
                }
                double gain = one == 0 ? 0 : sixteen / one;
                out.append(String.format(Locale.ROOT, " %.2f |%n", gain));
                data.addSeries(s);
                double target = e.getKey().equals("jsonl") ? 3 : 5;
                met.add(String.format(Locale.ROOT, "16 writers ≥ %.0f× one writer on %s: %.2f× — %s", target,
                        e.getKey(), gain, gain >= target ? "**met**" : "**not met**"));
            }
            out.append('\n');
            JFreeChart chart = ChartFactory.createXYLineChart("Throughput against writers", "writers",
                    "appends per second", data, PlotOrientation.VERTICAL, true, false, false);
            chart.getXYPlot().setDomainAxis(logAxis("writers (log)", 2, "#,##0"));
            chart.getXYPlot().setRenderer(new XYLineAndShapeRenderer(true, true));
            plot(chart, "performance-throughput.png", "Throughput against writers");
        }

        void resumeHeader() {
            out.append("## Resume\n\nOne session of alternating user and assistant messages (about 300 B and 1 KB);"
                    + " best of 7 loads (3 of a million messages) after one untimed load of each kind. Raw: the same"
                    + " rows (or lines) read and each parsed with Jackson into a tree."
                    + " Held: the heap that the loaded entries (or conversation) keep, measured after a full collection"
                    + " with the result still referenced. Peak: the highest heap use during the load, above what was in"
                    + " use before it; it counts garbage not yet collected, so with the fixed heap it follows what a"
                    + " load allocates rather than what it needs.\n\n"
                    + "| backend | messages | raw ms | entries ms | ÷ raw | conversation ms | ÷ raw | entries held MB |"
                    + " conversation held MB | raw peak MB | entries peak MB | conversation peak MB |\n"
                    + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        }

        void resume(Backend b, Resume r, int size) {
            out.append(String.format(Locale.ROOT, "| %s | %,d | %.0f | %.0f | %.2f | %.0f | %.2f | %.0f | %.0f | %.0f |"
                            + " %.0f | %.0f |%n", b.name(), size, r.rawMillis(), r.entriesMillis(),
                    r.entriesMillis() / r.rawMillis(), r.conversationMillis(), r.conversationMillis() / r.rawMillis(),
                    r.entriesHeld() / 1e6, r.conversationHeld() / 1e6, r.rawHeap() / 1e6, r.entriesHeap() / 1e6,
                    r.conversationHeap() / 1e6));
            if (size == 100_000 || size == config.resume()[0]) {
                double worst = Math.max(r.entriesMillis(), r.conversationMillis()) / r.rawMillis();
                met.add(String.format(Locale.ROOT, "a %,d-message session loads on %s within 1.5× of the raw"
                        + " read-and-parse, as entries and as a conversation: worst %.2f× — %s", size, b.name(), worst,
                        worst <= 1.5 ? "**met**" : "**not met**"));
            }
        }

        void catalogHeader() {
            out.append("\n## Catalog\n\nPages of 50 by `SessionCatalog.list` (keyset cursor), over sessions created in"
                    + " bulk in one scope; deep pages start at cursors spread over the second half of the order.\n\n"
                    + "| backend | sessions | first page p50 ms | p99 ms | deep page p50 ms | p99 ms |\n"
                    + "|---|---:|---:|---:|---:|---:|\n");
        }

        void catalog(String backend, Catalog c) {
            out.append(String.format(Locale.ROOT, "| %s | %,d | %.3f | %.3f | %.3f | %.3f |%n", backend,
                    config.catalog(), c.first().p(50), c.first().p(99), c.deep().p(50), c.deep().p(99)));
            double worst = Math.max(c.first().p(99), c.deep().p(99));
            met.add(String.format(Locale.ROOT, "catalog pages of 50 over %,d sessions on %s with p99 ≤ 5 ms: %.2f ms"
                    + " — %s", config.catalog(), backend, worst, worst <= 5 ? "**met**" : "**not met**"));
        }

        void footer(double seconds) {
            out.append("\n## Targets of issue 12\n\n");
            for (String m : met) {
                out.append("- ").append(m).append('\n');
            }
            out.append(String.format(Locale.ROOT, "%nThe run took %.0f s.%n", seconds));
        }

        /** A logarithmic axis with a tick at each power of {@code base}, labelled as plain numbers. */
        private static LogAxis logAxis(String label, double base, String format) {
            LogAxis axis = new LogAxis(label);
            axis.setBase(base);
            axis.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(1));
            axis.setNumberFormatOverride(new java.text.DecimalFormat(format, java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT)));
            return axis;
        }

        private void plot(JFreeChart chart, String name, String title) throws IOException {
            Path dir = config.out().toAbsolutePath().getParent();
            Files.createDirectories(dir);
            ChartUtils.saveChartAsPNG(dir.resolve(name).toFile(), chart, 900, 500);
            out.append("![").append(title).append("](").append(name).append(")\n\n");
        }
    }
}
