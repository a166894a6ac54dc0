package dev.parley.remote.internal;

import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.json.EntryCodec;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a session's server-sent events: {@code entry} events whose data is an entry's canonical JSON and whose id is
 * its seq. Reconnects with {@code Last-Event-ID} after a break, waiting the shorter of 1 s and the timeout between
 * attempts; a break is logged once, and the reconnection after it, both as warnings (what a command line shows). A TLS
 * failure of this client's configuration ({@link Transport#misconfigured}) ends it with {@link Misconfigured}.
 */
public final class EventReader {
    private static final Logger LOG = LoggerFactory.getLogger("dev.parley.remote");

    private final Transport transport;
    private final @Nullable String scope;

    public EventReader(Transport transport, @Nullable String scope) {
        this.transport = transport;
        this.scope = scope;
    }

    /** See {@link dev.parley.remote.RemoteStore#follow}. */
    public void follow(SessionId session, long afterSeq, Predicate<Entry> onEntry) {
        long last = afterSeq;
        boolean broken = false;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                var request = transport.builder("/v1/log/sessions/" + session.value() + "/events?after=" + last, scope)
                        .header("Accept", "text/event-stream").header("Last-Event-ID", Long.toString(last))
                        .GET().build();
                HttpResponse<Stream<String>> response = transport.client().send(request,
                        HttpResponse.BodyHandlers.ofLines());
                int status = response.statusCode();
                if (status >= 400 && status < 500 && status != 408 && status != 429) { // not "try again later"
                    String body = String.join("\n", response.body().toList());
                    throw new InvalidInputException("the event stream of " + session + " was refused with HTTP "
                            + response.statusCode() + ": " + body);
                }
                if (status != 200) { // a 5xx, 408, 429, a redirect (a proxy, a server stopping): a break like any other
                    try (Stream<String> ignored = response.body()) {
                        throw new IOException("HTTP " + response.statusCode());
                    }
                }
                if (broken) {
                    LOG.warn("remote store {}: the event stream of session {} is back after seq {}",
                            transport.settings().server(), session, last);
                    broken = false;
                }
                try (Stream<String> lines = response.body()) {
                    Iterator<String> it = lines.iterator();
                    StringBuilder data = new StringBuilder();
                    String event = null;
                    while (it.hasNext()) {
                        String line = it.next();
                        if (line.isEmpty()) {
                            if ("entry".equals(event) && data.length() > 0) {
                                Entry e = EntryCodec.decode(data.toString(), "event stream of " + session);
                                last = Math.max(last, e.seq());
                                if (!onEntry.test(e)) {
                                    return;
                                }
                            }
                            data.setLength(0);
                            event = null;
                        } else if (line.startsWith("data:")) {
                            if (data.length() > 0) {
                                data.append('\n');
                            }
                            data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
                        } else if (line.startsWith("event:")) {
                            event = line.substring(6).strip();
                        }
                    }
                }
                throw new IOException("the server ended the stream"); // it is stopping: reconnect after a pause
            } catch (IOException | java.io.UncheckedIOException e) { // a line stream fails with the unchecked one
                Misconfigured misconfigured = transport.misconfigured("the event stream of " + session,
                        e instanceof java.io.UncheckedIOException u ? u.getCause() : (IOException) e);
                if (misconfigured != null) {
                    throw misconfigured; // no reconnection mends it
                }
                if (!broken) {
                    LOG.warn("remote store {}: the event stream of session {} broke after seq {} ({}); reconnecting"
                            + " until the server answers", transport.settings().server(), session, last,
                            e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                    broken = true;
                }
                pause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(Math.min(1000, transport.settings().timeout().toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
