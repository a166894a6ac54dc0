package dev.parley.server;

import dev.parley.core.InvalidInputException;
import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The server as a plain program, for a process of its own (a sidecar, the fault tests):
 * {@code java -cp … dev.parley.server.ServerMain --store URI [--port N] [--bind ADDR] [--tokens FILE]
 * [--max-body-bytes N]}. Tokens also come from {@value Tokens#ENV}. Prints {@code listening on http://HOST:PORT} on
 * standard output once it accepts requests, and runs until it is stopped (the store is closed on SIGTERM). {@code
 * parley serve} does the same from the {@code parley} command.
 */
public final class ServerMain {
    private ServerMain() {}

    /**
     * Runs the server until the JVM is stopped. A bad command line, a port it cannot listen on or a store that cannot
     * be opened prints {@code parley server: MESSAGE} on standard error and exits with the status of the error's code
     * ({@link dev.parley.core.ErrorCode#exitCode()}); nothing is announced then.
     *
     * @param args {@code --store URI} (required), {@code --port N} (0 to 65535; 0 picks a free port),
     *     {@code --bind ADDR}, {@code --tokens FILE} (added to the tokens of {@value Tokens#ENV}) and
     *     {@code --max-body-bytes N}, each option followed by its value; what is not given is as in
     *     {@link ServerConfig#defaults()}
     * @throws InterruptedException if interrupted while it serves
     */
    public static void main(String[] args) throws InterruptedException {
        try {
            run(args);
        } catch (ParleyException e) {
            System.err.println("parley server: " + e.getMessage());
            System.exit(e.code().exitCode());
        }
    }

    /** {@link #main} without the exit: what a bad command line throws. */
    static void run(String[] args) throws InterruptedException {
        String store = null;
        ServerConfig config = ServerConfig.defaults();
        Tokens tokens = Tokens.fromEnvironment(System.getenv());
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                throw new InvalidInputException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--store" -> store = value;
                case "--port" -> config = config.withPort(port(value));
                case "--bind" -> config = config.withBind(value);
                case "--tokens" -> tokens = Tokens.read(Path.of(value)).and(tokens);
                case "--max-body-bytes" -> config = config.withMaxBodyBytes(number(args[i], value));
                default -> throw new InvalidInputException("unknown option " + args[i]);
            }
            i++;
        }
        if (store == null) {
            throw new InvalidInputException("--store URI is required");
        }
        serve(store, config.withTokens(tokens), System.out, uri -> "listening on " + uri);
    }

    /** A TCP port, refused when out of range rather than cut to the low 32 bits of what was given. */
    private static int port(String value) {
        long port = number("--port", value);
        if (port < 0 || port > 65535) {
            throw new InvalidInputException("--port must be 0 to 65535, not " + value);
        }
        return (int) port;
    }

    private static long number(String option, String value) {
        return dev.parley.server.internal.Api.integer(value, option);
    }

    /**
     * Serves {@code store} until the JVM ends; closes the server and the store on shutdown.
     *
     * @param store the store to serve; closed on shutdown, or at once if the server cannot start
     * @param config where and how to listen
     * @param out where the listening line is printed
     * @throws UnavailableException if the server cannot listen; the store is closed
     * @throws InterruptedException if the calling thread is interrupted while it serves; the server keeps serving
     *     until the JVM ends, when it and the store are closed
     */
    public static void serve(Store store, ServerConfig config, java.io.PrintStream out) throws InterruptedException {
        serve(store, config, out, uri -> "listening on " + uri);
    }

    /**
     * Serves the store at {@code storeUri} until the JVM ends, like {@link #serve(Store, ServerConfig,
     * java.io.PrintStream, java.util.function.Function)}; first checks that the server can listen, so that a port in
     * use fails before the store is opened (or created) and before anything is announced.
     *
     * @param storeUri the URI of the store to open and serve ({@link Stores#open(String)})
     * @param config where and how to listen
     * @param out where the announcement is printed
     * @param announce the line to print, given the server's base URI
     * @throws UnavailableException if the server cannot listen
     * @throws ParleyException if the store cannot be opened
     * @throws InterruptedException if the calling thread is interrupted while it serves; the server keeps serving
     *     until the JVM ends, when it and the store are closed
     */
    public static void serve(String storeUri, ServerConfig config, java.io.PrintStream out,
                             java.util.function.Function<java.net.URI, String> announce) throws InterruptedException {
        ParleyServer.checkCanListen(config);
        serve(Stores.open(storeUri), config, out, announce);
    }

    /**
     * Serves {@code store} until the JVM ends, like {@link #serve(Store, ServerConfig, java.io.PrintStream)}, printing
     * {@code announce} of the server's base URI once it accepts requests.
     *
     * @param store the store to serve; closed on shutdown, or at once if the server cannot start
     * @param config where and how to listen
     * @param out where the announcement is printed, and flushed
     * @param announce the line to print, given the server's base URI
     * @throws UnavailableException if the server cannot listen; the store is closed
     * @throws InterruptedException if the calling thread is interrupted while it serves; the server keeps serving
     *     until the JVM ends, when it and the store are closed
     */
    public static void serve(Store store, ServerConfig config, java.io.PrintStream out,
                             java.util.function.Function<java.net.URI, String> announce) throws InterruptedException {
        ParleyServer server;
        try {
            server = ParleyServer.start(store, config);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            store.close();
            stopped.countDown();
        }));
        out.println(announce.apply(server.uri()));
        out.flush();
        stopped.await();
    }
}
