package dev.parley.server.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.ParleyException;
import dev.parley.json.Json;
import dev.parley.json.wire.Problems;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EndPoint;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one mapping from errors to HTTP answers: a {@link ParleyException} becomes the problem document of its
 * {@link dev.parley.core.ErrorCode} ({@link Problems#of(ParleyException)}), an HTTP-level refusal (401, 403, 413, an
 * unknown route) a problem document with a code of its own, and anything else a 500 problem document that hides the
 * internals (and is logged).
 */
final class Errors {
    private static final Logger LOG = LoggerFactory.getLogger(Errors.class);
    /** The most of a refused request's body read (and dropped) before the answer, in bytes. */
    private static final long DISCARDED_AT_MOST = 64L * 1024 * 1024;
    /** The longest a refused request's body is read for, in milliseconds, however it trickles in. */
    private static final long DISCARD_FOR_AT_MOST_MILLIS = 5_000;
    /** The longest one read of a refused request's body waits for bytes, in milliseconds. */
    private static final long DISCARD_WAITS_AT_MOST_MILLIS = 1_000;
    /** How many refused bodies are read at once, at most; beyond them, a refused body is left unread. */
    private static final int DISCARDING_AT_MOST = 8;
    private static final Semaphore DISCARDING = new Semaphore(DISCARDING_AT_MOST);

    private Errors() {}

    static void register(RoutesConfig routes) {
        routes.exception(ParleyException.class, (e, ctx) -> answer(ctx, Problems.of(e)));
        routes.exception(HttpResponseException.class, (e, ctx) -> {
            if (e.getStatus() == 405) {
                allowed(e).ifPresent(methods -> ctx.header("Allow", methods)); // RFC 9110: a 405 names them
            }
            answer(ctx, Problems.of(e.getStatus(), Access.codeOf(e.getStatus()), e.getMessage()));
        });
        routes.exception(Exception.class, (e, ctx) -> {
            if (ended(ctx, e)) {
                return;
            }
            HttpException unreadable = unreadableRequest(e);
            if (unreadable != null) {
                // The client's doing, not the server's: a body cut short, badly chunked, or stalled past the idle timeout
                LOG.debug("{} {}: the request could not be read", ctx.method(), ctx.path(), e);
                int status = unreadable.getCode() >= 400 && unreadable.getCode() < 500 ? unreadable.getCode() : 400;
                // Nothing more is read of a body that failed: it is over, or stalled.
                send(ctx, Problems.of(status, Access.codeOf(status), "the request could not be read: "
                        + (unreadable.getReason() != null ? unreadable.getReason() : e.getMessage())));
                return;
            }
            LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
            answer(ctx, Problems.of(500, "INTERNAL", "the server failed: " + e.getClass().getSimpleName()));
        });
        routes.error(404, "*", ctx -> {
            if (ended(ctx, null)) {
                return;
            }
            String type = ctx.res().getContentType();
            if (!Problems.MEDIA_TYPE.equals(type) && (type == null || !type.startsWith("text/html"))) {
                answer(ctx, Problems.of(404, Access.codeOf(404), "no route " + ctx.method() + " " + ctx.path()));
            }
        });
        routes.error(405, "*", ctx -> {
            if (!ended(ctx, null)) {
                answer(ctx, Problems.of(405, Access.codeOf(405), "method " + ctx.method() + " is not allowed on "
                        + ctx.path()));
            }
        });
    }

    /**
     * The methods a path takes, as a 405 of Javalin's lists them in its details (under a key that names them: it
     * differs between Javalin's plain and JSON answers), joined by ", ".
     */
    private static java.util.Optional<String> allowed(HttpResponseException e) {
        return e.getDetails().entrySet().stream()
                .filter(d -> d.getKey().toLowerCase(java.util.Locale.ROOT).replace(" ", "").equals("availablemethods"))
                .map(java.util.Map.Entry::getValue).filter(v -> !v.isBlank()).findFirst();
    }

    /**
     * Jetty's failure to read a request, anywhere in {@code e}'s causes: a body that ended before its
     * {@code Content-Length}, a malformed chunk, a body that stopped arriving until the idle timeout (408). Null when it
     * is not one.
     */
    private static @Nullable HttpException unreadableRequest(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpException http) {
                return http;
            }
            if (t instanceof java.util.concurrent.TimeoutException) {
                return new HttpException.RuntimeException(408,
                        "the request's body stopped arriving");
            }
        }
        return null;
    }

    /**
     * Whether the exchange of {@code ctx} is over: the client left and Jetty recycled the request, so that reading it
     * throws. Nothing can be answered then, and an error handler must not throw: one that did (reading the path of such
     * a request) sent Javalin round its error handling again and again, a CI log of 2.8 million lines. Logged at DEBUG.
     */
    private static boolean ended(Context ctx, @Nullable Throwable failure) {
        try {
            ctx.req().getRequestURI();
            return false;
        } catch (RuntimeException recycled) {
            LOG.debug("a request failed after its exchange had ended", failure != null ? failure : recycled);
            return true;
        }
    }

    static void answer(Context ctx, ObjectNode problem) {
        if (ended(ctx, null)) {
            return;
        }
        discardUnreadBody(ctx);
        send(ctx, problem);
    }

    private static void send(Context ctx, ObjectNode problem) {
        // Bytes: JSON is UTF-8, and a String result of a media type without a charset went out as ISO-8859-1.
        ctx.status(problem.path("status").asInt(500)).contentType(Problems.MEDIA_TYPE)
                .result(Json.write(problem).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Reads and drops what is left of the request's body, up to {@link #DISCARDED_AT_MOST} bytes, before a refusal
     * is sent. A server that answers and closes with the body unread makes the kernel reset the connection, and a
     * client still sending often loses the answer with it ("received no bytes") instead of reading the 413 or 401.
     * The reading is bounded in time as well as in bytes, so that a client trickling its body (an unauthenticated
     * one too) holds a server thread for at most {@value #DISCARD_FOR_AT_MOST_MILLIS} ms plus one wait of
     * {@value #DISCARD_WAITS_AT_MOST_MILLIS} ms; and at most {@value #DISCARDING_AT_MOST} are read at once, so that
     * many slow clients cannot hold more threads than that. A body that is longer, or slower, or refused while those
     * are busy, is left unread: the connection is closed after the answer.
     */
    private static void discardUnreadBody(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > DISCARDED_AT_MOST) {
            return;
        }
        ServletContextRequest request = ServletContextRequest.getServletContextRequest(ctx.req());
        if (request == null) { // not a request of Jetty's servlet context: nothing bounds the wait, so nothing is read
            LOG.debug("the body of a refused {} {} is left unread: no Jetty request to bound the reading by",
                    ctx.method(), ctx.path());
            return;
        }
        if (!DISCARDING.tryAcquire()) {
            return;
        }
        try {
            discard(ctx, request.getConnectionMetaData().getConnection().getEndPoint());
        } finally {
            DISCARDING.release();
        }
    }

    private static void discard(Context ctx, EndPoint endPoint) {
        long idleTimeout = endPoint.getIdleTimeout();
        endPoint.setIdleTimeout(idleTimeout > 0 ? Math.min(idleTimeout, DISCARD_WAITS_AT_MOST_MILLIS)
                : DISCARD_WAITS_AT_MOST_MILLIS);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DISCARD_FOR_AT_MOST_MILLIS);
        try {
            InputStream in = ctx.req().getInputStream();
            byte[] buffer = new byte[64 * 1024];
            long read = 0;
            for (int n; read < DISCARDED_AT_MOST && System.nanoTime() - deadline < 0 && (n = in.read(buffer)) >= 0; ) {
                read += n;
            }
        } catch (IOException | IllegalStateException | HttpException.RuntimeException e) {
            // the body is gone, stalled, malformed (Jetty's HttpException), or was taken as a reader: the answer goes
            // out as it is
            LOG.debug("the rest of a refused request's body could not be read", e);
        } finally {
            endPoint.setIdleTimeout(idleTimeout);
        }
    }
}
