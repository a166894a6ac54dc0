package dev.parley.server.internal;

import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.json.EntryCodec;
import dev.parley.json.Json;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.sse.SseClient;
import java.util.List;

/**
 * A session's live event stream (server-sent events): every entry appended after a sequence number, as an
 * {@code entry} event whose data is the entry's canonical JSON and whose id is its {@code seq}, so a client resumes
 * with {@code Last-Event-ID}. The start is {@code Last-Event-ID} if sent, else the {@code after} query parameter,
 * else 0 (every entry). Entries removed by a truncation are not announced; a later entry with a lower seq than one
 * already sent is not sent again (seqs are never reused).
 */
public final class EventStream {
    /** A comment is sent after this much silence, so a gone client is noticed. */
    private static final long KEEP_ALIVE_MILLIS = 15_000;
    /** Entries read per query while catching up. */
    private static final int WINDOW = 1_000;

    private final Api api;
    private final long pollMillis;

    EventStream(Api api, long pollMillis) {
        this.api = api;
        this.pollMillis = pollMillis;
    }

    /**
     * Runs before the stream: a bad session id or start is answered with a problem document (400), as every route
     * answers it, rather than inside a stream already answered 200.
     */
    static void check(Context ctx) {
        Api.session(ctx);
        start(ctx.header("Last-Event-ID"), Api.query(ctx, "after"));
        requireEventStreamAccepted(ctx);
    }

    /**
     * Refuses (406) a request that does not accept {@code text/event-stream}: Javalin streams events only when the
     * {@code Accept} header names that type, and answered any other request 200 with an empty body, as if the
     * session had no entries.
     */
    public static void requireEventStreamAccepted(Context ctx) {
        String accept = ctx.header("Accept");
        if (accept == null || !accept.contains("text/event-stream")) {
            throw new HttpResponseException(406, "an event stream is sent only to a request that accepts it: send"
                    + " 'Accept: text/event-stream' (EventSource does), not " + (accept == null ? "no Accept header"
                    : "'Accept: " + accept + "'"), java.util.Map.of());
        }
    }

    void stream(SseClient client) {
        var ctx = client.ctx();
        SessionId session = Api.session(ctx);
        Store store = api.store(ctx);
        long after = start(ctx.header("Last-Event-ID"), Api.query(ctx, "after"));
        client.keepAlive();
        long quietSince = System.nanoTime();
        try {
            while (!client.terminated() && !api.signals().closed()) {
                // What is new since the last event, a window at a time: a wake-up does not read the whole session.
                List<Entry> entries;
                do {
                    entries = store.log().loadAfter(session, after, WINDOW);
                    for (Entry e : entries) {
                        if (client.terminated()) {
                            return; // the client left during this window: a send now only logs Javalin's warning
                        }
                        client.sendEvent("entry", Json.write(EntryCodec.encode(e)), Long.toString(e.seq()));
                        after = e.seq();
                        quietSince = System.nanoTime();
                    }
                } while (entries.size() == WINDOW && !client.terminated());
                if (!client.terminated() && (System.nanoTime() - quietSince) / 1_000_000 > KEEP_ALIVE_MILLIS) {
                    client.sendComment("keep-alive");
                    quietSince = System.nanoTime();
                }
                api.signals().await(store.scope(), session, pollMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            client.close();
        }
    }

    private static long start(String lastEventId, String after) {
        String v = lastEventId != null && !lastEventId.isBlank() ? lastEventId : after;
        if (v == null) {
            return 0;
        }
        long seq = Api.integer(v.strip(), "the seq the event stream starts after");
        if (seq < 0) {
            throw new InvalidInputException("the event stream starts after a seq of 0 or more, not " + seq);
        }
        return seq;
    }
}
