package dev.parley.bench;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.remote.RemoteStore;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * One durable append through {@code remote:} (JSON over HTTP on loopback to a {@code parley serve} in this JVM) beside
 * the same append on the server's own store, measured in one run, on SQLite and on JSONL: the price of the network hop,
 * the JSON codec and the server.
 *
 * <p>Usage: {@code java -cp parley-bench/target/parley-bench.jar dev.parley.bench.RemoteAppendBenchmark [--ops N]
 * [--dir DIR] [--report FILE]}. Each append is the same 1 KB assistant message as {@link AppendBenchmark}'s, chained to
 * the previous entry, durable on return.
 */
public final class RemoteAppendBenchmark {
    private static final int WARMUP = 100;

    private RemoteAppendBenchmark() {}

    /**
     * Runs the cases on SQLite and on JSONL, prints the report on standard output (progress on standard error) and
     * writes it to a file.
     *
     * @param args {@code --ops N}: measured appends per case (default 400); {@code --dir DIR}: the working directory
     *     (default {@code parley-bench/target/bench-remote}), deleted with everything in it before the run and again
     *     after it; {@code --report FILE}: where the Markdown report goes (default
     *     {@code parley-bench/target/remote-append-report.md}, its directory created)
     * @throws IllegalArgumentException if an argument is unknown
     * @throws NumberFormatException if {@code N} is not an integer
     * @throws ArrayIndexOutOfBoundsException if the last option has no value
     * @throws IllegalStateException if a remote append fell back to the local store, which voids the measurement
     * @throws Exception if a store, the server or the file system fails; no report is written, and the working
     *     directory is left as the run left it
     */
    public static void main(String[] args) throws Exception {
        AppendBenchmark.Options o = AppendBenchmark.Options.parse(args, "bench-remote", "remote-append-report.md");
        int ops = o.ops();
        Path dir = o.dir();
        Path report = o.report();
        AppendBenchmark.deleteTree(dir);
        Files.createDirectories(dir);
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        List<AppendBenchmark.Row> rows = new ArrayList<>();
        for (String backend : List.of("sqlite:" + dir.resolve("server.db"), "jsonl:" + dir.resolve("server-jsonl"))) {
            try (Store store = Stores.open(backend);
                 ParleyServer server = ParleyServer.start(store, ServerConfig.defaults().withPort(0))) {
                String remoteUri = "remote:" + server.uri() + "?parley.fallback="
                        + URLEncoder.encode("sqlite:" + dir.resolve("fallback.db"), StandardCharsets.UTF_8)
                        + "&parley.journal=" + URLEncoder.encode(dir.resolve("journal.jsonl").toString(),
                        StandardCharsets.UTF_8);
                String name = backend.substring(0, backend.indexOf(':'));
                try (Store remote = Stores.open(remoteUri)) {
                    // interleaved: the two cases see the same disk and the same machine load
                    long[][] both = measure(store.log(), remote.log(), ops);
                    rows.add(new AppendBenchmark.Row(name + ": append on the server's own store", both[0]));
                    rows.add(new AppendBenchmark.Row(name + ": the same append through remote:", both[1]));
                    if (((RemoteStore) remote).stats().fallbacks() > 0) {
                        throw new IllegalStateException("a remote append fell back; the measurement is void");
                    }
                }
            }
        }
        String text = render(rows, ops, String.join(" ", args), started, System.nanoTime() - t0, loadBefore);
        System.out.println(text);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, text);
        System.err.println("report written to " + report.toAbsolutePath());
        AppendBenchmark.deleteTree(dir);
    }

    /** The report: the run's conditions, the table, and per backend the price of the hop in ms and as a ratio. */
    static String render(List<AppendBenchmark.Row> rows, int ops, String args, Instant started, long elapsedNanos,
            double loadBefore) {
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        StringBuilder out = new StringBuilder("# Append through remote: beside the server's own store\n\n");
        out.append(String.format(Locale.ROOT, "Run with `java -cp parley-bench/target/parley-bench.jar "
                + "dev.parley.bench.RemoteAppendBenchmark %s`, %s, in %.0f s. %s; load average %.2f before "
                + "the run and %.2f after it.%n%n", args, DateTimeFormatter.ISO_INSTANT.format(started.truncatedTo(
                ChronoUnit.SECONDS)), elapsedNanos / 1e9, machine(), loadBefore, loadAfter));
        out.append(String.format(Locale.ROOT, "%,d appends per case after %d warm-up appends, one after the other in "
                + "a single thread, alternating own store and remote so that both see the same disk and the same "
                + "machine load. Each append is one assistant message of about 1 KB chained to the previous entry "
                + "of one session per side (which grows to %,d entries), durable when the call returns (SQLite WAL "
                + "with synchronous=FULL; JSONL fdatasync). \"Own store\" is `MessageLog.append` on the store the "
                + "server serves; \"remote:\" is the same call through a `remote:` store, one POST per append: JSON "
                + "over HTTP/1.1 on loopback to a `parley serve` (default configuration, no token) in this JVM, so "
                + "client and server share the machine's cores and no network latency is included. No remote append "
                + "fell back (a fallback voids the run).%n%n", ops, WARMUP, ops + WARMUP));
        out.append("| case | p50 ms | p99 ms | mean ms | appends/s | p50 ÷ own store | mean ÷ own store |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < rows.size(); i++) {
            AppendBenchmark.Row r = rows.get(i);
            AppendBenchmark.Row local = rows.get(i - i % 2);
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %,.0f | %s | %s |%n", r.what(),
                    r.percentileMillis(50), r.percentileMillis(99), r.meanMillis(), 1000 / r.meanMillis(),
                    r == local ? "—" : String.format(Locale.ROOT, "%.2f", r.percentileMillis(50)
                            / local.percentileMillis(50)),
                    r == local ? "—" : String.format(Locale.ROOT, "%.2f", r.meanMillis() / local.meanMillis())));
        }
        out.append("\n## What the hop costs\n\n");
        for (int i = 0; i + 1 < rows.size(); i += 2) {
            AppendBenchmark.Row local = rows.get(i);
            AppendBenchmark.Row remote = rows.get(i + 1);
            String backend = local.what().substring(0, local.what().indexOf(':'));
            out.append(String.format(Locale.ROOT, "- %s: an append through `remote:` takes %.2f ms p50 against "
                    + "%.2f ms on the server's own store, **%.2f×** (mean %.2f×); the hop adds %.2f ms at p50 "
                    + "(%.2f ms on the mean); p99 %.2f ms against %.2f ms.%n", backend, remote.percentileMillis(50),
                    local.percentileMillis(50),
                    remote.percentileMillis(50) / local.percentileMillis(50), remote.meanMillis() / local.meanMillis(),
                    remote.percentileMillis(50) - local.percentileMillis(50), remote.meanMillis() - local.meanMillis(),
                    remote.percentileMillis(99), local.percentileMillis(99)));
        }
        out.append("\nThe added time is the HTTP round trip on loopback, the JSON codec on both sides and the "
                + "server's request handling, on the same cores as the store's own work. Over a real network, add "
                + "the network's round-trip time to every append.\n");
        return out.toString();
    }

    /** The operating system, the processor and the cores, as far as the JVM and /proc tell. */
    private static String machine() {
        String cpu = "";
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu = lines.filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst().map(m -> ", " + m).orElse("");
        } catch (IOException | UncheckedIOException e) {
            // not Linux: the processor goes unnamed
        }
        return String.format(Locale.ROOT, "%s %s %s, %d cores%s, Java %s", System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), cpu, System.getProperty("java.version"));
    }

    private static long[][] measure(MessageLog local, MessageLog remote, int ops) {
        IdGenerator ids = IdGenerator.uuidV7();
        Random random = new Random(7);
        SessionId localSession = ids.newSessionId();
        SessionId remoteSession = ids.newSessionId();
        AgentId agent = AgentId.MAIN;
        long[][] nanos = new long[2][ops];
        var parents = new dev.parley.core.EntryId[2];
        for (int i = -WARMUP; i < ops; i++) {
            for (int side = 0; side < 2; side++) {
                MessageLog log = side == 0 ? local : remote;
                NewEntry e = NewEntry.of(ids.newEntryId(), parents[side], null, AppendBenchmark.message(random));
                long t0 = System.nanoTime();
                log.append(side == 0 ? localSession : remoteSession, agent, List.of(e), Usage.ZERO);
                long t = System.nanoTime() - t0;
                parents[side] = e.id();
                if (i >= 0) {
                    nanos[side][i] = t;
                }
            }
        }
        return nanos;
    }
}
