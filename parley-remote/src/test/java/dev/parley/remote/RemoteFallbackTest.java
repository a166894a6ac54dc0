package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.parley.core.AgentId;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fallback, the breaker and the replay, against real sockets: a server that accepts and never answers, a server
 * that is stopped and started again on the same port, and a real server's 4xx answers.
 */
class RemoteFallbackTest {
    static final SessionId SESSION = new SessionId("s1");
    static final IdGenerator IDS = IdGenerator.uuidV7();

    @TempDir
    Path dir;

    static NewEntry entry(String text) {
        return NewEntry.of(IDS.newEntryId(), null, Instant.now(), Message.user(text));
    }

    /** A server on SQLite in this test's directory, which a test stops and starts again on the same port. */
    final class Restartable implements AutoCloseable {
        final Store backend = Stores.open("sqlite:" + dir.resolve("server.db"));
        final int port;
        private final ServerConfig config;
        private ParleyServer server;

        Restartable(ServerConfig config) {
            this.config = config;
            this.server = ParleyServer.start(backend, config.withPort(0));
            this.port = server.port();
        }

        /** The {@code remote:} URI of a client with a 1 s timeout and no background replay, and {@code extra}. */
        String client(String extra) {
            return TestServers.remote("http://127.0.0.1:" + port, dir, "&parley.timeout=1000&parley.replay=600000"
                    + extra);
        }

        void stop() {
            server.close();
        }

        void start() {
            server = ParleyServer.start(backend, config.withPort(port));
        }

        @Override
        public void close() {
            server.close();
            backend.close();
        }
    }

    static final class Events implements RemoteListener {
        /** Events that listen to {@code store} from now on. */
        static Events of(RemoteStore store) {
            Events events = new Events();
            store.addListener(events);
            return events;
        }

        final AtomicInteger fallbacks = new AtomicInteger();
        final AtomicInteger replays = new AtomicInteger();
        final List<String> conflicts = new CopyOnWriteArrayList<>();
        /** Why each call fell back, in order. */
        final List<String> causes = new CopyOnWriteArrayList<>();

        @Override
        public void fellBack(String operation, Throwable cause) {
            fallbacks.incrementAndGet();
            causes.add(operation + ": " + cause.getMessage());
        }

        @Override
        public void replayed(String operation) {
            replays.incrementAndGet();
        }

        @Override
        public void conflict(String operation, ParleyException cause) {
            conflicts.add(operation + ": " + cause.stableCode());
        }
    }

    /** A socket that accepts connections and never answers. */
    static final class Silent implements AutoCloseable {
        final ServerSocket socket;
        final List<Socket> held = new CopyOnWriteArrayList<>();

        Silent() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        held.add(socket.accept());
                    }
                } catch (IOException closed) {
                    // closed by the test
                }
            });
            t.setDaemon(true);
            t.start();
        }

        /** Bytes the clients sent that are waiting, unread, on the held connections. */
        long bytesReceived() throws IOException {
            long total = 0;
            for (Socket s : held) {
                total += s.getInputStream().available();
            }
            return total;
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void append_serverThatNeverAnswers_fallsBackWithinTheTimeout_andWithBreakerOpenAtOnce() throws Exception {
        try (Silent silent = new Silent();
             Store store = Stores.open(TestServers.remote("http://127.0.0.1:" + silent.socket.getLocalPort(), dir,
                     "&parley.timeout=400&parley.breaker.window=2&parley.breaker.open=60000"))) {
            RemoteStore remote = (RemoteStore) store;
            Events events = Events.of(remote);

            long t0 = System.nanoTime();
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("first")), Usage.ZERO);
            long firstMillis = (System.nanoTime() - t0) / 1_000_000;

            assertThat(firstMillis).isBetween(400L, 400L + 3000L);
            assertThat(events.fallbacks.get()).isEqualTo(1);
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("second")), Usage.ZERO);
            assertThat(remote.stats().breaker()).isEqualTo("OPEN");

            // With the breaker open the append does not wait for the server: nothing is sent to it at all.
            long sentBefore = silent.bytesReceived();
            int connectionsBefore = silent.held.size();
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("third")), Usage.ZERO);

            assertThat(silent.held.size()).isEqualTo(connectionsBefore);
            assertThat(silent.bytesReceived()).isEqualTo(sentBefore);
            assertThat(events.fallbacks.get()).isEqualTo(3);
            assertThat(remote.stats().pending()).isEqualTo(3);
            assertThat(store.log().load(SESSION, null)).extracting(e -> e.message().text())
                    .containsExactly("first", "second", "third");
        }
    }

    /** Regression: a URL that is not a Parley server (its 404 page) was reported as invalid input (exit code 2). */
    @Test
    void aServerThatIsNotParley_isNamedSo_asUnavailable_andIsNotAFallback() throws Exception {
        HttpServer other = answering(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
                404, "text/html", "<html><body>Not Found</body></html>");
        try (Store store = Stores.open(TestServers.remote("http://127.0.0.1:" + other.getAddress().getPort(), dir,
                ""))) {
            assertThatThrownBy(() -> store.catalog().orElseThrow().list(null, 10))
                    .isInstanceOf(dev.parley.core.UnavailableException.class)
                    .hasMessageContaining("answered HTTP 404 without a problem document")
                    .hasMessageContaining("a Parley server");
            assertThat(((RemoteStore) store).stats().fallbacks()).isZero();
        } finally {
            other.stop(0);
        }
    }

    /**
     * Found by a review: a server answering 200 with a body that is not JSON, or with {@code {}}, was invalid input
     * (exit code 2: "missing field 'id'"), and {@code {}} passed the health check; both are "not a Parley server",
     * unavailable (7), and neither is a fallback.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"{}", "<html>ok</html>"})
    void aServerAnswering200WithWhatIsNotParleys_isNamedSo_asUnavailable_andIsNotAFallback(String answer)
            throws Exception {
        HttpServer other = answering(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
                200, "application/json", answer);
        try (Store store = Stores.open(TestServers.remote("http://127.0.0.1:" + other.getAddress().getPort(), dir,
                ""))) {
            RemoteStore remote = (RemoteStore) store;
            assertThatThrownBy(() -> store.catalog().orElseThrow().find(SESSION))
                    .isInstanceOf(dev.parley.core.UnavailableException.class)
                    .hasMessageContaining("a Parley server (parley serve)");
            assertThatThrownBy(() -> store.catalog().orElseThrow().list(null, 10)) // {} was an empty list
                    .isInstanceOf(dev.parley.core.UnavailableException.class);
            assertThatThrownBy(() -> store.catalog().orElseThrow().delete(SESSION)) // {} was "not deleted"
                    .isInstanceOf(dev.parley.core.UnavailableException.class);
            assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(IDS.newEntryId(),
                    null, Instant.now(), Message.user("a"))), Usage.ZERO))
                    .isInstanceOf(dev.parley.core.UnavailableException.class);
            assertThatThrownBy(remote::status).isInstanceOf(dev.parley.core.UnavailableException.class)
                    .hasMessageContaining("/v1/health");
            assertThat(remote.stats().fallbacks()).isZero();
            assertThat(remote.stats().pending()).isZero();
        } finally {
            other.stop(0);
        }
    }

    @Test
    void answers4xx_areNotFallbacks_butTheSameExceptionType() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             Store store = Stores.open(TestServers.remote(served.url(), dir, ""))) {
            RemoteStore remote = (RemoteStore) store;
            EntryId id = IDS.newEntryId();
            store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(id, null, Instant.now(), Message.user("a"))),
                    Usage.ZERO);

            assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN,
                    List.of(NewEntry.of(id, null, Instant.now(), Message.user("b"))), Usage.ZERO))
                    .isInstanceOf(EntryConflictException.class)
                    .satisfies(e -> assertThat(((EntryConflictException) e).entry()).isEqualTo(id));
            assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN,
                    List.of(NewEntry.of(IDS.newEntryId(), IDS.newEntryId(), Instant.now(), Message.user("c"))),
                    Usage.ZERO)).isInstanceOf(InvalidInputException.class);
            assertThat(remote.stats().fallbacks()).isZero();
        }
    }

    /**
     * A write larger than the server accepts fell back while the server was down, was acknowledged, and was then
     * refused (413) at its replay: acknowledged, but never on the server. It does not fall back now; while the server
     * is up, the server's 413 is the answer (the client's limit is not applied); a write within the limit still falls
     * back.
     */
    @Test
    void appendOverTheServersBodyLimit_whileTheServerIsDown_isRefusedNotAcknowledgedByTheFallback() throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults().withMaxBodyBytes(4096));
             Store store = Stores.open(server.client("&parley.maxBody=4096"))) {
            RemoteStore remote = (RemoteStore) store;
            String large = "x".repeat(5000);
            assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN, List.of(entry(large)), Usage.ZERO))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("413").hasMessageNotContaining("parley.maxBody");
            server.stop();

            assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN, List.of(entry(large)), Usage.ZERO))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("4096").hasMessageContaining("parley.maxBody")
                    .hasMessageContaining("nothing was written");
            assertThat(remote.stats().pending()).isZero();
            assertThat(remote.stats().fallbacks()).isZero();
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("small")), Usage.ZERO);
            assertThat(remote.stats().pending()).isEqualTo(1);

            server.start();
            assertThat(remote.sync()).isEqualTo(new SyncReport(1, 0, 0, null));
            assertThat(server.backend.log().load(SESSION, AgentId.MAIN)).extracting(e -> e.message().text())
                    .containsExactly("small");
        }
    }

    /**
     * The fault: every call that fell back logged a warning of its own, so an outage under a busy agent wrote one per
     * message (42,320 in one run of the fault test). Now an outage warns once, and the server's return says how many
     * calls fell back.
     */
    @Test
    void callsThatFallBackInOneOutage_warnOnce_andTheServersReturnCountsThem() throws Exception {
        List<String> lines = loggedInAnOutage((server, store) -> {
            for (int i = 0; i < 5; i++) {
                store.log().append(SESSION, AgentId.MAIN, List.of(entry("during " + i)), Usage.ZERO);
            }
            server.start();
            assertThat(((RemoteStore) store).sync().replayed()).isEqualTo(5);
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("after")), Usage.ZERO);
            server.stop();
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("in the second outage")), Usage.ZERO);
        });
        assertThat(lines.stream().filter(l -> l.contains("append fell back to")).toList()).hasSize(2)
                .allMatch(l -> l.contains("WARN") && l.contains("further fallbacks are logged at DEBUG"));
        assertThat(lines).anyMatch(l -> l.contains("INFO") && l.contains("the server answers again; calls that fell back")
                && l.endsWith("meanwhile: 5"));
    }

    /** What happens in an outage: the server was stopped after one append, and is stopped again when this ends. */
    interface InAnOutage {
        void run(Restartable server, Store store) throws Exception;
    }

    /**
     * The lines logged while {@code body} runs, from a client of a server that answered one append and then stopped.
     * slf4j-simple, the tests' binding, writes to {@code System.err} as it is at each line (test classes run one at a
     * time in this module).
     */
    private List<String> loggedInAnOutage(InAnOutage body) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        try (Restartable server = new Restartable(ServerConfig.defaults());
             Store store = Stores.open(server.client(""))) {
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("before")), Usage.ZERO);
            server.stop();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            body.run(server, store);
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /**
     * Found by a review: only a successful answer ended an outage in the log, so when the server came back and
     * answered nothing but errors before it went down again, the second outage was logged at DEBUG only.
     */
    @Test
    void anErrorAnswerBetweenTwoOutages_endsTheFirst_soTheSecondWarnsAgain() throws Exception {
        List<String> lines = loggedInAnOutage((server, store) -> {
            store.log().load(SESSION, AgentId.MAIN); // a read falls back; nothing is journaled
            server.start();
            assertThat(store.catalog().orElseThrow().find(new SessionId("no-such-session"))).isEmpty(); // a 404
            server.stop();
            store.log().load(SESSION, AgentId.MAIN);
        });
        assertThat(lines.stream().filter(l -> l.contains("WARN") && l.contains("load fell back to")).toList())
                .hasSize(2);
        assertThat(lines).anyMatch(l -> l.contains("INFO") && l.endsWith("meanwhile: 1"));
    }

    /**
     * Found by a newcomer's trial: a call that fell back behind writes still pending (every command after the first of
     * an outage, each a new process) gave as its cause only "writes that fell back are not replayed yet", and the
     * server's own failure — the refused connection that stopped the replay — was said nowhere.
     */
    @Test
    void aCallBehindPendingWrites_fallsBackNamingWhyTheirReplayStopped() throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults())) {
            server.stop();
            try (Store first = Stores.open(server.client(""))) {
                first.log().append(SESSION, AgentId.MAIN, List.of(entry("during")), Usage.ZERO);
            }
            try (Store next = Stores.open(server.client(""))) { // the next command: a process of its own
                Events events = Events.of((RemoteStore) next);
                next.log().load(SESSION, AgentId.MAIN);
                next.log().append(SESSION, AgentId.MAIN, List.of(entry("later")), Usage.ZERO);

                assertThat(events.causes).hasSize(2).allSatisfy(cause -> assertThat(cause)
                        .contains("earlier writes that fell back are not replayed yet: POST ")
                        .contains(" failed: ConnectException"));
                assertThat(events.causes.get(0)).startsWith("load: 1 earlier writes");
                assertThat(events.causes.get(1)).startsWith("append: 1 earlier writes");
            }
        }
    }

    @Test
    void writesThatFellBack_areReplayedOnceInOrder_andAConflictIsReported() throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults());
             Store store = Stores.open(server.client(""))) {
            Store backend = server.backend;
            RemoteStore remote = (RemoteStore) store;
            Events events = Events.of(remote);
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("before")), Usage.ZERO);
            server.stop();

            List<String> written = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                written.add("during " + i);
                store.log().append(SESSION, AgentId.MAIN, List.of(entry("during " + i)), Usage.of(1, 0));
            }
            EntryId disputed = IDS.newEntryId();
            store.log().append(SESSION, new AgentId("worker"),
                    List.of(NewEntry.of(disputed, null, Instant.now(), Message.user("client's"))), Usage.ZERO);
            backend.log().append(SESSION, new AgentId("worker"),
                    List.of(NewEntry.of(disputed, null, Instant.now(), Message.user("server's"))), Usage.ZERO);
            assertThatThrownBy(() -> store.sessions().orElseThrow().create(ChatSession.builder("r", Instant.now())
                    .build())).isInstanceOf(UnavailableException.class);
            assertThat(events.fallbacks.get()).isEqualTo(4);
            assertThat(remote.stats().pending()).isEqualTo(4);

            server.start();
            SyncReport report = remote.sync();

            assertThat(report).isEqualTo(new SyncReport(3, 1, 0, null));
            assertThat(events.replays.get()).isEqualTo(3);
            assertThat(events.conflicts).containsExactly("append: ENTRY_CONFLICT");
            List<Entry> onServer = backend.log().load(SESSION, AgentId.MAIN);
            assertThat(onServer).extracting(e -> e.message().text())
                    .containsExactly("before", "during 0", "during 1", "during 2");
            assertThat(backend.log().loadUsage(SESSION, AgentId.MAIN).inputTokens()).isEqualTo(3);
            assertThat(backend.log().load(SESSION, new AgentId("worker"))).extracting(e -> e.message().text())
                    .containsExactly("server's");
            assertThat(remote.sync()).isEqualTo(new SyncReport(0, 0, 0, null));
            assertThat(remote.status().conflicts()).isEqualTo(1);
            assertThat(store.log().load(SESSION, AgentId.MAIN)).hasSize(4);
        }
    }

    /**
     * Found by a breaker: a session created while the server was down got, on the server, the time of the replay as
     * its creation time (the create was journaled without one, so the server took its own clock's), while the
     * fallback store kept the time it was created.
     */
    @Test
    void sessionCreatedDuringAnOutage_keepsItsCreationTimeOnTheServerAfterTheReplay() throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults());
             Store store = Stores.open(server.client(""))) {
            server.stop();
            SessionInfo created = store.catalog().orElseThrow().create(new NewSession(new SessionId("made-offline"),
                    "made offline", null, Map.of()));
            Thread.sleep(50); // the replay happens later than the creation, by more than the times' millisecond
            server.start();
            assertThat(((RemoteStore) store).sync().replayed()).isEqualTo(1);

            SessionInfo onServer = server.backend.catalog().orElseThrow().find(new SessionId("made-offline"))
                    .orElseThrow();
            assertThat(onServer.createdAt()).isEqualTo(created.createdAt());
            assertThat(onServer.title()).isEqualTo("made offline");
        }
    }

    /**
     * Found by a review: a conditional append that fell back (as a plain append, its Javadoc says) was journaled as
     * the conditional request and replayed so: another writer's entry on the server in the meantime made the replay a
     * conflict, and the message acknowledged by the fallback never reached the server.
     */
    @Test
    void conditionalAppendThatFellBack_isReplayedAsThePlainAppendTheFallbackMade() throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults());
             Store store = Stores.open(server.client(""))) {
            RemoteStore remote = (RemoteStore) store;
            NewEntry first = entry("first");
            store.log().append(SESSION, AgentId.MAIN, List.of(first), Usage.ZERO);
            server.stop();

            NewEntry checked = entry("checked"); // no parent: the fallback store holds no "first"
            store.log().appendIfLast(SESSION, AgentId.MAIN, first.id(), List.of(checked), Usage.ZERO);
            assertThat(remote.stats().pending()).isEqualTo(1);
            server.backend.log().append(SESSION, AgentId.MAIN, List.of(entry("another writer's")), Usage.ZERO);

            server.start();
            assertThat(remote.sync()).isEqualTo(new SyncReport(1, 0, 0, null));
            assertThat(server.backend.log().load(SESSION, AgentId.MAIN)).extracting(e -> e.message().text())
                    .containsExactly("first", "another writer's", "checked");
        }
    }

    /**
     * Found by a review of the chat memories' read-free update: a conditional append that fell back was appended
     * whatever the fallback held, so two writers sharing the fallback during an outage both continued after the same
     * entry: the second, which the server would have refused, was acknowledged, and its writer went on from a view
     * without the other's entry.
     */
    @Test
    void conditionalAppendThatFellBack_afterAnotherWriterContinuedInTheFallback_isRefusedAndNotJournaled()
            throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults());
             Store store = Stores.open(server.client(""))) {
            RemoteStore remote = (RemoteStore) store;
            server.stop();
            NewEntry a = entry("a");
            store.log().append(SESSION, AgentId.MAIN, List.of(a), Usage.ZERO);
            store.log().appendIfLast(SESSION, AgentId.MAIN, a.id(), List.of(entry("b")), Usage.ZERO);

            assertThatThrownBy(() -> store.log().appendIfLast(SESSION, AgentId.MAIN, a.id(), List.of(entry("c")),
                    Usage.ZERO)).isInstanceOf(LastEntryMovedException.class);
            assertThat(remote.stats().pending()).isEqualTo(2);

            server.start();
            assertThat(remote.sync()).isEqualTo(new SyncReport(2, 0, 0, null));
            assertThat(server.backend.log().load(SESSION, AgentId.MAIN)).extracting(e -> e.message().text())
                    .containsExactly("a", "b");
        }
    }

    /**
     * Found by a review: a replay answered by something that is not a Parley server (a page without a problem
     * document) was filed as a conflict — a verdict on the write that no Parley server gave; it stays pending.
     */
    @Test
    void replayAnsweredByWhatIsNotAParleyServer_keepsTheWritesPending_notConflicts() throws Exception {
        try (Restartable server = new Restartable(ServerConfig.defaults());
             Store store = Stores.open(server.client(""))) {
            RemoteStore remote = (RemoteStore) store;
            server.stop();
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("while down")), Usage.ZERO);
            assertThat(remote.stats().pending()).isEqualTo(1);

            HttpServer other = answering(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    server.port), 0), 404, "text/html", "<html>maintenance</html>");
            try {
                SyncReport report = remote.sync();
                assertThat(report.conflicts()).isZero();
                assertThat(report.pending()).isEqualTo(1);
                assertThat(remote.stats().conflicts()).isZero();
            } finally {
                other.stop(0);
            }

            server.start();
            assertThat(remote.sync()).isEqualTo(new SyncReport(1, 0, 0, null));
            assertThat(server.backend.log().load(SESSION, AgentId.MAIN)).extracting(e -> e.message().text())
                    .containsExactly("while down");
        }
    }

    /**
     * A replay the server refuses for this client's credentials (401: no token) is not a verdict on the writes: they
     * stay pending, not filed as conflicts, and go through once a token the server takes is given.
     */
    @Test
    void replayRefusedForCredentials_keepsTheWritesPending_notConflicts() throws Exception {
        Store backend = Stores.open("sqlite:" + dir.resolve("server.db"));
        ServerConfig withTokens = ServerConfig.defaults()
                .withTokens(dev.parley.server.Tokens.of(java.util.Map.of("token-of-the-client-0123", "default")));
        ParleyServer server = ParleyServer.start(backend, ServerConfig.defaults().withPort(0));
        int port = server.port();
        server.close(); // the server is down: the writes fall back
        String uri = TestServers.remote("http://127.0.0.1:" + port, dir, "&parley.timeout=1000&parley.replay=600000");
        try (Store store = Stores.open(uri)) {
            RemoteStore remote = (RemoteStore) store;
            Events events = Events.of(remote);
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("one")), Usage.ZERO);
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("two")), Usage.ZERO);
            assertThat(remote.stats().pending()).isEqualTo(2);

            server = ParleyServer.start(backend, withTokens.withPort(port)); // back, now asking for a token
            SyncReport refused = remote.sync();

            assertThat(refused.replayed()).isZero();
            assertThat(refused.conflicts()).isZero();
            assertThat(refused.pending()).isEqualTo(2);
            assertThat(refused.stoppedBy()).contains("401") // and, found by a newcomer's trial, where a token goes
                    .contains("this client sent no token: give one with parley.token=TOKEN")
                    .contains("PARLEY_REMOTE_TOKEN");
            assertThat(events.conflicts).isEmpty();
            assertThat(remote.stats().conflicts()).isZero();
            assertThat(backend.log().load(SESSION, null)).isEmpty();
        }
        try (Store store = Stores.open(uri + "&parley.token=token-of-the-client-0123")) {
            assertThat(((RemoteStore) store).sync()).isEqualTo(new SyncReport(2, 0, 0, null));
            assertThat(backend.log().load(SESSION, AgentId.MAIN)).extracting(e -> e.message().text())
                    .containsExactly("one", "two");
        } finally {
            server.close();
            backend.close();
        }
    }

    static final String NOT_TLS = "does not speak TLS";
    static final String CERTIFICATE = "does not accept the server's certificate";
    static final String REFUSED = "the server refused the TLS handshake";

    /**
     * Found by a newcomer's trial: an {@code https:} address of a plain HTTP server (parley serve speaks HTTP) failed
     * in TLS, was taken for an outage, and every call fell back, journaling writes for a server that would never take
     * them. Now it is the configuration's error, with nothing written anywhere.
     */
    @Test
    void httpsAddressOfAPlainHttpServer_isMisconfigured_notAFallback() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"))) {
            String https = "https://127.0.0.1:" + served.server().port();
            assertMisconfiguredWithoutFallback(TestServers.remote(https, dir, "&parley.timeout=2000"), NOT_TLS);
            assertThat(served.store().log().load(SESSION, null)).isEmpty();
        }
    }

    /** The same for a TLS server whose certificate the JVM does not trust (self-signed, made here by keytool). */
    @Test
    void untrustedCertificate_isMisconfigured_notAFallback() throws Exception {
        KeyStore keys = selfSigned();
        HttpsServer server = httpsServer(keys);
        try {
            assertMisconfiguredWithoutFallback(TestServers.remote("https://127.0.0.1:" + server.getAddress().getPort(),
                    dir, "&parley.timeout=2000"), CERTIFICATE);
        } finally {
            server.stop(0);
        }
    }

    /**
     * Found by a review: a server that refuses the handshake with a fatal alert (here bad_certificate: it requires a
     * client certificate, which this client has none of) was still an outage. The JVM trusts the server's certificate.
     */
    @Test
    void serverRequiringAClientCertificate_isMisconfigured_notAFallback() throws Exception {
        KeyStore keys = selfSigned();
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, "changeit".toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(managers.getKeyManagers(), null, null);
        // A TLS socket that checks the client's certificate during the handshake, as a server of client certificates
        // does (com.sun.net.httpserver's closes without the alert).
        SSLServerSocket server = (SSLServerSocket) serverTls.getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getLoopbackAddress());
        server.setNeedClientAuth(true);
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    socket.startHandshake();
                } catch (IOException refusedOrClosed) {
                    // the handshake fails here too, after the alert went to the client
                }
            }
        }, "tls-refusing-server");
        acceptor.setDaemon(true);
        acceptor.start();
        SSLContext before = SSLContext.getDefault();
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        SSLContext trusting = SSLContext.getInstance("TLS");
        trusting.init(null, trust.getTrustManagers(), null);
        SSLContext.setDefault(trusting); // the remote store's client is built with the default context
        try {
            assertMisconfiguredWithoutFallback(TestServers.remote("https://127.0.0.1:" + server.getLocalPort(), dir,
                    "&parley.timeout=2000"), REFUSED);
        } finally {
            SSLContext.setDefault(before);
            server.close();
        }
    }

    /**
     * Found by a review: with writes already pending from an earlier outage, a call replays them first; a replay
     * stopped by the configuration made the call fall back behind them, hiding the misconfiguration after all.
     */
    @Test
    void misconfiguredServer_withWritesPending_failsTheCall_insteadOfFallingBackBehindThem() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String uri = TestServers.remote("https://127.0.0.1:" + port, dir, "&parley.timeout=2000&parley.replay=600000");
        try (Store store = Stores.open(uri)) {
            RemoteStore remote = (RemoteStore) store;
            Events events = Events.of(remote);
            store.log().append(SESSION, AgentId.MAIN, List.of(entry("while nothing listens")), Usage.ZERO);
            assertThat(remote.stats().pending()).isEqualTo(1); // an outage: it fell back

            Store backend = Stores.open("sqlite:" + dir.resolve("server.db"));
            ParleyServer plain = ParleyServer.start(backend, ServerConfig.defaults().withPort(port));
            try {
                assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN, List.of(entry("two")), Usage.ZERO))
                        .isInstanceOf(InvalidInputException.class).hasMessageContaining(NOT_TLS);
                assertThatThrownBy(() -> store.log().load(SESSION, null)).isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining(NOT_TLS);
                assertThat(remote.stats().pending()).isEqualTo(1);
                assertThat(events.fallbacks.get()).isEqualTo(1);
                assertThat(events.conflicts).isEmpty();
            } finally {
                plain.close();
                backend.close();
            }
        }
    }

    /** Found by a review: the live event stream took a TLS misconfiguration for a break and reconnected forever. */
    @Test
    void follow_ofAPlainHttpServerAtAnHttpsAddress_endsWithTheError_insteadOfReconnectingForever() {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             Store store = Stores.open(TestServers.remote("https://127.0.0.1:" + served.server().port(), dir,
                     "&parley.timeout=2000"))) {
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(
                    () -> ((RemoteStore) store).follow(SESSION, 0, e -> true))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining(NOT_TLS));
        }
    }

    /** A self-signed key pair for 127.0.0.1, made by the JDK's keytool. */
    private KeyStore selfSigned() throws Exception {
        Path keystore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
                "-alias", "server", "-keyalg", "EC", "-dname", "CN=127.0.0.1", "-ext", "SAN=IP:127.0.0.1",
                "-validity", "2").redirectErrorStream(true).start();
        assertThat(keytool.waitFor()).as(new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keystore)) {
            keys.load(in, "changeit".toCharArray());
        }
        return keys;
    }

    /** A TLS server on loopback that answers every request with {@code {}}. */
    private static HttpsServer httpsServer(KeyStore keys) throws Exception {
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, "changeit".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(managers.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        return answering(server, 200, "application/json", "{}");
    }

    /** {@code server}, started, answering every request with {@code status} and {@code body}. */
    private static <S extends HttpServer> S answering(S server, int status, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    /**
     * An append and a read through {@code uri} fail as misconfigured with the hint of their cause and no other;
     * nothing fell back, nothing is pending.
     */
    private void assertMisconfiguredWithoutFallback(String uri, String hint) {
        try (Store store = Stores.open(uri)) {
            RemoteStore remote = (RemoteStore) store;
            Events events = Events.of(remote);
            Throwable thrown = catchThrowable(() -> store.log().append(SESSION, AgentId.MAIN, List.of(entry("one")),
                    Usage.ZERO));
            assertThat(thrown).isInstanceOf(InvalidInputException.class).hasMessageContaining("failed in TLS")
                    .hasMessageContaining(hint);
            for (String other : List.of(NOT_TLS, CERTIFICATE, REFUSED)) {
                if (!other.equals(hint)) {
                    assertThat(thrown).hasMessageNotContaining(other);
                }
            }
            assertThatThrownBy(() -> store.log().load(SESSION, null)).isInstanceOf(InvalidInputException.class);
            assertThat(events.fallbacks.get()).isZero();
            assertThat(remote.stats().pending()).isZero();
        }
        try (Store fallback = Stores.open("sqlite:" + dir.resolve("fallback.db"))) {
            assertThat(fallback.log().load(SESSION, null)).isEmpty();
        }
    }
}
