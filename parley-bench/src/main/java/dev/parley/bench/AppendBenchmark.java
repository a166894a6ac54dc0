package dev.parley.bench;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The cost of one durable append, at session length 10 and at 10,000, on SQLite and on JSONL, beside the raw disk
 * figures measured in the same run: a plain file append with fsync, and a one-row SQLite transaction
 * (WAL, synchronous=FULL). The claim under test: an append never rewrites what is stored, so its cost does not grow
 * with the session's length.
 *
 * <p>Usage: {@code java -jar parley-bench/target/parley-bench.jar [--ops N] [--dir DIR] [--report FILE]}.
 * Each append is one assistant message of about 1 KB (text, a tool call, usage), written the way an agent writes it:
 * through a {@link AgentSession}, chained to the previous entry, durable when the call returns. "Length 10" is
 * measured over many sessions that each hold 10 entries; "length 10,000" over one session that holds 10,000.
 */
public final class AppendBenchmark {
    private static final int WARMUP = 50;

    private AppendBenchmark() {}

    /**
     * Runs every case, prints the report on standard output (progress on standard error) and writes it to a file.
     *
     * @param args {@code --ops N}: measured appends per case (default 400); {@code --dir DIR}: the working directory
     *     (default {@code parley-bench/target/bench-data}), deleted with everything in it before the run and again
     *     after it; {@code --report FILE}: where the Markdown report goes (default
     *     {@code parley-bench/target/append-report.md}, its directory created)
     * @throws IllegalArgumentException if an argument is unknown
     * @throws NumberFormatException if {@code N} is not an integer
     * @throws ArrayIndexOutOfBoundsException if the last option has no value
     * @throws Exception if a store, SQLite or the file system fails; no report is written, and the working
     *     directory is left as the run left it
     */
    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, "bench-data", "append-report.md");
        int ops = o.ops();
        Path dir = o.dir();
        Path report = o.report();
        deleteTree(dir);
        Files.createDirectories(dir);
        List<Row> rows = new ArrayList<>();
        System.err.printf(Locale.ROOT, "measuring %d appends per case in %s%n", ops, dir.toAbsolutePath());
        rows.add(rawFileAppend(dir.resolve("raw.log"), ops));
        rows.add(rawSqliteTransaction(dir.resolve("raw.db"), ops));
        for (String backend : List.of("sqlite", "jsonl")) {
            for (int length : new int[] {10, 10_000}) {
                rows.add(parleyAppend(backend, dir.resolve(backend + "-" + length), length, ops));
            }
        }
        String text = render(rows, ops);
        System.out.println(text);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, text);
        System.err.println("report written to " + report.toAbsolutePath());
        deleteTree(dir);
    }

    /** The command line of a benchmark: {@code [--ops N] [--dir DIR] [--report FILE]}. */
    record Options(int ops, Path dir, Path report) {
        static Options parse(String[] args, String defaultDir, String defaultReport) {
            int ops = 400;
            Path dir = Path.of("parley-bench/target/" + defaultDir);
            Path report = Path.of("parley-bench/target/" + defaultReport);
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--ops" -> ops = Integer.parseInt(args[++i]);
                    case "--dir" -> dir = Path.of(args[++i]);
                    case "--report" -> report = Path.of(args[++i]);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]
                            + "; usage: [--ops N] [--dir DIR] [--report FILE]");
                }
            }
            return new Options(ops, dir, report);
        }
    }

    /** One measured case: latencies in nanoseconds. */
    record Row(String what, long[] nanos) {
        double percentileMillis(double p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
            return sorted[Math.max(0, i)] / 1e6;
        }

        double meanMillis() {
            return Arrays.stream(nanos).average().orElse(0) / 1e6;
        }
    }

    static Row rawFileAppend(Path file, int ops) throws IOException {
        byte[] line = ("{\"pad\":\"" + "x".repeat(1000) + "\"}\n").getBytes(StandardCharsets.UTF_8);
        long[] nanos = new long[ops];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            for (int i = -WARMUP; i < ops; i++) {
                long t = System.nanoTime();
                ch.write(ByteBuffer.wrap(line));
                ch.force(false);
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - t;
                }
            }
        }
        return new Row("raw: file append of 1 KB + fdatasync", nanos);
    }

    static Row rawSqliteTransaction(Path file, int ops) throws SQLException {
        long[] nanos = new long[ops];
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("PRAGMA synchronous=FULL");
                st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
            }
            String body = "x".repeat(1000);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (body) VALUES (?)")) {
                c.setAutoCommit(false);
                for (int i = -WARMUP; i < ops; i++) {
                    long t = System.nanoTime();
                    insert.setString(1, body);
                    insert.executeUpdate();
                    c.commit();
                    if (i >= 0) {
                        nanos[i] = System.nanoTime() - t;
                    }
                }
            }
        }
        return new Row("raw: SQLite one-row transaction (WAL, FULL)", nanos);
    }

    static Row parleyAppend(String backend, Path where, int length, int ops) throws IOException {
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        IdGenerator ids = options.ids();
        Random random = new Random(length);
        long[] nanos = new long[ops];
        String uri = backend.equals("sqlite") ? "sqlite:" + where.resolve("parley.db") : "jsonl:" + where;
        try (Store store = Stores.open(uri, options)) {
            MessageLog log = store.log();
            // Sessions to append to: for length 10, one per measured append, so each append lands at length 10.
            int sessions = length <= 10 ? ops + WARMUP : 1;
            List<AgentSession> handles = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                SessionId session = ids.newSessionId();
                fill(log, session, length, ids, random);
                handles.add(new AgentSession(log, session, AgentId.MAIN, ids, Clock.systemUTC()));
            }
            for (int i = -WARMUP; i < ops; i++) {
                AgentSession handle = handles.get(sessions == 1 ? 0 : i + WARMUP);
                Message m = message(random);
                long t = System.nanoTime();
                handle.appendMessages(List.of(m));
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - t;
                }
            }
        }
        return new Row(String.format(Locale.ROOT, "Parley %s append at length %,d", backend, length), nanos);
    }

    /** Fills a session to {@code length} entries in batches (fast, not measured). */
    static void fill(MessageLog log, SessionId session, int length, IdGenerator ids, Random random) {
        var parent = (dev.parley.core.EntryId) null;
        int done = 0;
        while (done < length) {
            int n = Math.min(1000, length - done);
            List<NewEntry> batch = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                var id = ids.newEntryId();
                batch.add(NewEntry.of(id, parent, null, message(random)));
                parent = id;
            }
            log.append(session, AgentId.MAIN, batch);
            done += n;
        }
    }

    static Message message(Random random) {
        return Message.builder(dev.parley.core.model.Role.ASSISTANT)
                .add(new ContentBlock.Text("reply " + random.nextLong() + " " + "lorem ipsum dolor sit amet ".repeat(30)))
                .add(new ContentBlock.ToolCall("call_" + random.nextInt(1_000_000), "read",
                        dev.parley.core.RawJson.of("{\"path\":\"/src/Main.java\"}")))
                .provider("anthropic").model("claude-opus-4-5").usage(Usage.of(1200, 90)).build();
    }

    static String render(List<Row> rows, int ops) {
        Row rawFile = rows.get(0);
        Row rawSqlite = rows.get(1);
        StringBuilder out = new StringBuilder();
        out.append("# Durable append: Parley beside the raw disk\n\n");
        out.append(String.format(Locale.ROOT, "%d appends per case after %d warm-up appends; one message of about 1 KB per "
                + "append, durable on return. Java %s, %s, %d cores.%n%n", ops, WARMUP,
                System.getProperty("java.version"), System.getProperty("os.name"), Runtime.getRuntime().availableProcessors()));
        out.append("| case | p50 ms | p99 ms | mean ms | appends/s | mean ÷ raw |\n");
        out.append("|---|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            Row raw = r.what().contains("sqlite") ? rawSqlite : rawFile;
            String ratio = r == rawFile || r == rawSqlite ? "—" : String.format(Locale.ROOT, "%.2f × %s", r.meanMillis()
                    / raw.meanMillis(), raw == rawFile ? "file" : "SQLite");
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %,.0f | %s |%n", r.what(),
                    r.percentileMillis(50), r.percentileMillis(99), r.meanMillis(), 1000 / r.meanMillis(), ratio));
        }
        for (String backend : List.of("sqlite", "jsonl")) {
            Row small = rows.stream().filter(r -> r.what().contains(backend + " append at length 10 ")
                    || r.what().endsWith(backend + " append at length 10")).findFirst().orElseThrow();
            Row big = rows.stream().filter(r -> r.what().contains(backend) && r.what().contains("10,000")).findFirst()
                    .orElseThrow();
            out.append(String.format(Locale.ROOT, "%nParley %s: mean at length 10,000 ÷ mean at length 10 = **%.2f** "
                    + "(p50 %.2f)", backend, big.meanMillis() / small.meanMillis(),
                    big.percentileMillis(50) / small.percentileMillis(50)));
        }
        out.append("\n");
        return out.toString();
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
