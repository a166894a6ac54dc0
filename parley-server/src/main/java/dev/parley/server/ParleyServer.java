package dev.parley.server;

import dev.parley.core.IdGenerator;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.server.internal.Access;
import dev.parley.server.internal.Api;
import dev.parley.server.internal.ProblemErrorHandler;
import dev.parley.server.internal.Routes;
import dev.parley.server.internal.Signals;
import dev.parley.server.browser.Browser;
import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Parley server: the JSON HTTP API and the session browser (HTML pages at {@code /}) over one store, on
 * Javalin 7 (Jetty 12). The routes are in
 * {@code dev.parley.server.internal.Routes} and described at {@code /openapi.json}; errors are RFC 9457 problem
 * documents carrying Parley's stable code; a request's scope is its bearer token's ({@link Tokens}).
 *
 * <p>The server does not own the store: closing the server leaves the store open, for the caller to close. Several
 * servers may serve one store that is {@linkplain dev.parley.core.store.Capability#MULTI_PROCESS multi-process}
 * (PostgreSQL, SQLite, the file stores) with the guarantees the store gives one process: the server keeps no state of
 * its own between requests. Thread-safe.
 */
public final class ParleyServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ParleyServer.class);

    private final Javalin app;
    private final Signals signals;
    private final String host;

    private ParleyServer(Javalin app, Signals signals, String host) {
        this.app = app;
        this.signals = signals;
        this.host = host;
    }

    /**
     * Starts a server on {@code store}.
     *
     * @param store the store to serve; it stays the caller's to close
     * @param config where and how to listen
     * @return the server, accepting requests
     * @throws UnavailableException if it cannot listen (the port is taken, the address is not local)
     */
    public static ParleyServer start(Store store, ServerConfig config) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(config, "config");
        Signals signals = new Signals();
        Api api = new Api(store, Clock.systemUTC(), IdGenerator.uuidV7(), signals);
        Tokens tokens = config.tokens();
        Access access = new Access(tokens::scopeOf, tokens.isEmpty(), Tokens.ANY_SCOPE, config.maxBodyBytes(),
                config.bind());
        Javalin app = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.http.maxRequestSize = config.maxBodyBytes();
            c.http.prefer405over404 = true; // a route's path with another method: 405 naming the methods it takes
            c.jetty.host = config.bind();
            c.jetty.port = config.port();
            c.jetty.modifyServer(server -> server.setErrorHandler(new ProblemErrorHandler()));
            c.staticFiles.enableWebjars();
            c.staticFiles.add(files -> {
                files.hostedPath = "/assets";
                files.directory = "/dev/parley/server/browser/assets";
                files.location = Location.CLASSPATH;
            });
            Browser browser = new Browser(store, tokens, tokens.isEmpty(), Tokens.ANY_SCOPE, signals,
                    config.eventPollInterval().toMillis());
            Routes.declare(c.routes, api, access, browser, config.eventPollInterval().toMillis());
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            throw new UnavailableException("cannot listen on " + config.bind() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
        LOG.info("parley server on http://{}:{} serving {} ({} tokens)", config.bind(), app.port(), store.uri(),
                tokens.size());
        return new ParleyServer(app, signals, config.bind());
    }

    /**
     * Checks, without starting a server, that one with {@code config} could listen now: binds its address and port and
     * lets go at once, so that a caller can fail before it opens a store or announces anything. The port may still be
     * taken before {@link #start} binds it, which {@code start} reports the same way. Port 0 (a free one) always passes.
     *
     * @param config the address and port to check
     * @throws UnavailableException if the port is taken or the address is not one of this machine's
     */
    public static void checkCanListen(ServerConfig config) {
        Objects.requireNonNull(config, "config");
        if (config.port() == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as Jetty binds: a port whose old connections linger in TIME_WAIT is free
            socket.bind(new InetSocketAddress(InetAddress.getByName(config.bind()), config.port()));
        } catch (IOException e) {
            throw new UnavailableException("cannot listen on " + config.bind() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The port the server listens on.
     *
     * @return the port, the one picked when the configuration asked for port 0
     */
    public int port() {
        return app.port();
    }

    /**
     * The server's base URI, {@code http://HOST:PORT}.
     *
     * @return the URI, with the configured address as HOST (in brackets for an IPv6 address) and {@link #port()}
     */
    public URI uri() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port());
    }

    /** Stops listening and ends every event stream. Idempotent; the store stays open. */
    @Override
    public void close() {
        signals.close();
        app.stop();
    }
}
