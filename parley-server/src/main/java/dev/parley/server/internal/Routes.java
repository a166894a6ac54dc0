package dev.parley.server.internal;

import dev.parley.server.browser.Browser;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.sse.SseClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Every route of the server, in one place. {@code openapi.json} (served at {@code /openapi.json}) describes the same
 * routes; a test checks that the two agree. Every route runs {@link Access#checkLoopback} first (a server without
 * tokens answers only loopback), every {@code /v1} route {@link Access#check}; every page of the
 * session browser runs {@link Browser#page} (the same tokens, from a cookie).
 */
public final class Routes {
    private Routes() {}

    /**
     * Declares the routes, the access check and the error mapping.
     *
     * @param pollMillis the poll interval of event streams, in milliseconds
     */
    public static void declare(RoutesConfig r, Api api, Access access, Browser browser, long pollMillis) {
        Errors.register(r);
        r.before(access::checkLoopback);
        r.before("/v1/*", access::check);
        String openapi = openapi();
        get(r, "/openapi.json", ctx -> ctx.contentType("application/json").result(openapi));

        get(r, "/v1/health", api::health);
        r.delete("/v1/scope", api::deleteScope);

        // the message log (Planck's persistence behaviour) and its catalog
        get(r, "/v1/log/sessions", api::listSessions);
        r.post("/v1/log/sessions", api::createSession);
        get(r, "/v1/log/most-recent", api::mostRecent);
        get(r, "/v1/log/by-prefix", api::byPrefix);
        get(r, "/v1/log/by-origin", api::byOrigin);
        get(r, "/v1/log/sessions/{session}", api::findSession);
        r.delete("/v1/log/sessions/{session}", api::deleteSession);
        get(r, "/v1/log/sessions/{session}/entries", api::load);
        r.post("/v1/log/sessions/{session}/truncate", api::truncate);
        r.post("/v1/log/sessions/{session}/agents/{agent}/entries", api::append);
        get(r, "/v1/log/sessions/{session}/agents/{agent}/last", api::lastEntry);
        get(r, "/v1/log/sessions/{session}/agents/{agent}/last-seq", api::lastSeq);
        get(r, "/v1/log/sessions/{session}/agents/{agent}/usage", api::usage);
        r.before("/v1/log/sessions/{session}/events", EventStream::check);
        sse(r, "/v1/log/sessions/{session}/events", new EventStream(api, pollMillis)::stream);

        // session records (Heddle's repository), ids in the query: a record id may hold any character
        get(r, "/v1/records", api::listRecords);
        r.post("/v1/records", api::createRecord);
        get(r, "/v1/record", api::readRecord);
        r.put("/v1/record", api::updateRecord);
        r.delete("/v1/record", api::deleteRecord);

        // archives
        get(r, "/v1/archives/manifest", api::manifest);
        r.post("/v1/archives", api::appendArchive);
        get(r, "/v1/archives/summary", api::summary);
        get(r, "/v1/archives/messages", api::archivedMessages);

        // the session service: ensure, queued prompts, leases with fencing tokens
        r.post("/v1/service/ensure", api::ensure);
        r.post("/v1/service/queue", api::enqueue);
        r.put("/v1/service/queue", api::updateQueued);
        r.delete("/v1/service/queue", api::deleteQueued);
        r.post("/v1/service/dequeue", api::dequeue);
        r.post("/v1/service/lease", api::acquireLease);
        r.post("/v1/service/lease/refresh", api::refreshLease);
        r.post("/v1/service/lease/release", api::releaseLease);

        // the session browser (HTML; static files under /assets and /webjars)
        get(r, "/", browser.page(browser::list));
        get(r, "/s/{session}", browser.page(browser::session));
        get(r, "/s/{session}/tree", browser.page(browser::tree));
        get(r, "/s/{session}/e/{entry}", browser.page(browser::entry));
        get(r, "/s/{session}/export/{format}", browser.page(browser::export));
        r.before("/s/{session}/live", browser::liveAccess);
        sse(r, "/s/{session}/live", browser::live);
        get(r, "/records", browser.page(browser::records));
        get(r, "/records/view", browser.page(browser::record));
        get(r, "/login", browser::loginForm);
        r.post("/login", browser::login);
        r.post("/logout", browser::logout);
    }

    /**
     * A read route: GET, and HEAD through the same handler, whose body Jetty leaves out. Javalin's own answer to a HEAD
     * with a GET route is 200 without running anything, so a session that does not exist, another scope's session
     * and a malformed id all answered 200.
     */
    private static void get(RoutesConfig r, String path, Handler handler) {
        r.get(path, handler);
        r.head(path, handler);
    }

    /**
     * An event stream: GET, and HEAD answered as the GET's first response would be after the route's checks (its
     * {@code before} handler), without starting a stream.
     */
    private static void sse(RoutesConfig r, String path, Consumer<SseClient> stream) {
        r.sse(path, stream);
        r.head(path, ctx -> ctx.contentType("text/event-stream"));
    }

    private static String openapi() {
        try (InputStream in = Routes.class.getResourceAsStream("/dev/parley/server/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
