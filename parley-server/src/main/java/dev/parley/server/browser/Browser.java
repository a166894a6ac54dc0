package dev.parley.server.browser;

import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.EntryTree;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.formats.Exporter;
import dev.parley.formats.Format;
import dev.parley.json.wire.Problems;
import dev.parley.server.Tokens;
import dev.parley.server.browser.Views.EntryView;
import dev.parley.server.browser.Views.Filters;
import dev.parley.server.browser.Views.Frame;
import dev.parley.server.browser.Views.RecordFilters;
import dev.parley.server.internal.Access;
import dev.parley.server.internal.Api;
import dev.parley.server.internal.EventStream;
import dev.parley.server.internal.Signals;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.http.SameSite;
import io.javalin.http.sse.SseClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session browser: server-rendered HTML pages (jte templates, precompiled at build time, escaping every string)
 * over the same store and the same scope rules as the JSON API; htmx only enhances them (live appends through
 * server-sent events). The routes are declared in {@code dev.parley.server.internal.Routes}.
 *
 * <p>Credentials: with tokens configured, a page needs a token's browser cookie ({@value #COOKIE}, HttpOnly,
 * SameSite=Strict, holding {@link Tokens#browserCookieOf} of the token, not the token), which the login form
 * ({@code /login}) or a {@code ?token=} handoff sets; the token's scope is the pages' scope, exactly as for a bearer
 * token. Without tokens (loopback only), no login. Thread-safe.
 */
public final class Browser {
    /** The cookie that carries a browser's credential: its token's {@linkplain Tokens#browserCookieOf browser cookie}. */
    public static final String COOKIE = "parley_token";

    private static final Logger LOG = LoggerFactory.getLogger(Browser.class);
    private static final String HTML = "text/html; charset=utf-8";

    private final Store store;
    private final Tokens tokens;
    private final boolean open;
    private final String anyScope;
    private final Signals signals;
    private final long pollMillis;
    private final TemplateEngine templates = TemplateEngine.createPrecompiled(ContentType.Html);
    private final Map<String, Store> views = new ConcurrentHashMap<>();

    /**
     * @param store the store served; a token bound to another scope sees the store's view of that scope
     * @param tokens the tokens; a page takes a token's {@linkplain Tokens#browserCookieOf browser cookie}, the login
     *     form and a hand-off the token itself
     * @param open whether no tokens are configured
     * @param anyScope the scope of an administrative token (its pages show the store's own scope)
     * @param signals wakes live pages on appends through this server, and ends them when the server closes
     * @param pollMillis how often a live page looks for appends made by other processes, in milliseconds
     */
    public Browser(Store store, Tokens tokens, boolean open, String anyScope,
                   Signals signals, long pollMillis) {
        this.store = store;
        this.tokens = tokens;
        this.open = open;
        this.anyScope = anyScope;
        this.signals = signals;
        this.pollMillis = pollMillis;
    }

    /** The request's credentials: the scope's store and the frame's note. */
    private record Caller(Store store, @Nullable String scopeNote, boolean loggedIn) {}

    // ---- access ----

    /** The caller, or null after answering with a redirect (to the login form, or to drop a {@code ?token=}). */
    private @Nullable Caller caller(Context ctx) {
        if (open) {
            return new Caller(store, null, false);
        }
        String handoff = ctx.queryParam("token");
        // A hand-off from another site's page is not taken (login CSRF): the request goes on as one without it.
        if (handoff != null && !Access.fromAnotherSite(ctx)) {
            if (tokens.scopeOf(handoff.strip()).isEmpty()) {
                throw new HttpResponseException(401, "the token is not valid", Map.of());
            }
            setCookie(ctx, handoff.strip());
            ctx.redirect(withoutToken(ctx));
            return null;
        }
        String scope = tokens.scopeOfBrowserCookie(ctx.cookie(COOKIE)).orElse(null);
        if (scope == null) {
            ctx.redirect("/login?next=" + Pages.enc(withoutToken(ctx)));
            return null;
        }
        return new Caller(storeOf(scope), scope.equals(anyScope) ? "administrative token: scope " + store.scope()
                : "scope " + scope, true);
    }

    /** The store a token's scope sees: the store served for its own scope or an administrative token, else a view. */
    private Store storeOf(String scope) {
        return scope.equals(anyScope) || scope.equals(store.scope()) ? store
                : views.computeIfAbsent(scope, store::withScope);
    }

    private static String withoutToken(Context ctx) {
        StringBuilder out = new StringBuilder(ctx.path());
        String sep = "?";
        for (Map.Entry<String, List<String>> p : ctx.queryParamMap().entrySet()) {
            if (p.getKey().equals("token")) {
                continue;
            }
            for (String v : p.getValue()) {
                out.append(sep).append(Pages.enc(p.getKey())).append('=').append(Pages.enc(v));
                sep = "&";
            }
        }
        return out.toString();
    }

    private static void setCookie(Context ctx, String token) {
        Cookie cookie = new Cookie(COOKIE, Tokens.browserCookieOf(token));
        cookie.setHttpOnly(true);
        cookie.setPath("/");
        cookie.setSameSite(SameSite.STRICT);
        ctx.cookie(cookie);
    }

    /**
     * Wraps a page handler: access first, then the page; an error becomes an HTML error page.
     *
     * @param handler the page
     * @return the route's handler: it runs {@code handler} once the caller is let in, and answers with a redirect
     *     instead when the caller must log in first or a {@code ?token=} handoff is to be dropped from the URL
     */
    public Handler page(PageHandler handler) {
        return ctx -> {
            try {
                Caller caller = caller(ctx);
                if (caller != null) {
                    handler.handle(ctx, caller.store(), new Frame("Parley", "", caller.scopeNote(), caller.loggedIn()));
                }
            } catch (ParleyException e) {
                var problem = Problems.of(e);
                error(ctx, problem.path("status").asInt(500), e.code().name(), e.getMessage());
            } catch (HttpResponseException e) {
                error(ctx, e.getStatus(), "HTTP_" + e.getStatus(), e.getMessage());
            } catch (RuntimeException e) {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
                error(ctx, 500, "INTERNAL", "the page failed: " + e.getClass().getSimpleName());
            }
        };
    }

    /** A page: the request, the store of the caller's scope, and the frame to render in. */
    @FunctionalInterface
    public interface PageHandler {
        /**
         * Answers the request, after {@link Browser#page} has let the caller in.
         *
         * @param ctx the request and its response
         * @param store the store of the caller's scope
         * @param frame the frame to render the page in
         * @throws ParleyException answered with an HTML error page of its status (a 404 for a session not found…)
         * @throws HttpResponseException answered with an HTML error page of its status; any other runtime exception
         *     with a 500 page (and logged); an {@link Error} is left to the server
         */
        void handle(Context ctx, Store store, Frame frame);
    }

    private void error(Context ctx, int status, String code, String message) {
        ctx.status(status);
        render(ctx, "error.jte", new Views.ErrorPage(new Frame("Error " + status, "", null, false), status, code,
                Visible.text(String.valueOf(message))));
    }

    /**
     * The page's security headers: scripts only from this server (a stored string that escaped the templates could
     * still not run), images also inline and from the web (transcripts link them), no framing, no referrer.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'"
            + " 'unsafe-inline'; img-src 'self' data: https: http:; frame-ancestors 'none'; base-uri 'none';"
            + " form-action 'self'";

    private void render(Context ctx, String template, Object model) {
        StringOutput out = new StringOutput();
        templates.render(template, model, out);
        ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.contentType(HTML).result(out.toString());
    }

    private static Frame frame(Frame f, String title, String active) {
        return new Frame(title, active, f.scopeNote(), f.loggedIn());
    }

    // ---- pages ----

    /**
     * {@code GET /}: the session list.
     *
     * @param ctx the request and its response
     * @param store the store of the caller's scope
     * @param frame the frame to render the page in
     */
    public void list(Context ctx, Store store, Frame frame) {
        Filters f = new Filters(param(ctx, "q"), param(ctx, "format"), param(ctx, "agent"), param(ctx, "since"),
                param(ctx, "until"));
        render(ctx, "list.jte", Pages.list(store, frame(frame, "Sessions", "sessions"), f, ctx.queryParam("cursor")));
    }

    /**
     * {@code GET /s/{session}}: one window of a session, or of a leaf's conversation with {@code ?leaf=}. A unique
     * prefix of a session's id, as the command line takes, redirects to the session.
     *
     * @param ctx the request and its response
     * @param store the store of the caller's scope
     * @param frame the frame to render the page in
     */
    public void session(Context ctx, Store store, Frame frame) {
        SessionId id = new SessionId(ctx.pathParam("session"));
        String leaf = ctx.queryParam("leaf");
        long after = number(ctx, "after");
        Views.SessionPage page;
        try {
            page = Pages.session(store, frame(frame, "Session " + id.value(), "sessions"), id, after,
                    leaf == null || leaf.isBlank() ? null : new EntryId(leaf));
        } catch (NotFoundException e) {
            // Only an id that is no session is taken as a prefix: a session's own id is a prefix of itself, and an
            // unknown ?leaf= of it would redirect to itself for ever.
            List<SessionId> matches = store.catalog().filter(c -> c.find(id).isEmpty())
                    .map(c -> c.findByPrefix(id.value(), 2)).orElse(List.of());
            if (matches.size() != 1 || matches.get(0).equals(id)) {
                throw e;
            }
            String query = ctx.queryString();
            ctx.redirect(Pages.sessionHref(matches.get(0)) + (query == null || query.isEmpty() ? "" : "?" + query));
            return;
        }
        render(ctx, "session.jte", page);
    }

    /**
     * {@code GET /s/{session}/e/{entry}}: an entry's permalink, answered with the window that starts at it.
     *
     * @param ctx the request and its response: a redirect to the window
     * @param store the store of the caller's scope
     * @param frame unused: the answer is a redirect
     */
    public void entry(Context ctx, Store store, Frame frame) {
        SessionId id = new SessionId(ctx.pathParam("session"));
        EntryId entry = new EntryId(ctx.pathParam("entry"));
        Entry found = EntryTree.of(store.log().load(id, null)).find(entry).orElseThrow(() ->
                new NotFoundException("no entry " + entry + " in session " + id));
        ctx.redirect(Pages.sessionHref(id) + (found.seq() > 1 ? "?after=" + (found.seq() - 1) : "") + "#"
                + Pages.domId(entry.value()));
    }

    /**
     * {@code GET /s/{session}/tree}: the entry tree.
     *
     * @param ctx the request and its response
     * @param store the store of the caller's scope
     * @param frame the frame to render the page in
     */
    public void tree(Context ctx, Store store, Frame frame) {
        SessionId id = new SessionId(ctx.pathParam("session"));
        render(ctx, "tree.jte", Pages.tree(store, frame(frame, "Tree of " + id.value(), "sessions"), id));
    }

    /**
     * {@code GET /s/{session}/export/{format}}: the session in a transcript format, as a download.
     *
     * @param ctx the request and its response: the transcript, with a {@code Parley-Export-Note} header per note
     * @param store the store of the caller's scope
     * @param frame unused: the answer is a file, not a page
     */
    public void export(Context ctx, Store store, Frame frame) {
        SessionId id = new SessionId(ctx.pathParam("session"));
        Format format = Format.of(ctx.pathParam("format"));
        String agent = ctx.queryParam("agent");
        dev.parley.core.AgentId asked = agent == null || agent.isBlank() ? null : new dev.parley.core.AgentId(agent);
        Exporter.Result result = new Exporter(store).export(id, format, asked, false);
        String ext = format.lineBased() ? ".jsonl" : format == Format.AIDER ? ".md" : ".json";
        ctx.header("Content-Disposition", "attachment; filename=\"" + id.value() + "." + format.cliName() + ext + "\"");
        ctx.header("X-Content-Type-Options", "nosniff");
        List<String> notes = new ArrayList<>();
        if (result.choseAmongAgents(asked)) {
            notes.add("exporting agent " + result.agent() + "; the session's agents are " + result.agents()
                    + " (choose one with ?agent=)");
        }
        notes.addAll(result.notes());
        for (String note : notes) { // one header each: ctx.header would keep only the last
            ctx.res().addHeader("Parley-Export-Note", Visible.line(note, 300).replaceAll("[^\\x20-\\x7e]", "?"));
        }
        ctx.contentType((format.lineBased() ? "application/x-ndjson" : format == Format.AIDER ? "text/markdown"
                : "application/json") + "; charset=utf-8").result(result.text().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code GET /records}: the session-record catalog.
     *
     * @param ctx the request and its response
     * @param store the store of the caller's scope
     * @param frame the frame to render the page in
     */
    public void records(Context ctx, Store store, Frame frame) {
        RecordFilters f = new RecordFilters(choice(ctx, "pinned"), param(ctx, "workspace"), choice(ctx, "archived"));
        render(ctx, "records.jte", Pages.records(store, frame(frame, "Session records", "records"), f,
                ctx.queryParam("cursor")));
    }

    /**
     * {@code GET /records/view?id=}: one session record.
     *
     * @param ctx the request and its response
     * @param store the store of the caller's scope
     * @param frame the frame to render the page in
     */
    public void record(Context ctx, Store store, Frame frame) {
        String id = ctx.queryParam("id");
        if (id == null) {
            throw new InvalidInputException("the query parameter 'id' is missing");
        }
        render(ctx, "record.jte", Pages.record(store, frame(frame, "Record", "records"), id));
    }

    /**
     * {@code GET /login}: the login form. It is served also when no tokens are configured, where every request is let in
     * without logging in.
     *
     * @param ctx the request and its response; its {@code next} parameter is where a login goes on to
     */
    public void loginForm(Context ctx) {
        render(ctx, "login.jte", new Views.LoginPage(new Frame("Log in", "", null, false), next(ctx), null));
    }

    /**
     * {@code POST /login}: checks the token, sets the cookie and goes on to {@code next}.
     *
     * @param ctx the request, with the form's {@code token} and {@code next}, and its response: a redirect, or the
     *     form again with a 401 when the token is not valid
     */
    public void login(Context ctx) {
        refuseFromAnotherSite(ctx, "a login");
        String token = ctx.formParam("token");
        if (open) {
            ctx.redirect(next(ctx));
            return;
        }
        if (token == null || tokens.scopeOf(token.strip()).isEmpty()) {
            ctx.status(401);
            render(ctx, "login.jte", new Views.LoginPage(new Frame("Log in", "", null, false), next(ctx),
                    "That token is not valid."));
            return;
        }
        setCookie(ctx, token.strip());
        ctx.redirect(next(ctx));
    }

    /**
     * {@code POST /logout}: forgets the cookie.
     *
     * @param ctx the request and its response: a redirect to the login form, or to {@code /} without tokens
     */
    public void logout(Context ctx) {
        refuseFromAnotherSite(ctx, "a logout");
        ctx.removeCookie(COOKIE, "/");
        ctx.redirect(open ? "/" : "/login");
    }

    /** 403 for a form that another site's page posted (login CSRF: it would choose the reader's scope, or end it). */
    private static void refuseFromAnotherSite(Context ctx, String what) {
        if (Access.fromAnotherSite(ctx)) {
            throw new HttpResponseException(403, what + " is taken only from this server's own pages", Map.of());
        }
    }

    private static String next(Context ctx) {
        String next = ctx.formParam("next") != null ? ctx.formParam("next") : ctx.queryParam("next");
        // Only a local path, never an open redirect: browsers drop tabs and line breaks from a URL, so "/<TAB>/x"
        // would lead to //x, another site; nothing below a space, nor DEL, is let through.
        return next != null && next.startsWith("/") && !next.startsWith("//") && !next.contains("\\")
                && next.chars().noneMatch(c -> c <= ' ' || c == 0x7f) ? next : "/";
    }

    /**
     * {@code GET /s/{session}/live?after=SEQ} (server-sent events): every entry appended after {@code after}, as an
     * {@code entry} event whose data is the entry rendered as the timeline renders it, and whose id is its seq (a
     * reconnecting client resumes with {@code Last-Event-ID}). Woken by appends through this server, and polls for
     * appends by other processes.
     *
     * @param client the stream, after {@link #liveAccess} let it in (else it is closed at once); closed when the reader
     *     leaves, the server closes or reading the session fails
     */
    public void live(SseClient client) {
        Context ctx = client.ctx();
        Store scoped = ctx.attribute("parley.browser.store");
        if (scoped == null) {
            client.close();
            return;
        }
        SessionId id = new SessionId(ctx.pathParam("session"));
        long after = liveStart(ctx); // checked before the stream began (liveAccess)
        client.keepAlive();
        long quietSince = System.nanoTime();
        try {
            while (!client.terminated() && !signals.closed()) {
                List<EntryView> views = Pages.entriesAfter(scoped, id, after, Pages.WINDOW);
                for (EntryView v : views) {
                    if (client.terminated()) {
                        return; // the reader left during this window: a send now only logs Javalin's warning
                    }
                    StringOutput out = new StringOutput();
                    templates.render("entry.jte", v, out);
                    client.sendEvent("entry", out.toString(), Long.toString(v.seq()));
                    after = v.seq();
                    quietSince = System.nanoTime();
                }
                if (!client.terminated() && (System.nanoTime() - quietSince) / 1_000_000 > 15_000) {
                    client.sendComment("keep-alive");
                    quietSince = System.nanoTime();
                }
                if (views.size() < Pages.WINDOW) {
                    signals.await(scoped.scope(), id, pollMillis);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("the live stream of session {} ended: {}", id, e.toString());
        } finally {
            client.close();
        }
    }

    /**
     * Runs before the live stream: the same access as a page, but refusing with 401 instead of redirecting; then an
     * invalid session id or a start that is not a seq (400) and a request that does not accept an event stream (406),
     * answered before the stream begins.
     *
     * @param ctx the request; once it is let in, it carries the store of the caller's scope for {@link #live}
     */
    public void liveAccess(Context ctx) {
        Store scoped;
        if (open) {
            scoped = store;
        } else {
            String scope = tokens.scopeOfBrowserCookie(ctx.cookie(COOKIE)).orElse(null);
            if (scope == null) {
                throw new HttpResponseException(401, "log in first: the live stream needs the browser's token cookie",
                        Map.of());
            }
            scoped = storeOf(scope);
        }
        SessionId session = new SessionId(ctx.pathParam("session")); // not an id: 400 before the stream begins
        // A session that does not exist is 404, as its page is: the stream answered 200 and polled for it for ever.
        if (scoped.catalog().isPresent() && scoped.catalog().get().find(session).isEmpty()) {
            throw new HttpResponseException(404, "no session " + session.value(), Map.of());
        }
        liveStart(ctx);
        EventStream.requireEventStreamAccepted(ctx);
        ctx.attribute("parley.browser.store", scoped);
    }

    /** Where a live stream starts: after its Last-Event-ID, else after {@code ?after}, else at the start. */
    private static long liveStart(Context ctx) {
        String last = ctx.header("Last-Event-ID");
        if (last == null || last.isBlank()) {
            return number(ctx, "after");
        }
        long after = Api.integer(last.strip(), "Last-Event-ID");
        if (after < 0) {
            throw new InvalidInputException("Last-Event-ID is a seq of 0 or more, not " + last);
        }
        return after;
    }

    // ---- parameters ----

    private static String param(Context ctx, String name) {
        String v = ctx.queryParam(name);
        return v == null ? "" : v.strip();
    }

    private static String choice(Context ctx, String name) {
        String v = param(ctx, name);
        if (!v.isEmpty() && !v.equals("yes") && !v.equals("no")) {
            throw new InvalidInputException("the filter '" + name + "' is yes, no or empty, not " + v);
        }
        return v;
    }

    private static long number(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            return 0;
        }
        long n = Api.integer(v.strip(), "the query parameter '" + name + "'");
        if (n < 0) {
            throw new InvalidInputException("the query parameter '" + name + "' is a seq of 0 or more, not " + v);
        }
        return n;
    }
}
