package dev.parley.server.internal;

import dev.parley.core.SessionId;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Wakes the event streams of a session when this server changes it. Streams also poll, for changes made through
 * other servers or processes, so a missed signal only delays an event by one poll interval. Thread-safe.
 */
public final class Signals {
    private final ConcurrentMap<String, Object> monitors = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private Object monitor(String scope, SessionId session) {
        return monitors.computeIfAbsent(scope + "\u0000" + session.value(), k -> new Object());
    }

    /** Wakes every stream of the session. */
    public void signal(String scope, SessionId session) {
        Object m = monitor(scope, session);
        synchronized (m) {
            m.notifyAll();
        }
    }

    /** Waits until the session changes, the time passes, or the server closes. */
    public void await(String scope, SessionId session, long millis) throws InterruptedException {
        if (closed) {
            return;
        }
        Object m = monitor(scope, session);
        synchronized (m) {
            m.wait(millis);
        }
    }

    /** Whether the server is closing: streams end. */
    public boolean closed() {
        return closed;
    }

    /** Ends every stream. */
    public void close() {
        closed = true;
        for (Object m : monitors.values()) {
            synchronized (m) {
                m.notifyAll();
            }
        }
    }
}
