package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ServerMain;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appends through {@code remote:} while the server — a JVM of its own ({@link ServerMain} on SQLite) — is killed with
 * SIGKILL and started again {@value #DEFAULT_KILLS} times (and once kept down for several timeouts). After a final sync,
 * every acknowledged entry is on the server exactly once, in per-agent order, and nothing is left only in the
 * fallback store. {@code -Dparley.fault.kills=N} changes the number of kills.
 */
class RemoteFaultTest {
    static final int DEFAULT_KILLS = 100;
    static final long TIMEOUT_MILLIS = 300;
    static final SessionId SESSION = new SessionId("fault");

    private static final HttpClient PROBE = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void append_serverKilledAndRestarted_losesAndDuplicatesNothing() throws Exception {
        int kills = Integer.getInteger("parley.fault.kills", DEFAULT_KILLS);
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String backend = "sqlite:" + dir.resolve("server.db");
        String share = classDataArchive(port);

        String uri = TestServers.remote("http://127.0.0.1:" + port, dir, "&parley.timeout=" + TIMEOUT_MILLIS
                + "&parley.breaker.window=4&parley.breaker.open=200&parley.replay=100");
        Map<AgentId, List<EntryId>> acknowledged = new HashMap<>();
        AtomicInteger appends = new AtomicInteger();
        RemoteFallbackTest.Events events = new RemoteFallbackTest.Events();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        Process server = null;
        int done = 0;
        long startNanos = 0;
        int direct = 0;
        int directDuringKills = 0;
        long started = System.nanoTime();
        try (Store store = Stores.open(uri)) {
            RemoteStore remote = (RemoteStore) store;
            remote.addListener(events);
            for (int w = 0; w < 2; w++) {
                AgentId agent = new AgentId("agent-" + w);
                List<EntryId> acks = new CopyOnWriteArrayList<>();
                acknowledged.put(agent, acks);
                Thread t = new Thread(() -> {
                    IdGenerator ids = IdGenerator.uuidV7();
                    try {
                        for (int i = 0; !stop.get(); i++) {
                            EntryId first = ids.newEntryId();
                            EntryId second = ids.newEntryId();
                            store.log().append(SESSION, agent, List.of(
                                    NewEntry.of(first, null, Instant.now(), Message.user(agent + " " + i)),
                                    NewEntry.of(second, first, Instant.now(), Message.text(dev.parley.core.model.Role.ASSISTANT, agent + " reply " + i))),
                                    Usage.of(1, 1));
                            acks.add(first);
                            acks.add(second);
                            appends.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "writer-" + w);
                writers.add(t);
                t.start();
            }
            Random random = new Random(42);
            for (; done < kills; done++) {
                long t0 = System.nanoTime();
                server = startServer(backend, port, share);
                awaitUp(port);
                startNanos += System.nanoTime() - t0;
                // Writes wait behind the journal until it is replayed (order); once it is, they go straight to this
                // server, so that the kill below lands on appends in flight, not only on replays.
                long drainedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (remote.stats().pending() > 0 && System.nanoTime() < drainedBy) {
                    Thread.sleep(10);
                }
                int fallbacksBeforeKill = events.fallbacks.get();
                int appendsBeforeKill = appends.get();
                Thread.sleep(150 + random.nextInt(300)); // let appends reach this server
                server.destroyForcibly().waitFor();
                directDuringKills += (appends.get() - appendsBeforeKill) - (events.fallbacks.get() - fallbacksBeforeKill);
                if (done == kills / 2) {
                    Thread.sleep(TIMEOUT_MILLIS * 5); // an outage several timeouts long
                }
            }
            server = startServer(backend, port, share);
            awaitUp(port);
            long drained = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (remote.stats().pending() > 0 && System.nanoTime() < drained) {
                Thread.sleep(20); // the background replay drains the journal while the writers go on
            }
            int fallbacksBefore = events.fallbacks.get();
            int appendsBefore = appends.get();
            Thread.sleep(300); // appends straight to a healthy server again
            direct = (appends.get() - appendsBefore) - (events.fallbacks.get() - fallbacksBefore);
            stop.set(true);
            for (Thread t : writers) {
                t.join(30_000);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            SyncReport sync = remote.sync();
            while (sync.pending() > 0 && System.nanoTime() < deadline) {
                sync = remote.sync();
            }
            assertThat(failure.get()).isNull();
            assertThat(sync.pending()).isZero();
            assertThat(remote.stats().conflicts()).isZero();
        } finally {
            stop.set(true);
            if (server != null) {
                server.destroyForcibly().waitFor();
            }
        }

        int lost = 0;
        int duplicated = 0;
        int total = 0;
        try (Store onServer = Stores.open(backend); Store fallback = Stores.open("sqlite:" + dir.resolve("fallback.db"))) {
            List<Entry> all = onServer.log().load(SESSION, null);
            Map<EntryId, Integer> count = new HashMap<>();
            all.forEach(e -> count.merge(e.id(), 1, Integer::sum));
            for (var agentAcks : acknowledged.entrySet()) {
                List<EntryId> acks = agentAcks.getValue();
                total += acks.size();
                for (EntryId id : acks) {
                    int n = count.getOrDefault(id, 0);
                    lost += n == 0 ? 1 : 0;
                    duplicated += Math.max(0, n - 1);
                }
                List<EntryId> serverOrder = onServer.log().load(SESSION, agentAcks.getKey()).stream().map(Entry::id)
                        .filter(acks::contains).toList();
                assertThat(serverOrder).as("per-agent order of " + agentAcks.getKey()).isEqualTo(acks);
            }
            List<EntryId> onlyInFallback = fallback.log().load(SESSION, null).stream().map(Entry::id)
                    .filter(id -> !count.containsKey(id)).toList();
            System.out.printf(Locale.ROOT, "fault test: kills %d, appends %d (%d entries; %d straight to the servers that were killed, %d"
                            + " straight to the healthy server at the end), fallbacks %d, replays %d, lost %d,"
                            + " duplicated %d, only in the fallback %d, %d s (server start %d ms on average, %s)%n", done, appends.get(), total,
                    directDuringKills, direct,
                    events.fallbacks.get(), events.replays.get(), lost, duplicated, onlyInFallback.size(),
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
                    TimeUnit.NANOSECONDS.toMillis(startNanos / Math.max(1, done)), share);
            assertThat(onlyInFallback).isEmpty();
        }
        assertThat(directDuringKills).as("appends that reached the servers that were killed").isPositive();
        assertThat(done).isEqualTo(kills);
        assertThat(lost).isZero();
        assertThat(duplicated).isZero();
        assertThat(events.fallbacks.get()).isPositive();
        assertThat(events.replays.get()).isPositive();
    }

    /**
     * The JVM option that makes the server's hundred starts quicker: a class-data archive of the server's classes
     * ({@code -XX:SharedArchiveFile}), written by one server started and stopped (SIGTERM, a normal exit) before the
     * test, on a store of its own. A JVM can archive classes only from jar files, so where the server's class path
     * has a directory (a build that did not package the modules) the option is {@code -Xshare:auto} and the starts
     * are slower, not different. Measured with 20 kills on the 2-core machine: 2.1 s per start without the archive,
     * 1.2 s with it; 101 s and 76 s for the whole test.
     */
    private String classDataArchive(int port) throws IOException, InterruptedException {
        if (!SERVER_CLASS_PATH.stream().allMatch(entry -> entry.endsWith(".jar"))) {
            return "-Xshare:auto";
        }
        Path archive = dir.resolve("server.jsa");
        Process warmup = startServer("sqlite:" + dir.resolve("warmup.db"), port, "-XX:ArchiveClassesAtExit=" + archive);
        try {
            awaitUp(port);
            try (Store store = Stores.open(TestServers.remote("http://127.0.0.1:" + port,
                    Files.createDirectories(dir.resolve("warmup")), ""))) {
                store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(new EntryId("warmup"), null,
                        Instant.now(), Message.user("load the append path's classes"))), Usage.of(1, 1));
                store.log().load(SESSION, null);
            }
        } finally {
            warmup.destroy(); // SIGTERM: the JVM exits normally and writes the archive
            if (!warmup.waitFor(60, TimeUnit.SECONDS)) {
                warmup.destroyForcibly().waitFor();
                Files.deleteIfExists(archive); // perhaps written in part
            }
        }
        return Files.isRegularFile(archive) ? "-XX:SharedArchiveFile=" + archive : "-Xshare:auto";
    }

    /** The test's class path less this module's own class directories, which the server does not load from. */
    private static final List<String> SERVER_CLASS_PATH = Arrays.stream(
                    System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !Path.of(entry).toAbsolutePath().startsWith(Path.of("target").toAbsolutePath()))
            .toList();

    private Process startServer(String backend, int port, String jvmOption) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", jvmOption, "-cp",
                String.join(File.pathSeparator, SERVER_CLASS_PATH), ServerMain.class.getName(), "--store",
                backend, "--port", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("server.log").toFile())).start();
    }

    /** Waits until the server answers a request (its port accepts connections before its routes are ready). */
    private static void awaitUp(int port) throws InterruptedException {
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/health"))
                .timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                if (PROBE.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the server did not answer on port " + port + " within 60 s");
    }
}
