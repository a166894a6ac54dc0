package dev.parley.cli;

import dev.parley.server.ServerConfig;
import dev.parley.server.ServerMain;
import dev.parley.server.Tokens;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code parley serve}: the HTTP API over the store, until the process is stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve the store over HTTP (JSON API, problem documents, /openapi.json; the session browser at /) until"
                        + " stopped.",
                "Listens on loopback unless --bind names another address, which needs tokens. Each token is bound to"
                        + " one scope (a file of TOKEN=SCOPE lines, or " + Tokens.ENV + "); a request's scope is its"
                        + " token's. Clients open it as remote:http://HOST:PORT."})
final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Option(names = "--port", paramLabel = "N", description = "The TCP port (default: ${DEFAULT-VALUE}; 0 for a free one).")
    int port = ServerConfig.DEFAULT_PORT;

    @Option(names = "--bind", paramLabel = "ADDR", description = "The address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = ServerConfig.DEFAULT_BIND;

    @Option(names = "--tokens", paramLabel = "FILE", description = "Bearer tokens, one TOKEN=SCOPE per line; a token is"
            + " 16 or more characters, without spaces, '=' or ','.")
    @Nullable Path tokens;

    @Option(names = "--max-body-bytes", paramLabel = "N",
            description = "The largest request body, in bytes (default: ${DEFAULT-VALUE}); larger ones get 413.")
    long maxBodyBytes = ServerConfig.DEFAULT_MAX_BODY_BYTES;

    @Override
    public Integer call() throws InterruptedException {
        Tokens all = Tokens.fromEnvironment(root.environment);
        if (tokens != null) {
            all = Tokens.read(tokens).and(all);
        }
        ServerConfig config = new ServerConfig(bind, port, all, maxBodyBytes,
                ServerConfig.DEFAULT_EVENT_POLL_INTERVAL);
        // Nothing is announced before the server listens: a port in use fails first, with one line.
        String serving = "serving " + root.storeLabel() + System.lineSeparator() + "listening on ";
        ServerMain.serve(root.creatableStoreUri(), config, new PrintStream(System.out, true, StandardCharsets.UTF_8),
                uri -> serving + uri);
        return 0;
    }
}
