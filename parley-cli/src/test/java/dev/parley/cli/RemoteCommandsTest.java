package dev.parley.cli;

import static dev.parley.cli.RecordsCommandsTest.parley;
import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.cli.RecordsCommandsTest.Run;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley conformance}, {@code tail} and {@code remote} against a real server on loopback. */
class RemoteCommandsTest {
    @TempDir
    Path dir;
    Store backend;
    ParleyServer server;

    @BeforeEach
    void start() {
        backend = Stores.open("sqlite:" + dir.resolve("server.db"));
        server = ParleyServer.start(backend, ServerConfig.defaults().withPort(0));
    }

    @AfterEach
    void stop() {
        server.close();
        backend.close();
    }

    private String remote(String extra) {
        return "remote:" + server.uri() + "?parley.fallback="
                + URLEncoder.encode("sqlite:" + dir.resolve("fallback.db"), StandardCharsets.UTF_8)
                + "&parley.journal=" + URLEncoder.encode(dir.resolve("journal.jsonl").toString(), StandardCharsets.UTF_8)
                + extra;
    }

    private void append(String session, String text) {
        backend.log().append(new SessionId(session), AgentId.MAIN, List.of(NewEntry.of(
                IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user(text))), Usage.ZERO);
    }

    @Test
    void conformance_remoteStore_passesAgainstARunningServer() {
        Run run = parley("--store", remote(""), "conformance");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("conformance of remote:");
    }

    @Test
    void tail_remote_printsTheLastEntriesThenFollows() throws Exception {
        append("chat", "one");
        append("chat", "two");
        StringWriter out = new StringWriter();
        CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> ParleyCommand.run(new String[] {
                "--store", remote(""), "tail", "chat", "-n", "1", "--count", "2"}, new PrintWriter(out),
                new PrintWriter(new StringWriter())));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!out.toString().contains("two") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        append("chat", "three");

        assertThat(tail.get(20, TimeUnit.SECONDS)).isZero();
        assertThat(out.toString().lines().toList()).containsExactly("2 main user: two", "3 main user: three");
    }

    @Test
    void tail_localStore_pollsTheLog() throws Exception {
        String local = "sqlite:" + dir.resolve("local.db");
        try (Store store = Stores.open(local)) {
            store.log().append(new SessionId("chat"), AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("one"))), Usage.ZERO);
            StringWriter out = new StringWriter();
            CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> ParleyCommand.run(new String[] {
                    "--store", local, "tail", "chat", "--count", "2", "--poll-millis", "50"}, new PrintWriter(out),
                    new PrintWriter(new StringWriter())));
            store.log().append(new SessionId("chat"), AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("two"))), Usage.ZERO);

            assertThat(tail.get(20, TimeUnit.SECONDS)).isZero();
            assertThat(out.toString()).contains("1 main user: one", "2 main user: two");
        }
    }

    /**
     * Found by a break-it pass: with the server down, tail on remote: printed the fallback store's copy of the session
     * as the session's and then followed the server from that copy's last seq, passing over the server's entries in
     * between; and it did not resolve an id prefix on remote: (it waited on the prefix, silently, forever).
     */
    @Test
    @org.junit.jupiter.api.Timeout(60) // the old tail waited on the prefix forever
    void tail_remote_resolvesPrefixes_andRefusesToFollowFromTheFallbackStore() throws Exception {
        append("prefixtest-long", "on the server");
        Run prefixed = parley("--store", remote(""), "tail", "prefixtest", "-n", "1", "--count", "1");
        assertThat(prefixed.exit()).as(prefixed.err()).isZero();
        assertThat(prefixed.out()).contains("1 main user: on the server");

        String uri = remote("&parley.timeout=500");
        server.close();
        try (Store fallback = Stores.open("sqlite:" + dir.resolve("fallback.db"))) {
            fallback.log().append(new SessionId("prefixtest-long"), AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("only here"))), Usage.ZERO);
        }
        Run down = parley("--store", uri, "tail", "prefixtest-long", "-n", "1", "--count", "1");
        assertThat(down.exit()).as(down.out() + down.err()).isEqualTo(7);
        assertThat(down.err()).contains("cannot follow session prefixtest-long");
        assertThat(down.out()).doesNotContain("only here");
    }

    /** A full id the server does not know yet is followed until its first entry, saying so (review). */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void tail_remote_ofASessionNotStartedYet_saysSoAndFollowsIt() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> ParleyCommand.run(new String[] {
                "--store", remote(""), "tail", "later", "--count", "1"}, new PrintWriter(out), new PrintWriter(err)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!err.toString().contains("waiting for its first entry") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(err.toString()).contains("no session later on remote:");
        append("later", "first");

        assertThat(tail.get(20, TimeUnit.SECONDS)).isZero();
        assertThat(out.toString().lines().toList()).containsExactly("1 main user: first");
        Stores.open("sqlite:" + dir.resolve("local.db")).close();
        Run local = parley("--store", "sqlite:" + dir.resolve("local.db"), "tail", "later");
        assertThat(local.exit()).isEqualTo(3); // elsewhere a missing session is an error, as before
        assertThat(local.err()).contains("no session later");
    }

    /**
     * Found by a newcomer's trial: tail printed a tool call as "assistant: " and a tool result as "tool: ", with
     * nothing after; and it printed a transcript's escape sequences to the terminal as they were.
     */
    @Test
    void tail_showsToolCallsAndResults_andNoEscapeSequence() {
        String local = "sqlite:" + dir.resolve("local.db");
        try (Store store = Stores.open(local)) {
            store.log().append(new SessionId("tools"), AgentId.MAIN, List.of(
                    NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.assistant(List.of(
                            new ContentBlock.ToolCall("c1", "get_weather", RawJson.of("{\"city\":\"Lisbon\"}"))))),
                    NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.toolResults(List.of(
                            ContentBlock.ToolResult.text("c1", "get_weather", "21°C", false)))),
                    NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(),
                            Message.user("red \u001b[31mtext\u001b]0;title\u0007"))), Usage.ZERO);
        }
        Run tail = parley("--store", local, "tail", "tools", "-n", "3", "--count", "3");
        assertThat(tail.exit()).as(tail.err()).isZero();
        assertThat(tail.out().lines().toList()).containsExactly("1 main assistant →get_weather",
                "2 main tool ←get_weather: 21°C", "3 main user: red \u241b[31mtext\u241b]0;title\u2407");
    }

    /**
     * Found by a newcomer's trial: {@code tail -n -5} failed with an internal IllegalArgumentException (exit 1), and
     * tail, which only reads, created the store it was pointed at.
     */
    @Test
    void tail_withANegativeCount_isAUsageError_andAMissingStoreIsNotCreated() throws Exception {
        String local = "sqlite:" + dir.resolve("local.db");
        try (Store store = Stores.open(local)) {
            store.log().append(new SessionId("chat"), AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("one"))), Usage.ZERO);
        }
        Run negative = parley("--store", local, "tail", "chat", "-n", "-5");
        assertThat(negative.exit()).isEqualTo(2);
        assertThat(negative.err()).contains("-n needs a number of entries of 0 or more");

        Run missing = parley("--store", "sqlite:" + dir.resolve("nostore.db"), "tail", "chat");
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(dir.resolve("nostore.db")).doesNotExist();
    }

    @Test
    void remoteStatusAndSync_reportTheFallbackAndReplayIt() {
        int port = server.port();
        String uri = remote("&parley.timeout=500&parley.replay=600000");
        server.close();
        try (Store store = Stores.open(uri)) {
            store.log().append(new SessionId("offline"), AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("kept"))), Usage.ZERO);
        }

        Run down = parley("--store", uri, "remote", "status");
        assertThat(down.exit()).isEqualTo(7);
        assertThat(down.out()).contains("does not answer", "pending    1 ");

        server = ParleyServer.start(backend, ServerConfig.defaults().withPort(port));
        Run sync = parley("--store", uri, "remote", "sync");
        assertThat(sync.exit()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("replayed 1, refused 0, pending 0");
        assertThat(backend.log().load(new SessionId("offline"), null)).hasSize(1);
        Run up = parley("--store", uri, "remote", "status");
        assertThat(up.exit()).isZero();
        assertThat(up.out()).contains("(answers)", "pending    0 ");
    }

    /**
     * A write the server refuses at replay is a conflict (exit 5), whether {@code sync} or the background replay, which
     * may run first after the store opens (every 10 ms here), got to it; the server's entry is kept.
     */
    @Test
    void remoteSync_aWriteTheServerRefuses_isExit5_whoeverReplayedIt() {
        int port = server.port();
        String uri = remote("&parley.timeout=500&parley.replay=10");
        EntryId clash = IdGenerator.uuidV7().newEntryId();
        server.close();
        try (Store store = Stores.open(uri)) {
            store.log().append(new SessionId("clash"), AgentId.MAIN, List.of(NewEntry.of(clash, null, Instant.now(),
                    Message.user("written offline"))), Usage.ZERO);
        }
        backend.log().append(new SessionId("clash"), AgentId.MAIN, List.of(NewEntry.of(clash, null, Instant.now(),
                Message.user("written on the server"))), Usage.ZERO);

        server = ParleyServer.start(backend, ServerConfig.defaults().withPort(port));
        Run sync = parley("--store", uri, "remote", "sync");
        assertThat(sync.exit()).as(sync.out() + sync.err()).isEqualTo(5);
        assertThat(sync.out()).contains("refused 1, pending 0");
        assertThat(backend.log().load(new SessionId("clash"), null)).singleElement()
                .satisfies(e -> assertThat(e.message().text()).isEqualTo("written on the server"));
    }

    /**
     * With the server down, a session the fallback store lacks is not reported missing ("pass --new", exit 3): the
     * server may hold it, and a copy started locally would be refused at replay. It is "unavailable" (exit 7), and
     * {@code --new} with that id is refused the same way.
     */
    @Test
    void chat_sessionOnTheServer_whileTheServerIsDown_isUnavailableNotMissing() {
        append("on-server", "hello");
        String uri = remote("&parley.timeout=1000");
        server.close();

        Run show = parley("--store", uri, "show", "on-server");
        Run chat = parley("--store", uri, "chat", "on-server", "--prompt", "hi");
        Run chatNew = parley("--store", uri, "chat", "on-server", "--new", "--prompt", "hi");

        for (Run run : List.of(show, chat, chatNew)) {
            assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(7);
            assertThat(run.err()).contains("cannot tell whether session on-server exists").doesNotContain("--new");
        }
        assertThat(parley("--store", "sqlite:" + dir.resolve("fallback.db"), "sessions").out())
                .doesNotContain("on-server");
    }

    /**
     * Found by a newcomer's trial: with the server down, chat resumed a session whose stale copy the fallback store
     * held (from an earlier outage), exited 0, and the turn was refused at replay (exit 5 from remote sync), left in
     * the conflicts file. Resuming, by id or with --continue, is refused while the lookup falls back (exit 7), and the
     * fallback's copy is left as it was.
     */
    @Test
    void chat_resumingASessionTheFallbackHoldsAStaleCopyOf_whileTheServerIsDown_isRefused() {
        try (Store fallback = Stores.open("sqlite:" + dir.resolve("fallback.db"))) {
            fallback.log().append(new SessionId("on-both"), AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("hello"))), Usage.ZERO);
        }
        append("on-both", "hello");
        append("on-both", "and the server has moved on");
        String uri = remote("&parley.timeout=1000");
        server.close();

        Run byId = parley("--store", uri, "chat", "on-both", "--provider", "scripted", "--prompt", "hi");
        Run latest = parley("--store", uri, "chat", "--continue", "--provider", "scripted", "--prompt", "hi");

        for (Run run : List.of(byId, latest)) {
            assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(7);
            assertThat(run.err()).contains("cannot resume session on-both").contains("fork");
        }
        try (Store fallback = Stores.open("sqlite:" + dir.resolve("fallback.db"))) {
            assertThat(fallback.log().load(new SessionId("on-both"), AgentId.MAIN)).hasSize(1);
        }
        assertThat(parley("--store", uri, "remote", "status").out()).containsPattern("pending +0 ");
    }

    /**
     * Found by a newcomer's trial: with the server down, an import compared the transcript with the fallback store's
     * copy (the local default store, which held it), reported it "unchanged", exited 0, and sent nothing, then or at
     * any replay; a grown transcript was "updated" with writes the server then refused at replay. An import through
     * remote: does not start while the server does not answer: exit 7, nothing written or queued.
     */
    @Test
    void import_whileTheServerIsDown_isRefusedUpFront_notComparedWithTheFallback() throws Exception {
        Path file = dir.resolve("chat.json");
        java.nio.file.Files.writeString(file, "[{\"role\":\"user\",\"content\":\"hi\"}]");
        Run local = parley("--store", "sqlite:" + dir.resolve("fallback.db"), "import", file.toString());
        assertThat(local.exit()).as(local.out() + local.err()).isZero();
        Path other = dir.resolve("other.json");
        java.nio.file.Files.writeString(other, "[{\"role\":\"user\",\"content\":\"new here\"}]");
        String uri = remote("&parley.timeout=1000");
        String fallbackBefore = parley("--store", "sqlite:" + dir.resolve("fallback.db"), "sessions").out();
        server.close();

        Run run = parley("--store", uri, "import", file.toString(), other.toString());

        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(7);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("cannot import through").contains("does not answer")
                .contains("nothing was written").contains("remote status");
        assertThat(parley("--store", uri, "remote", "status").out()).contains("pending    0");
        assertThat(parley("--store", "sqlite:" + dir.resolve("fallback.db"), "sessions").out())
                .isEqualTo(fallbackBefore);
    }

    /**
     * A server that answers its health check but not the log's calls (a proxy in front of a server that went down,
     * and as well a server that stops answering during an import): a session found unchanged in the fallback store is
     * "unsent", counted as failed; one imported there is queued with a warning; the command exits 7.
     */
    @Test
    void import_whoseCallsFallBackAfterTheHealthCheck_reportsEachSessionComparedWithTheFallback() throws Exception {
        Path held = dir.resolve("held.json");
        java.nio.file.Files.writeString(held, "[{\"role\":\"user\",\"content\":\"hi\"}]");
        Run local = parley("--store", "sqlite:" + dir.resolve("fallback.db"), "import", held.toString());
        String heldSession = local.out().strip().split("\\s+")[1];
        Path fresh = dir.resolve("fresh.json");
        java.nio.file.Files.writeString(fresh, "[{\"role\":\"user\",\"content\":\"new here\"}]");
        com.sun.net.httpserver.HttpServer proxy = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        proxy.createContext("/", exchange -> {
            boolean health = exchange.getRequestURI().getPath().equals("/v1/health");
            byte[] body = (health ? "{\"status\":\"ok\"}" : "{\"detail\":\"the upstream server is down\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(health ? 200 : 502, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        proxy.start();
        try {
            String uri = "remote:http://127.0.0.1:" + proxy.getAddress().getPort() + "?parley.timeout=1000"
                    + "&parley.fallback=" + URLEncoder.encode("sqlite:" + dir.resolve("fallback.db"),
                    StandardCharsets.UTF_8)
                    + "&parley.journal=" + URLEncoder.encode(dir.resolve("journal.jsonl").toString(),
                    StandardCharsets.UTF_8);

            Run run = parley("--store", uri, "import", held.toString(), fresh.toString());

            assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(7);
            assertThat(run.out().lines().filter(l -> l.contains(heldSession)).toList()).singleElement().asString()
                    .startsWith("unsent");
            assertThat(run.out().lines().filter(l -> !l.contains(heldSession)).toList()).singleElement().asString()
                    .startsWith("imported");
            assertThat(run.err()).contains("error: session " + heldSession + " was compared with the fallback store's")
                    .contains("sent nothing for it").contains("warning: session ").contains("queued")
                    .contains("1 session imported, 0 updated, 0 unchanged, 1 failed");
        } finally {
            proxy.stop(0);
        }
    }

    /** Found by a newcomer's trial: with the server down, an empty fallback read "no sessions in remote:…". */
    @Test
    void sessions_whileTheServerIsDown_saysTheEmptyListIsTheFallbacks() {
        append("on-server", "hello");
        String uri = remote("&parley.timeout=1000");
        server.close();

        Run run = parley("--store", uri, "sessions");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("no sessions in the fallback store of remote:")
                .contains("the server did not answer; it may hold sessions");
    }

    /** A command whose calls fell back ends with one line that says so, where they went and how to follow up. */
    @Test
    void chat_whileTheServerIsDown_endsSayingItFellBack() throws Exception {
        String uri = remote("&parley.timeout=1000");
        server.close();

        Run run = parley("--store", uri, "chat", "--provider", "scripted", "--prompt", "hi");

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.err().lines().filter(l -> l.contains("of this command fell back")).toList()).singleElement()
                .asString().contains("fallback.db").contains("remote status");
    }
}
