package dev.parley.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.engine.LeaseOwner;
import dev.parley.engine.SessionService;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import dev.parley.server.Tokens;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The browser's pages over plain HTTP (no JavaScript): credentials from a cookie under the token's scope, export
 * downloads, permalinks, windows, the records pages, and pages that answer errors as HTML. A real SQLite store and
 * a real server on loopback.
 */
class BrowserHttpTest {
    static final String ADMIN = "admin-token-0123456789";
    static final String ALPHA = "alpha-token-0123456789";
    static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;
    ParleyServer server;
    Store store;

    @BeforeEach
    void seedTwoScopes() {
        store = Stores.open("sqlite:" + dir.resolve("b.db"));
        for (Store scoped : java.util.List.of(store, store.withScope("alpha"))) {
            BrowserTest.seed(scoped);
        }
        store.withScope("alpha").catalog().orElseThrow().create(dev.parley.core.log.NewSession.of(
                new SessionId("only-in-alpha")));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        store.close();
    }

    void serve(Tokens tokens) {
        server = ParleyServer.start(store, ServerConfig.defaults().withPort(0).withTokens(tokens));
    }

    /** A page, as a browser logged in with {@code token} asks for it (its cookie holds the token's browser cookie). */
    HttpResponse<String> get(String target, String token) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.uri() + target)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            b.header("Cookie", Browser.COOKIE + "=" + Tokens.browserCookieOf(token));
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    @Test
    void withTokens_aPageNeedsTheCookie_theHandoffSetsItHttpOnly_andTheTokensScopeIsShown() throws Exception {
        serve(Tokens.of(Map.of(ADMIN, "*", ALPHA, "alpha")));
        HttpResponse<String> anonymous = get("/?q=x", null);
        assertThat(anonymous.statusCode()).isEqualTo(302);
        assertThat(anonymous.headers().firstValue("Location")).hasValue("/login?next=%2F%3Fq%3Dx");
        assertThat(get("/login", null).body()).contains("type=\"password\"");

        HttpResponse<String> handoff = get("/s/only-in-alpha?token=" + ALPHA, null);
        assertThat(handoff.statusCode()).isEqualTo(302);
        assertThat(handoff.headers().firstValue("Location")).hasValue("/s/only-in-alpha");
        assertThat(handoff.headers().firstValue("Set-Cookie").orElseThrow())
                .contains(Browser.COOKIE + "=" + Tokens.browserCookieOf(ALPHA), "HttpOnly", "SameSite=Strict");

        HttpResponse<String> alpha = get("/s/only-in-alpha", ALPHA);
        assertThat(alpha.statusCode()).isEqualTo(200);
        assertThat(alpha.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("script-src 'self'");
        assertThat(alpha.body()).contains("scope alpha");
        // the administrative token sees the store's own scope, where that session does not exist
        assertThat(get("/s/only-in-alpha", ADMIN).statusCode()).isEqualTo(404);
        assertThat(get("/", "not-a-valid-token-at-all").statusCode()).isEqualTo(302);
        assertThat(get("/?token=not-a-valid-token-at-all", null).statusCode()).isEqualTo(401);
        // the JSON API keeps its bearer tokens: a cookie is not one
        assertThat(get("/v1/log/sessions", ALPHA).statusCode()).isEqualTo(401);
    }

    @Test
    void login_redirectsOnlyToLocalPaths() throws Exception {
        serve(Tokens.of(Map.of(ALPHA, "alpha")));
        HttpRequest post = HttpRequest.newBuilder(URI.create(server.uri() + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=" + ALPHA + "&next=%2F%2Fevil.example%2F")).build();
        HttpResponse<String> r = CLIENT.send(post, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(r.headers().firstValue("Location")).hasValue("/");
        HttpRequest bad = HttpRequest.newBuilder(URI.create(server.uri() + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("token=wrong-token-0123456789&next=%2F")).build();
        assertThat(CLIENT.send(bad, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        // Found by a breaker: a tab passed the check, and browsers drop it, so "/<TAB>/evil.example/" led there.
        for (String next : new String[] {"%2F%09%2Fevil.example%2F", "%2F%0A%2Fevil.example%2F", "%2F%20%2Fevil"}) {
            HttpRequest tab = HttpRequest.newBuilder(URI.create(server.uri() + "/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("token=" + ALPHA + "&next=" + next)).build();
            assertThat(CLIENT.send(tab, HttpResponse.BodyHandlers.ofString()).headers().firstValue("Location"))
                    .as(next).hasValue("/");
        }
    }

    HttpResponse<String> send(String method, String target, String body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.uri() + target)).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/x-www-form-urlencoded");
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * Found by a breaker: the browser's cookie held the bearer token itself, and a cookie goes to every port of its host,
     * so any other service there received a token that opens the JSON API, writes included. The cookie now holds a
     * value derived from the token, which opens only the pages; the token itself is no cookie.
     */
    @Test
    void browserCookie_isNotTheToken_opensThePagesButNotTheApi() throws Exception {
        serve(Tokens.of(Map.of(ALPHA, "alpha")));
        HttpResponse<String> login = send("POST", "/login", "token=" + ALPHA + "&next=%2F");
        String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).doesNotContain(ALPHA).contains(Tokens.browserCookieOf(ALPHA));
        assertThat(get("/s/only-in-alpha", ALPHA).statusCode()).isEqualTo(200);
        HttpResponse<String> rawTokenAsCookie = send("GET", "/s/only-in-alpha", null, "Cookie",
                Browser.COOKIE + "=" + ALPHA);
        assertThat(rawTokenAsCookie.statusCode()).as("the token itself is no cookie").isEqualTo(302);
        HttpResponse<String> api = send("GET", "/v1/log/sessions", null, "Authorization",
                "Bearer " + Tokens.browserCookieOf(ALPHA));
        assertThat(api.statusCode()).as("the cookie's value is no bearer token").isEqualTo(401);
    }

    /**
     * Found by a breaker (login CSRF): another site's page could post the login form with a token of its own, or link
     * to a page with {@code ?token=}, and the reader's browser then read that site's scope; it could also log the
     * reader out. Now a login and a logout are refused (403, no cookie) when a browser says another site's page sent
     * them, and a token handed over in such a link is not taken (the reader goes to the login form); from this
     * server's own pages and from the address bar they work as before.
     */
    @Test
    void loginLogoutAndTokenHandoff_sentByAnotherSitesPage_areRefused_andSetNoCookie() throws Exception {
        serve(Tokens.of(Map.of(ALPHA, "alpha")));
        String[][] crossSite = {{"Origin", "https://evil.example"}, {"Origin", "null"},
                {"Sec-Fetch-Site", "cross-site"}, {"Sec-Fetch-Site", "same-site"}};
        for (String[] h : crossSite) {
            HttpResponse<String> login = send("POST", "/login", "token=" + ALPHA + "&next=%2F", h);
            assertThat(login.statusCode()).as("login with " + String.join(": ", h)).isEqualTo(403);
            assertThat(login.headers().firstValue("Set-Cookie")).isEmpty();
            assertThat(send("POST", "/logout", "", h).statusCode()).as("logout").isEqualTo(403);
            HttpResponse<String> handoff = send("GET", "/s/only-in-alpha?token=" + ALPHA, null, h);
            assertThat(handoff.statusCode()).as("handoff with " + String.join(": ", h)).isEqualTo(302);
            assertThat(handoff.headers().firstValue("Location")).as("to the login form, without the token")
                    .hasValue("/login?next=%2Fs%2Fonly-in-alpha");
            assertThat(handoff.headers().firstValue("Set-Cookie")).isEmpty();
        }
        String self = server.uri().toString().replaceAll("/$", "");
        HttpResponse<String> own = send("POST", "/login", "token=" + ALPHA + "&next=%2F", "Origin", self,
                "Sec-Fetch-Site", "same-origin");
        assertThat(own.statusCode()).isEqualTo(302);
        assertThat(own.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c)
                .contains(Tokens.browserCookieOf(ALPHA)));
        HttpResponse<String> typed = send("GET", "/?token=" + ALPHA, null, "Sec-Fetch-Site", "none");
        assertThat(typed.statusCode()).isEqualTo(302);
        assertThat(typed.headers().firstValue("Set-Cookie")).isPresent();
        assertThat(send("POST", "/logout", "", "Origin", self).statusCode()).isEqualTo(302);
        // Behind a reverse proxy that rewrites Host (nginx's default), the browser's own verdict decides, or the
        // Origin is compared with the host the proxy forwards.
        assertThat(send("POST", "/login", "token=" + ALPHA + "&next=%2F", "Origin", "https://parley.example",
                "Sec-Fetch-Site", "same-origin").statusCode()).isEqualTo(302);
        assertThat(send("POST", "/login", "token=" + ALPHA + "&next=%2F", "Origin", "https://parley.example",
                "X-Forwarded-Host", "parley.example").statusCode()).isEqualTo(302);
        assertThat(send("POST", "/login", "token=" + ALPHA + "&next=%2F", "Origin", "https://evil.example",
                "X-Forwarded-Host", "parley.example").statusCode()).isEqualTo(403);
    }

    @Test
    void export_downloadsEveryFormat_andPermalinksOpenTheEntrysWindow() throws Exception {
        serve(Tokens.none());
        HttpResponse<String> page = get("/s/multi-agent-0001", null);
        for (dev.parley.formats.Format f : dev.parley.formats.Format.values()) {
            String href = "/s/multi-agent-0001/export/" + f.cliName();
            assertThat(page.body()).contains("href=\"" + href + "\"");
            HttpResponse<String> r = get(href + "?agent=main", null);
            assertThat(r.statusCode()).as(f.cliName()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Disposition").orElseThrow()).startsWith("attachment;");
            assertThat(r.body()).as(f.cliName()).isNotBlank();
        }
        assertThat(get("/s/multi-agent-0001/export/parley", null).body()).contains("listing-output-7731");

        HttpResponse<String> permalink = get("/s/multi-agent-0001/e/ar", null);
        assertThat(permalink.statusCode()).isEqualTo(302);
        String location = permalink.headers().firstValue("Location").orElseThrow();
        assertThat(location).matches("/s/multi-agent-0001\\?after=\\d+#e-ar");
        String window = get(location.substring(0, location.indexOf('#')), null).body();
        assertThat(window).contains("id=\"e-ar\"").doesNotContain("id=\"e-u1\"").contains("« Start");
        assertThat(get("/s/multi-agent-0001/e/nope", null).statusCode()).isEqualTo(404);
    }

    @Test
    void export_leavingOutSeveralKinds_sendsEveryNote_notOnlyTheLast() throws Exception {
        serve(Tokens.none());
        java.util.List<String> notes = new dev.parley.formats.Exporter(store).export(BrowserTest.MULTI,
                dev.parley.formats.Format.AIDER, null, false).notes();
        assertThat(notes).hasSizeGreaterThan(1);

        HttpResponse<String> r = get("/s/multi-agent-0001/export/aider", null);

        assertThat(r.statusCode()).isEqualTo(200);
        java.util.List<String> headers = r.headers().allValues("Parley-Export-Note");
        assertThat(headers.get(0)).isEqualTo("exporting agent main; the session's agents are [main, worker-1]"
                + " (choose one with ?agent=)");
        assertThat(headers.subList(1, headers.size())).isEqualTo(notes);
        assertThat(get("/s/multi-agent-0001/export/aider?agent=main", null).headers().allValues("Parley-Export-Note"))
                .isEqualTo(notes);
    }

    @Test
    void session_ofMoreThanOneWindow_isPaged_andTheLastWindowIsLive() throws Exception {
        SessionId big = new SessionId("big-0001");
        for (int i = 0; i < Pages.WINDOW + 50; i += 50) {
            var batch = new java.util.ArrayList<dev.parley.core.model.NewEntry>();
            for (int j = i; j < i + 50; j++) {
                batch.add(dev.parley.core.model.NewEntry.of(new dev.parley.core.EntryId("n" + j), j == 0 ? null
                        : new dev.parley.core.EntryId("n" + (j - 1)), null, dev.parley.core.model.Message.user("m" + j)));
            }
            store.log().append(big, BrowserTest.MAIN, batch, dev.parley.core.model.Usage.ZERO);
        }
        serve(Tokens.none());
        String first = get("/s/big-0001", null).body();
        assertThat(count(first, "<article class=\"entry")).isEqualTo(Pages.WINDOW);
        assertThat(first).doesNotContain("sse-connect");
        String next = first.substring(first.indexOf("href=\"/s/big-0001?after=") + 6);
        next = next.substring(0, next.indexOf('"'));
        String second = get(next, null).body();
        assertThat(count(second, "<article class=\"entry")).isEqualTo(50);
        assertThat(second).contains("sse-connect=\"/s/big-0001/live?after=").contains("id=\"e-n249\"");
    }

    @Test
    void records_listWithFilters_andARecordShowsRevisionTurnsQueuedPromptsAndLease() throws Exception {
        SessionService service = new SessionService(store.sessions().orElseThrow(), store.archives().orElseThrow(),
                Clock.systemUTC(), IdGenerator.uuidV7());
        service.ensure("rec-<b>1</b>");
        service.enqueuePrompt("rec-<b>1</b>", "queued <i>prompt</i>");
        service.acquireLease("rec-<b>1</b>", new LeaseOwner("daemon", "host-1", "owner-7", "cli"));
        service.ensure("rec-2");
        serve(Tokens.none());
        String list = get("/records", null).body();
        assertThat(list).contains("rec-&lt;b&gt;1&lt;/b&gt;", "rec-2", "daemon owner-7");
        assertThat(get("/records?pinned=yes", null).body()).contains("No records.");
        assertThat(get("/records?archived=no", null).body()).contains("rec-2");
        assertThat(get("/records?pinned=maybe", null).statusCode()).isEqualTo(400);
        String record = get("/records/view?id=rec-%3Cb%3E1%3C%2Fb%3E", null).body();
        assertThat(record).contains("revision", "queued &lt;i&gt;prompt&lt;/i&gt;", "owner-7", "fencing token")
                .doesNotContain("<i>prompt");
        assertThat(get("/records/view?id=none", null).statusCode()).isEqualTo(404);
    }

    @Test
    void errors_areHtmlPages_andFiltersThatAreNotDatesAreRefusedByName() throws Exception {
        serve(Tokens.none());
        HttpResponse<String> missing = get("/s/no-such-session", null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(missing.body()).contains("NOT_FOUND", "no session no-such-session");
        // A unique prefix, as the command line takes, goes to the session; one that several ids share does not.
        HttpResponse<String> prefix = get("/s/multi?after=2", null);
        assertThat(prefix.statusCode()).isEqualTo(302);
        assertThat(prefix.headers().firstValue("Location")).hasValue("/s/multi-agent-0001?after=2");
        assertThat(get("/s/filler-00", null).statusCode()).isEqualTo(404);
        // A session's page that is not found for another reason (an unknown leaf) stays 404: found by a break-it
        // pass, it redirected to itself for ever.
        assertThat(get("/s/multi-agent-0001?leaf=nope", null).statusCode()).isEqualTo(404);
        HttpResponse<String> bad = get("/?since=yesterday", null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("since");
        assertThat(get("/s/multi-agent-0001?after=-1", null).statusCode()).isEqualTo(400);
        // Found by a breaker: the live stream of a session that does not exist answered 200 and polled for ever.
        HttpResponse<String> live = CLIENT.send(HttpRequest.newBuilder(URI.create(server.uri() + "/s/no-such-session/live"))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(live.statusCode()).isEqualTo(404);
        // Found by a breaker: a year far in the past overflowed the catalog cursor's milliseconds, a 500.
        for (String far : new String[] {"until=-999999999-01-01", "until=-292275055-01-01", "since=%2B99999-01-01"}) {
            HttpResponse<String> r = get("/?" + far, null);
            assertThat(r.statusCode()).as(far).isEqualTo(400);
            assertThat(r.body()).contains("0001-01-01 to 9999-12-31");
        }
    }

    @Test
    void list_filtersBySourceFormatAndTime() throws Exception {
        serve(Tokens.none());
        assertThat(get("/?format=claude-code", null).body()).contains("No sessions.");
        String natives = get("/?format=native", null).body();
        assertThat(natives).contains("Multi-agent build");
        assertThat(get("/?until=2000-01-01", null).body()).contains("No sessions.");
        assertThat(get("/?since=2000-01-01", null).body()).contains("Multi-agent build");
    }

    static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
