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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    public static void main(String[] args) throws Exception {
        AppendBenchmark.Options o = AppendBenchmark.Options.parse(args, "bench-remote", "remote-append-report.md");
        int ops = o.ops();
        Path dir = o.dir();
        Path report = o.report();
        AppendBenchmark.deleteTree(dir);
        Files.createDirectories(dir);
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
        StringBuilder out = new StringBuilder("# Append through remote: beside the server's own store\n\n");
        out.append(String.format(Locale.ROOT, "%d appends per case after %d warm-up appends, alternating local and "
                + "remote; loopback HTTP/1.1; Java %s, %d cores.%n%n", ops, WARMUP,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors()));
        out.append("| case | p50 ms | p99 ms | mean ms | appends/s | mean ÷ local |\n|---|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < rows.size(); i++) {
            AppendBenchmark.Row r = rows.get(i);
            AppendBenchmark.Row local = rows.get(i - i % 2);
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %,.0f | %s |%n", r.what(),
                    r.percentileMillis(50), r.percentileMillis(99), r.meanMillis(), 1000 / r.meanMillis(),
                    r == local ? "—" : String.format(Locale.ROOT, "%.2f", r.meanMillis() / local.meanMillis())));
        }
        System.out.println(out);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, out.toString());
        System.err.println("report written to " + report.toAbsolutePath());
        AppendBenchmark.deleteTree(dir);
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
