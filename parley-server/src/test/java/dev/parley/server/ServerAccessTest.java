package dev.parley.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.json.wire.Wire;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may do what, through the real API: scope from the bearer token (two tokens, two scopes that cannot see each
 * other), 401 and 413 with problem documents, loopback by default.
 */
class ServerAccessTest {
    static final String TOKEN_A = "token-of-scope-a-0123456789";
    static final String TOKEN_B = "token-of-scope-b-0123456789";

    @TempDir
    Path dir;
    Store store;
    ParleyServer server;

    @BeforeEach
    void start() {
        store = Stores.open("sqlite:" + dir.resolve("server.db"));
        server = ParleyServer.start(store, ServerConfig.defaults().withPort(0).withMaxBodyBytes(64 * 1024)
                .withTokens(Tokens.of(Map.of(TOKEN_A, "scope-a", TOKEN_B, "scope-b"))));
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    private static String batch(String text) {
        NewEntry e = NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user(text));
        return Wire.write(Wire.encodeBatch(AgentId.MAIN, List.of(e), Usage.ZERO));
    }

    /** Found by a newcomer's trial: a missing tokens file was reported as "cannot read the tokens file F: F". */
    @Test
    void tokensFile_thatDoesNotExist_isNamedAsMissing() {
        Path missing = dir.resolve("no-such-tokens");
        assertThatThrownBy(() -> Tokens.read(missing)).isInstanceOf(InvalidInputException.class)
                .hasMessage("the tokens file " + missing + " does not exist");
    }

    @Test
    void request_withoutToken_is401ProblemDocument() throws Exception {
        Http.Answer a = Http.get(server, "/v1/log/sessions", null);

        assertThat(a.status()).isEqualTo(401);
        assertThat(a.contentType()).startsWith("application/problem+json");
        JsonNode p = a.json();
        assertThat(p.path("status").asInt()).isEqualTo(401);
        assertThat(p.path("code").asText()).isEqualTo("UNAUTHORIZED");
        assertThat(p.path("type").asText()).isNotEmpty();
        assertThat(p.path("title").asText()).isNotEmpty();
        assertThat(p.path("detail").asText()).contains("bearer token");
    }

    @Test
    void request_withUnknownToken_is401() throws Exception {
        assertThat(Http.get(server, "/v1/log/sessions", "not-a-token-of-this-server").status()).isEqualTo(401);
    }

    @Test
    void append_overTheBodyLimit_is413ProblemDocument() throws Exception {
        Http.Answer a = Http.send(server, "POST", "/v1/log/sessions/s1/agents/main/entries", TOKEN_A,
                batch("x".repeat(100 * 1024)));

        assertThat(a.status()).isEqualTo(413);
        assertThat(a.contentType()).startsWith("application/problem+json");
        assertThat(a.json().path("code").asText()).isEqualTo("PAYLOAD_TOO_LARGE");
        assertThat(a.json().path("status").asInt()).isEqualTo(413);
    }

    /**
     * Regression (a flaky CI run: "HTTP/1.1 header parser received no bytes"): a refusal was sent before the body was
     * read, and the server closed with the rest of the body unread, so a client still sending met a closed connection
     * (broken pipe, or a reset that threw away the answer it had not read yet). Here most of a 4 MiB body is sent only
     * after the server could have answered; the old server had closed by then.
     */
    @Test
    void refusal_sentWhileTheBodyIsStillArriving_reachesTheClient_notAResetConnection() throws Exception {
        byte[] body = batch("x".repeat(4 * 1024 * 1024)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.net.URI uri = server.uri();
        try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /v1/log/sessions/s1/agents/main/entries HTTP/1.1\r\nHost: " + uri.getAuthority()
                    + "\r\nAuthorization: Bearer " + TOKEN_A + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            java.io.OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.write(body, 0, 64 * 1024);
            out.flush();
            Thread.sleep(500);
            out.write(body, 64 * 1024, body.length - 64 * 1024);
            out.flush();

            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 413 ").contains("PAYLOAD_TOO_LARGE");
        }
    }

    /**
     * Sends {@code head} (a request line, headers and the start of a body), then a byte of body every half second for
     * up to 20 s, until the server answers or closes: asserts that it did within 15 s, and gives the start of what it
     * answered ("" if the connection closed before an answer could be read).
     */
    private String trickleUntilTheServerEndsIt(String head, int answerBytes) throws Exception {
        java.net.URI uri = server.uri();
        try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
            java.io.OutputStream out = socket.getOutputStream();
            java.io.InputStream in = socket.getInputStream();
            out.write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            boolean ended = false;
            try {
                while (!ended && System.nanoTime() - start < java.util.concurrent.TimeUnit.SECONDS.toNanos(20)) {
                    out.write(' '); // a byte every half second: the declared body would take minutes to days
                    out.flush();
                    Thread.sleep(500);
                    ended = in.available() > 0;
                }
            } catch (java.net.SocketException closed) {
                ended = true; // the server answered and closed the connection: what it answered may be lost with it
            }
            java.time.Duration waited = java.time.Duration.ofNanos(System.nanoTime() - start);
            assertThat(ended).as("the request ended, after %s", waited).isTrue();
            assertThat(waited).isLessThan(java.time.Duration.ofSeconds(15));
            return in.available() > 0
                    ? new String(in.readNBytes(answerBytes), java.nio.charset.StandardCharsets.UTF_8) : "";
        }
    }

    /**
     * Found by a review of the fix above: a refused request's body was read as long as it kept coming, so a client
     * without a token could hold a server thread by sending a byte now and then, or nothing at all until the 30 s idle
     * timeout. The refusal now reads for at most a few seconds, each wait for bytes at most one.
     */
    @Test
    void refusal_ofAClientTricklingItsBody_endsTheRequestWithinSeconds_notWhenTheBodyEnds() throws Exception {
        String answer = trickleUntilTheServerEndsIt("POST /v1/log/sessions/s1/agents/main/entries HTTP/1.1\r\nHost: "
                + server.uri().getAuthority() + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: 1000000\r\n\r\n{", 12);
        if (!answer.isEmpty()) {
            assertThat(answer).isEqualTo("HTTP/1.1 401");
        }
    }

    /**
     * Found by a breaker: a body cut short (the client closed its side before Content-Length bytes) or with broken
     * chunked encoding was a 500 INTERNAL, with a stack trace logged at ERROR for each.
     */
    @Test
    void bodyCutShort_orBadlyChunked_is400ProblemDocument_not500() throws Exception {
        java.net.URI uri = server.uri();
        String start = "POST /v1/log/sessions/s1/agents/main/entries HTTP/1.1\r\nHost: " + uri.getAuthority()
                + "\r\nAuthorization: Bearer " + TOKEN_A + "\r\nContent-Type: application/json\r\n";
        String[] requests = {
            start + "Content-Length: 100\r\n\r\n{\"entries\":[",
            start + "Transfer-Encoding: chunked\r\n\r\nZZ\r\n{\"entries\":[]}\r\n0\r\n\r\n",
        };
        for (String request : requests) {
            try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                socket.shutdownOutput();
                String answer = new String(socket.getInputStream().readAllBytes(),
                        java.nio.charset.StandardCharsets.UTF_8);
                assertThat(answer).as(request).startsWith("HTTP/1.1 400 ").contains("application/problem+json")
                        .doesNotContain("INTERNAL");
            }
        }
        assertThat(store.withScope("scope-a").catalog().orElseThrow().find(new SessionId("s1"))).isEmpty();
    }

    /**
     * Found by a breaker: a query parameter given twice was read as its first value (a record was updated at
     * expectedRevision=1 of "1&2").
     */
    @Test
    void aQueryParameterGivenTwice_is400_andChangesNothing() throws Exception {
        String record = Wire.write(Wire.encodeSession(ChatSession.builder("rec", Instant.now()).name("a").build()));
        assertThat(Http.send(server, "POST", "/v1/records", TOKEN_A, record).status()).isEqualTo(201);
        String renamed = Wire.write(Wire.encodeSession(ChatSession.builder("rec", Instant.now()).name("b").build()));
        for (String query : List.of("expectedRevision=1&expectedRevision=2", "expectedRevision=1&id=other")) {
            Http.Answer answer = Http.send(server, "PUT", "/v1/record?id=rec&" + query, TOKEN_A, renamed);
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.json().path("code").asText()).as(query).isEqualTo("INVALID_INPUT");
        }
        assertThat(Http.get(server, "/v1/log/sessions?limit=1&limit=2", TOKEN_A).status()).isEqualTo(400);
        JsonNode stored = Http.get(server, "/v1/record?id=rec", TOKEN_A).json();
        assertThat(stored.path("revision").asLong()).isEqualTo(1);
        assertThat(stored.path("session").path("name").asText()).isEqualTo("a");
    }

    /**
     * Found by a breaker: Content-Encoding was ignored, so a gzip body was refused as "not JSON: Illegal character",
     * and a plain body labelled gzip was stored as if unlabelled.
     */
    @Test
    void encodedRequestBody_is415_namingTheEncoding() throws Exception {
        java.net.URI uri = server.uri();
        byte[] body = batch("labelled").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
            String head = "POST /v1/log/sessions/s1/agents/main/entries HTTP/1.1\r\nHost: " + uri.getAuthority()
                    + "\r\nAuthorization: Bearer " + TOKEN_A + "\r\nContent-Type: application/json\r\n"
                    + "Content-Encoding: gzip\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 415 ").contains("Content-Encoding: gzip")
                    .contains("UNSUPPORTED_MEDIA_TYPE");
        }
        assertThat(store.withScope("scope-a").catalog().orElseThrow().find(new SessionId("s1"))).isEmpty();
    }

    @Test
    void scopeA_cannotReadWriteOrListScopeB() throws Exception {
        assertThat(Http.send(server, "POST", "/v1/log/sessions/shared/agents/main/entries", TOKEN_B,
                batch("secret of b")).status()).isEqualTo(200);
        assertThat(Http.send(server, "POST", "/v1/records", TOKEN_B,
                Wire.write(Wire.encodeSession(ChatSession.builder("rec", Instant.now()).name("b").build())))
                .status()).isEqualTo(201);

        // reading: A sees nothing of B's session or record
        assertThat(Http.get(server, "/v1/log/sessions/shared/entries", TOKEN_A).json().path("entries")).isEmpty();
        assertThat(Http.get(server, "/v1/log/sessions/shared", TOKEN_A).status()).isEqualTo(404);
        assertThat(Http.get(server, "/v1/record?id=rec", TOKEN_A).status()).isEqualTo(404);
        // listing: A's catalogs are empty
        assertThat(Http.get(server, "/v1/log/sessions", TOKEN_A).json().path("sessions")).isEmpty();
        assertThat(Http.get(server, "/v1/records", TOKEN_A).json().path("items")).isEmpty();
        // naming B's scope is refused, not honoured
        Http.Answer named = sendWithScope("/v1/log/sessions", TOKEN_A, "scope-b");
        assertThat(named.status()).isEqualTo(403);
        assertThat(named.contentType()).startsWith("application/problem+json");
        // writing: A's append and delete land in A's scope only
        assertThat(Http.send(server, "POST", "/v1/log/sessions/shared/agents/main/entries", TOKEN_A,
                batch("a's own")).status()).isEqualTo(200);
        assertThat(Http.send(server, "DELETE", "/v1/log/sessions/shared", TOKEN_A, null).json()
                .path("deleted").asBoolean()).isTrue();
        assertThat(Http.get(server, "/v1/log/sessions/shared/entries", TOKEN_B).json().path("entries"))
                .hasSize(1)
                .allSatisfy(e -> assertThat(e.path("message").path("content").asText()).isEqualTo("secret of b"));
        assertThat(store.withScope("scope-b").log().load(new dev.parley.core.SessionId("shared"), null)).hasSize(1);

        // records: A cannot update or delete B's record; A's create of the same id is A's own record
        String recordOfA = Wire.write(Wire.encodeSession(ChatSession.builder("rec", Instant.now()).name("a").build()));
        assertThat(Http.send(server, "PUT", "/v1/record?id=rec&expectedRevision=1", TOKEN_A, recordOfA).status())
                .isEqualTo(404);
        assertThat(Http.send(server, "DELETE", "/v1/record?id=rec&expectedRevision=1", TOKEN_A, null).json()
                .path("deleted").asBoolean()).isFalse();
        assertThat(Http.send(server, "POST", "/v1/records", TOKEN_A, recordOfA).status()).isEqualTo(201);
        assertThat(Http.get(server, "/v1/record?id=rec", TOKEN_B).json().toString()).contains("\"b\"")
                .doesNotContain("\"a\"");
        // archives: B's manifest, summary and messages are invisible to A
        ArchiveAppend.Result archived = store.withScope("scope-b").archives().orElseThrow().append(new ArchiveAppend(
                "rec", ArchiveRecord.draft("a1", "b's archive", 1, Instant.now(), null),
                List.of(ChatMessage.of("user", "secret of b")), "b's summary"));
        assertThat(Http.get(server, "/v1/archives/manifest?session=rec", TOKEN_B).json().toString()).contains("a1");
        assertThat(Http.get(server, "/v1/archives/manifest?session=rec", TOKEN_A).json().toString())
                .doesNotContain("a1");
        assertThat(Http.get(server, "/v1/archives/summary?locator=" + enc(archived.archive().summaryPath()), TOKEN_A)
                .status()).isEqualTo(404);
        assertThat(Http.get(server, "/v1/archives/messages?locator=" + enc(archived.archive().path()), TOKEN_A)
                .status()).isEqualTo(404);
        assertThat(Http.get(server, "/v1/archives/summary?locator=" + enc(archived.archive().summaryPath()), TOKEN_B)
                .json().path("summary").asText()).isEqualTo("b's summary");
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    private Http.Answer sendWithScope(String target, String token, String scope) throws Exception {
        var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.uri() + target))
                .header("Authorization", "Bearer " + token).header("Parley-Scope", scope).GET().build();
        var r = java.net.http.HttpClient.newHttpClient().send(b, java.net.http.HttpResponse.BodyHandlers.ofString());
        return new Http.Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
    }

    private java.net.http.HttpResponse<String> head(String target, String token) throws Exception {
        var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.uri() + target))
                .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return java.net.http.HttpClient.newHttpClient().send(b.build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Found by a breaker: HEAD on a read route answered 200 whatever it named (Javalin answers a HEAD that a GET route
     * matches without running the route), so a client probing for a session with HEAD found every session, another
     * scope's included. HEAD now runs the GET route and answers its status and headers without the body.
     */
    @Test
    void head_onAReadRoute_answersWhatGetAnswers_withoutTheBody() throws Exception {
        Http.send(server, "POST", "/v1/log/sessions/present/agents/main/entries", TOKEN_A, batch("hello"));

        var missing = head("/v1/log/sessions/absent", TOKEN_A);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("Content-Type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(head("/v1/log/sessions/present", TOKEN_B).statusCode()).as("another scope's session").isEqualTo(404);
        assertThat(head("/v1/log/sessions/present", null).statusCode()).as("no token").isEqualTo(401);
        assertThat(head("/v1/log/sessions/not%20an%20id", TOKEN_A).statusCode()).isEqualTo(400);

        var present = head("/v1/log/sessions/present", TOKEN_A);
        Http.Answer get = Http.get(server, "/v1/log/sessions/present", TOKEN_A);
        assertThat(present.statusCode()).isEqualTo(200);
        assertThat(present.body()).isEmpty();
        assertThat(present.headers().firstValue("Content-Length"))
                .hasValue(String.valueOf(get.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
        assertThat(head("/v1/record?id=nothing", TOKEN_A).statusCode()).isEqualTo(404);
    }

    /** Found by a breaker: a 405 did not say which methods the path takes, which RFC 9110 requires (Allow). */
    @Test
    void methodNotAllowed_namesTheMethodsThePathTakes() throws Exception {
        var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(server.uri() + "/v1/log/sessions/s1")).header("Authorization", "Bearer " + TOKEN_A)
                .method("PUT", java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).hasValueSatisfying(allow -> assertThat(allow.split(",\\s*"))
                .contains("GET", "HEAD", "DELETE").doesNotContain("PUT"));
    }

    /** Found by a review: a second Parley-Scope header was ignored, so a request naming two scopes was served. */
    @Test
    void scopeHeaderGivenTwice_isRefusedWith400_notReadAsItsFirst() throws Exception {
        var b = java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.uri() + "/v1/log/sessions"))
                .header("Authorization", "Bearer " + TOKEN_A).header("Parley-Scope", "scope-a")
                .header("Parley-Scope", "scope-b").GET().build();
        var r = java.net.http.HttpClient.newHttpClient().send(b, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Parley-Scope header is given 2 times");
    }

    @Test
    void config_nonLoopbackWithoutTokens_isRefused() {
        assertThatThrownBy(() -> ServerConfig.defaults().withBind("0.0.0.0"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("without tokens");
    }

    @Test
    void config_default_bindsLoopback() {
        assertThat(ServerConfig.defaults().bind()).isEqualTo("127.0.0.1");
    }

    @Test
    void unknownRoute_is404ProblemDocument() throws Exception {
        Http.Answer a = Http.get(server, "/v1/nothing-here", TOKEN_A);

        assertThat(a.status()).isEqualTo(404);
        assertThat(a.contentType()).startsWith("application/problem+json");
    }

    /** One request over a plain socket, with the Host and Origin headers a browser would send; the status line. */
    private static String raw(ParleyServer on, String method, String target, String host, String origin,
                              String contentType, String body) throws Exception {
        java.net.URI uri = on.uri();
        try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
            byte[] bytes = body == null ? new byte[0] : body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            String head = method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
                    + (origin == null ? "" : "Origin: " + origin + "\r\n")
                    + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                    + "Content-Length: " + bytes.length + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().write(bytes);
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return answer.substring(0, answer.indexOf("\r\n"));
        }
    }

    /** The whole answer to a request line and headers sent as they are (a path that is no URI, huge headers). */
    private static String rawAnswer(ParleyServer on, String requestHead) throws Exception {
        try (java.net.Socket socket = new java.net.Socket(on.uri().getHost(), on.uri().getPort())) {
            socket.getOutputStream().write(requestHead.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * Regression: requests that never reach a route (a bad URI, a huge header) got Jetty's HTML error pages, and with
     * another method than GET, POST or HEAD an empty body.
     */
    @Test
    void requestsJettyRefusesBeforeAnyRoute_getProblemDocuments() throws Exception {
        String host = "Host: " + server.uri().getAuthority() + "\r\nConnection: close\r\n";
        String[] heads = {
            "GET /v1/log/sessions/a%zz HTTP/1.1\r\n" + host + "\r\n",
            "GET /v1/log/sessions/" + "x".repeat(20_000) + " HTTP/1.1\r\n" + host + "\r\n",
            "GET /v1/health HTTP/1.1\r\n" + host + "X-Big: " + "x".repeat(20_000) + "\r\n\r\n",
            "DELETE /v1/log/sessions/a%zz HTTP/1.1\r\n" + host + "\r\n",
            "PUT /v1/log/sessions/" + "x".repeat(20_000) + " HTTP/1.1\r\n" + host + "\r\n",
        };
        String[] statuses = {" 400 ", " 414 ", " 431 ", " 400 ", " 414 "};
        for (int i = 0; i < heads.length; i++) {
            String answer = rawAnswer(server, heads[i]);
            assertThat(answer).as(statuses[i]).contains(statuses[i])
                    .containsIgnoringCase("Content-Type: application/problem+json").doesNotContain("<html");
            assertThat(Wire.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4), "the answer").path("status")
                    .asInt()).isEqualTo(Integer.parseInt(statuses[i].strip()));
        }
    }

    /**
     * Regression (break: CSRF and DNS rebinding): a server without tokens took a text/plain POST sent by any web page
     * (a "simple" request that needs no preflight) and answered requests addressed to any name (a page's own name
     * resolved to 127.0.0.1). Now a page of another site, another name, and a body that is not JSON are refused;
     * programs of this machine and the server's own pages are not.
     */
    @Test
    void withoutTokens_otherSitesPagesAndOtherNames_areRefused_andLoopbackIsServed() throws Exception {
        try (Store open = Stores.open("memory:"); ParleyServer local = ParleyServer.start(open,
                ServerConfig.defaults().withPort(0))) {
            String self = local.uri().getAuthority();
            int port = local.uri().getPort();
            String append = "/v1/log/sessions/csrf/agents/main/entries";
            assertThat(raw(local, "GET", "/v1/health", "rebind.attacker.example", null, null, null)).contains(" 403");
            assertThat(raw(local, "GET", "/", "rebind.attacker.example:" + port, null, null, null)).contains(" 403");
            assertThat(raw(local, "POST", append, self, "https://evil.example", "text/plain", batch("x")))
                    .contains(" 403");
            assertThat(raw(local, "POST", append, self, "null", "application/json", batch("x"))).contains(" 403");
            assertThat(raw(local, "POST", append, self, null, "text/plain", batch("x"))).contains(" 415");
            assertThat(raw(local, "POST", append, self, null, "application/x-www-form-urlencoded", batch("x")))
                    .contains(" 415");
            assertThat(open.log().load(new dev.parley.core.SessionId("csrf"), null)).isEmpty();

            assertThat(raw(local, "GET", "/v1/health", "localhost:" + port, null, null, null)).contains(" 200");
            assertThat(raw(local, "GET", "/v1/health", "[::1]:" + port, null, null, null)).contains(" 200");
            assertThat(raw(local, "POST", append, "localhost:" + port, "http://localhost:" + port,
                    "application/json; charset=utf-8", batch("mine"))).contains(" 200");
            assertThat(open.log().load(new dev.parley.core.SessionId("csrf"), null)).hasSize(1);
        }
        // with tokens a page cannot attach the token: the name is not checked
        assertThat(Http.get(server, "/v1/health", TOKEN_A).status()).isEqualTo(200);
        assertThat(raw(server, "GET", "/v1/health", "some-name.example", null, null, null)).contains(" 401");
    }

    /**
     * Regression (review): the guard knew loopback only as 127.x.y.z, "::1" and localhost as written, so a client
     * addressing the server as [0:0:0:0:0:0:0:1], [::ffff:127.0.0.1] or "localhost." got 403; and it took a page of
     * any loopback origin (another local web application's) for one of its own.
     */
    @Test
    void withoutTokens_everySpellingOfLoopbackIsServed_butOnlyPagesOfTheAddressedOrigin() throws Exception {
        try (Store open = Stores.open("memory:"); ParleyServer local = ParleyServer.start(open,
                ServerConfig.defaults().withPort(0))) {
            int port = local.uri().getPort();
            for (String host : new String[] {"[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "localhost.", "127.0.0.2",
                    "LOCALHOST", "app.localhost", "127.255.255.255"}) {
                assertThat(raw(local, "GET", "/v1/health", host + ":" + port, null, null, null)).as(host)
                        .contains(" 200");
            }
            for (String host : new String[] {"[::ffff:10.0.0.1]", "127.0.0.1.nip.io", "localhost.example", "0x7f.1",
                    "127.0.0.300"}) {
                assertThat(raw(local, "GET", "/v1/health", host + ":" + port, null, null, null)).as(host)
                        .contains(" 403");
            }
            // not a name at all: refused, by the guard or by Jetty before it
            assertThat(raw(local, "GET", "/v1/health", "[.:]:" + port, null, null, null)).doesNotContain(" 200");
            String self = local.uri().getAuthority();
            assertThat(raw(local, "GET", "/v1/health", self, "http://" + self, null, null)).contains(" 200");
            assertThat(raw(local, "GET", "/v1/health", "[::1]:" + port, "http://[::1]:" + port, null, null))
                    .contains(" 200");
            String append = "/v1/log/sessions/csrf/agents/main/entries";
            int other = port == 65535 ? port - 1 : port + 1;
            assertThat(raw(local, "POST", append, self, "http://localhost:" + other, "application/json", batch("x")))
                    .contains(" 403");
            assertThat(raw(local, "POST", append, self, "http://[::1]:" + port, "application/json", batch("x")))
                    .contains(" 403");
            assertThat(raw(local, "GET", "/v1/health", self, "http://localhost", null, null)).contains(" 403");
            assertThat(open.log().load(new dev.parley.core.SessionId("csrf"), null)).isEmpty();
        }
    }

    /** Review: a port beyond an int was cut to its low 32 bits (4294967377 served on port 81). */
    @Test
    void serverMain_aPortBeyondTheRange_isRefused_notCut() {
        for (String port : new String[] {"4294967377", "+81", "65536"}) {
            assertThatThrownBy(() -> ServerMain.run(new String[] {"--store", "memory:", "--port", port}))
                    .as(port).isInstanceOf(InvalidInputException.class).hasMessageContaining(port);
        }
    }

    @Test
    void config_blankBind_isRefused() {
        assertThatThrownBy(() -> ServerConfig.defaults().withBind(" ")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("blank");
    }

    /** Regression (review): with tokens, a request without one but with a body that is not JSON got 415, not 401. */
    @Test
    void withTokens_aRequestWithoutToken_is401_whateverItsBody() throws Exception {
        assertThat(raw(server, "POST", "/v1/log/sessions/s1/agents/main/entries", server.uri().getAuthority(), null,
                "text/plain", batch("x"))).contains(" 401");
    }

    /**
     * Found by a break-it pass: an event stream asked for without {@code Accept: text/event-stream} (a plain curl)
     * was answered 200 with an empty body, as if there were no entries; a route's path with another method was 404,
     * not 405; and a seq written in other digits than ASCII's ("٣") or with a plus sign was taken as a number.
     */
    @Test
    void eventsWithoutAccept_is406_wrongMethod_is405_andNumbersAreAsciiDigits() throws Exception {
        String head = "Host: " + server.uri().getAuthority() + "\r\nAuthorization: Bearer " + TOKEN_A
                + "\r\nConnection: close\r\n";
        String answer = rawAnswer(server, "GET /v1/log/sessions/s1/events HTTP/1.1\r\n" + head + "Accept: */*\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 406").containsIgnoringCase("Content-Type: application/problem+json")
                .contains("NOT_ACCEPTABLE").contains("text/event-stream");

        answer = rawAnswer(server, "PUT /v1/health HTTP/1.1\r\n" + head + "Content-Length: 0\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 405").containsIgnoringCase("Content-Type: application/problem+json")
                .contains("METHOD_NOT_ALLOWED");

        assertThat(Http.get(server, "/v1/log/sessions/s1/entries?after=%D9%A3&limit=5", TOKEN_A).status())
                .isEqualTo(400);
        assertThat(Http.get(server, "/v1/log/sessions/s1/entries?after=%2B3&limit=5", TOKEN_A).status())
                .isEqualTo(400);
        answer = rawAnswer(server, "GET /v1/log/sessions/s1/events HTTP/1.1\r\n" + head
                + "Accept: text/event-stream\r\nLast-Event-ID: +30\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("not an integer");
    }
}
