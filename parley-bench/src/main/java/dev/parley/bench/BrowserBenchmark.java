package dev.parley.bench;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Server time of the session browser's pages on a large store: the session list over 100,000 sessions (first page, a
 * page deep in the walk, an id-prefix search, a filtered walk) and the first and last windows of a 10,000-entry
 * session (and its whole tree), each measured as the time of a GET on loopback to a {@code parley serve} in this JVM
 * (the page is built from the store and rendered; the client only reads the body).
 *
 * <p>Usage: {@code java -cp parley-bench/target/parley-bench.jar dev.parley.bench.BrowserBenchmark [--sessions N]
 * [--entries N] [--requests N] [--dir DIR] [--report FILE]}. The store is a SQLite file in {@code DIR}
 * ({@code parley-bench/target/bench-browser/browser.db}); it is seeded through the message log (durable appends, one per session) and kept,
 * so a second run measures at once. Writes {@code parley-bench/reports/browser.md}.
 */
public final class BrowserBenchmark {
    private static final int WARMUP = 50;
    private static final AgentId MAIN = new AgentId("main");
    private static final AgentId WORKER = new AgentId("worker");
    private static final SessionId BIG = new SessionId("big-session");
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private BrowserBenchmark() {}

    record Case(String what, long[] nanos, int bytes) {
        double percentileMillis(int p) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, i)] / 1e6;
        }

        double meanMillis() {
            return Arrays.stream(nanos).average().orElse(0) / 1e6;
        }
    }

    /**
     * Seeds the store where it lacks sessions, measures every page, prints the report on standard output (progress on
     * standard error) and writes it to a file. The store is kept for the next run.
     *
     * @param args option and value pairs: {@code --sessions N} (default 100,000), {@code --entries N} (the big
     *     session's entries, default 10,000), {@code --requests N} (measured requests per case, default 200; the
     *     filtered walk and the tree take a tenth, at least 10), {@code --dir DIR} (default
     *     {@code parley-bench/target/bench-browser}) and {@code --report FILE} (default
     *     {@code parley-bench/reports/browser.md}, its directory created)
     * @throws IllegalArgumentException if an option is unknown or has no value, or {@code --entries} is 150 or less
     *     (the last window measured is the last 150 entries)
     * @throws NumberFormatException if {@code N} is not an integer
     * @throws IllegalStateException if the big session does not hold {@code --entries} entries (an earlier run seeded
     *     it with another number, and a kept big session is not seeded again: choose another {@code --dir})
     * @throws Exception if the store, the server, a request or the file system fails; no report is written
     */
    public static void main(String[] args) throws Exception {
        int sessions = 100_000;
        int entries = 10_000;
        int requests = 200;
        Path dir = Path.of("parley-bench", "target", "bench-browser");
        Path report = Path.of("parley-bench", "reports", "browser.md");
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--sessions" -> sessions = Integer.parseInt(args[i + 1]);
                case "--entries" -> entries = Integer.parseInt(args[i + 1]);
                case "--requests" -> requests = Integer.parseInt(args[i + 1]);
                case "--dir" -> dir = Path.of(args[i + 1]);
                case "--report" -> report = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (entries <= 150) {
            throw new IllegalArgumentException("--entries must be above 150 (the last window measured is the last"
                    + " 150 entries), got " + entries);
        }
        Files.createDirectories(dir);
        String uri = "sqlite:" + dir.resolve("browser.db");
        List<Case> cases = new ArrayList<>();
        long seedNanos;
        try (Store store = Stores.open(uri)) {
            long t0 = System.nanoTime();
            seed(store, sessions, entries);
            seedNanos = System.nanoTime() - t0;
            // The big session as an earlier run may have seeded it (a kept session is not seeded again): its own
            // size, checked before anything is measured; the last window is its last 150 entries.
            List<Entry> big = store.log().load(BIG, null);
            if (big.size() != entries) {
                throw new IllegalStateException("the big session in " + dir + " holds " + big.size()
                        + " entries, not --entries " + entries + " (an earlier run seeded it; a kept session is not"
                        + " seeded again: choose another --dir)");
            }
            SessionCatalog catalog = store.catalog().orElseThrow();
            String deep = cursorAt(catalog, sessions / 2);
            String prefix = String.format(Locale.ROOT, "s-%08d", sessions / 3).substring(0, 8);
            try (ParleyServer server = ParleyServer.start(store, ServerConfig.defaults().withPort(0))) {
                String base = server.uri().toString();
                cases.add(measure(base, "/", "list: first page (25 of " + sessions + ")", requests));
                cases.add(measure(base, "/?cursor=" + deep, "list: the page after " + sessions / 2
                        + " sessions (keyset cursor)", requests));
                cases.add(measure(base, "/?q=" + prefix, "list: id-prefix search (" + prefix + ")", requests));
                cases.add(measure(base, "/?format=claude-code", "list: a format filter no session matches (walks"
                        + " its budget of 2,000 sessions)", Math.max(10, requests / 10)));
                cases.add(measure(base, "/s/" + BIG.value(), "session: first window (200 of " + entries
                        + " entries)", requests));
                long tailAfter = big.get(big.size() - 151).seq();
                cases.add(measure(base, "/s/" + BIG.value() + "?after=" + tailAfter, "session: the last window (150"
                        + " entries, live)", requests));
                cases.add(measure(base, "/s/" + BIG.value() + "/tree", "tree of the " + entries
                        + "-entry session (loads it whole)", Math.max(10, requests / 10)));
            }
        }
        StringBuilder out = new StringBuilder("# The session browser's server time\n\n");
        out.append(String.format(Locale.ROOT, "A SQLite store of %,d sessions (one entry each, durable appends; seeded in"
                        + " %.1f s, or reused) plus one session of %,d entries (two agents, tool calls with results,"
                        + " usage on every assistant message). Each case is a GET on loopback to a server in the same JVM:"
                        + " the page is read from the store and rendered by the precompiled templates. " + WARMUP + " warm-up requests"
                        + " per case, then the count given; Java %s, %d cores.%n%n", sessions, seedNanos / 1e9, entries,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors()));
        out.append("| page | requests | p50 ms | p99 ms | mean ms | page KiB |\n|---|---:|---:|---:|---:|---:|\n");
        for (Case c : cases) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.0f |%n", c.what(), c.nanos().length,
                    c.percentileMillis(50), c.percentileMillis(99), c.meanMillis(), c.bytes() / 1024.0));
        }
        out.append("\nThe list reads one keyset page of the catalog and, per listed session, its stored per-agent usage"
                + " (`MessageLog.loadAgentUsage`, an index lookup); the session view reads one window of entries"
                + " (`MessageLog.loadAfter`, an index range). Neither grows with the number of sessions or entries."
                + " A filter on fields the catalog does not index walks keyset pages up to a budget per request and"
                + " offers to continue (docs/10-session-browser.md); the tree loads the whole session.\n");
        System.out.println(out);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, out.toString());
        System.err.println("report written to " + report.toAbsolutePath());
    }

    /** Seeds the sessions that are missing: N one-entry sessions, and the big multi-agent session. */
    static void seed(Store store, int sessions, int entries) {
        SessionCatalog catalog = store.catalog().orElseThrow();
        if (catalog.find(BIG).isEmpty()) {
            List<NewEntry> batch = new ArrayList<>();
            EntryId parent = null;
            for (int i = 0; i < entries; i++) {
                EntryId id = new EntryId("e" + i);
                Message m = switch (i % 4) {
                    case 0 -> Message.user("prompt " + i + ": please look at the build output and fix what fails");
                    case 1 -> Message.builder(Role.ASSISTANT).content(List.of(new ContentBlock.Thinking(
                            "thinking about step " + i, null), new ContentBlock.ToolCall("call-" + i, "bash",
                            RawJson.of("{\"cmd\":\"mvn -q verify -pl module-" + i + "\"}"))))
                            .usage(new Usage(1500, 120, 9000, 0, 0, new BigDecimal("0.0042"))).build();
                    case 2 -> Message.toolResults(List.of(ContentBlock.ToolResult.text("call-" + (i - 1), "bash",
                            "BUILD SUCCESS\n".repeat(20), false)));
                    default -> Message.builder(Role.ASSISTANT).content(List.of(new ContentBlock.Text(
                            "Step " + i + " is done; the build passes."))).usage(Usage.of(800, 60)).build();
                };
                batch.add(NewEntry.of(id, parent, null, m));
                parent = id;
                if (batch.size() == 100) {
                    store.log().append(BIG, (i / 100) % 2 == 0 ? MAIN : WORKER, batch, Usage.ZERO);
                    batch = new ArrayList<>();
                }
            }
            if (!batch.isEmpty()) {
                store.log().append(BIG, MAIN, batch, Usage.ZERO);
            }
        }
        long have = countTo(catalog, sessions + 1) - 1; // the big session is not one of them
        for (long i = Math.max(0, have - 1); i < sessions; i++) { // the last one again: an append already held is a no-op
            SessionId id = new SessionId(String.format(Locale.ROOT, "s-%08d", i));
            store.log().append(id, i % 7 == 0 ? WORKER : MAIN, List.of(NewEntry.of(new EntryId("e"), null, null,
                    Message.user("session " + i))), i % 3 == 0 ? Usage.of(100, 10) : Usage.ZERO);
            if (i % 10_000 == 0) {
                System.err.println("seeded " + i + " sessions");
            }
        }
    }

    /** How many sessions the catalog holds, counted by keyset pages, stopping at {@code max}. */
    private static long countTo(SessionCatalog catalog, int max) {
        long n = 0;
        String cursor = null;
        do {
            SessionPage page = catalog.list(cursor, SessionCatalog.MAX_PAGE_SIZE);
            n += page.sessions().size();
            cursor = page.nextCursor();
        } while (cursor != null && n < max);
        return n;
    }

    private static String cursorAt(SessionCatalog catalog, int offset) {
        String cursor = null;
        int n = 0;
        while (n < offset) {
            SessionPage page = catalog.list(cursor, SessionCatalog.MAX_PAGE_SIZE);
            n += page.sessions().size();
            cursor = page.nextCursor();
            if (cursor == null) {
                break;
            }
        }
        return cursor;
    }

    private static Case measure(String base, String target, String what, int requests)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + target)).timeout(Duration.ofSeconds(60)).build();
        int bytes = 0;
        for (int i = 0; i < WARMUP; i++) {
            HttpResponse<byte[]> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException(target + " answered " + r.statusCode() + ": "
                        + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
            }
            bytes = r.body().length;
        }
        long[] nanos = new long[requests];
        for (int i = 0; i < requests; i++) {
            long t0 = System.nanoTime();
            CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
            nanos[i] = System.nanoTime() - t0;
        }
        System.err.printf(Locale.ROOT, "%s: mean %.2f ms%n", what, Arrays.stream(nanos).average().orElse(0) / 1e6);
        return new Case(what, nanos, bytes);
    }
}
