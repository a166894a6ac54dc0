package dev.parley.server.internal;

import dev.parley.server.browser.Browser;
import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

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
        r.get("/openapi.json", ctx -> ctx.contentType("application/json").result(openapi));

        r.get("/v1/health", api::health);
        r.delete("/v1/scope", api::deleteScope);

        // the message log (Planck's persistence behaviour) and its catalog
        r.get("/v1/log/sessions", api::listSessions);
        r.post("/v1/log/sessions", api::createSession);
        r.get("/v1/log/most-recent", api::mostRecent);
        r.get("/v1/log/by-prefix", api::byPrefix);
        r.get("/v1/log/by-origin", api::byOrigin);
        r.get("/v1/log/sessions/{session}", api::findSession);
        r.delete("/v1/log/sessions/{session}", api::deleteSession);
        r.get("/v1/log/sessions/{session}/entries", api::load);
        r.post("/v1/log/sessions/{session}/truncate", api::truncate);
        r.post("/v1/log/sessions/{session}/agents/{agent}/entries", api::append);
        r.get("/v1/log/sessions/{session}/agents/{agent}/last", api::lastEntry);
        r.get("/v1/log/sessions/{session}/agents/{agent}/last-seq", api::lastSeq);
        r.get("/v1/log/sessions/{session}/agents/{agent}/usage", api::usage);
        r.before("/v1/log/sessions/{session}/events", EventStream::check);
        r.sse("/v1/log/sessions/{session}/events", new EventStream(api, pollMillis)::stream);

        // session records (Heddle's repository), ids in the query: a record id may hold any character
        r.get("/v1/records", api::listRecords);
        r.post("/v1/records", api::createRecord);
        r.get("/v1/record", api::readRecord);
        r.put("/v1/record", api::updateRecord);
        r.delete("/v1/record", api::deleteRecord);

        // archives
        r.get("/v1/archives/manifest", api::manifest);
        r.post("/v1/archives", api::appendArchive);
        r.get("/v1/archives/summary", api::summary);
        r.get("/v1/archives/messages", api::archivedMessages);

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
        r.get("/", browser.page(browser::list));
        r.get("/s/{session}", browser.page(browser::session));
        r.get("/s/{session}/tree", browser.page(browser::tree));
        r.get("/s/{session}/e/{entry}", browser.page(browser::entry));
        r.get("/s/{session}/export/{format}", browser.page(browser::export));
        r.before("/s/{session}/live", browser::liveAccess);
        r.sse("/s/{session}/live", browser::live);
        r.get("/records", browser.page(browser::records));
        r.get("/records/view", browser.page(browser::record));
        r.get("/login", browser::loginForm);
        r.post("/login", browser::login);
        r.post("/logout", browser::logout);
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
