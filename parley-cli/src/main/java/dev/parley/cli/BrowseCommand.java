package dev.parley.cli;

import dev.parley.server.ServerConfig;
import dev.parley.server.ServerMain;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code parley browse}: the session browser on a free loopback port, for one person on this machine: no tokens, no
 * login. Prints the URL and runs until stopped. ({@code parley serve} serves the same pages beside the JSON API.)
 */
@Command(name = "browse", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Open the session browser: web pages of the store's sessions, on a free loopback port.",
                "Prints the URL to open, and runs until stopped (Ctrl-C). Loopback only, without tokens: for"
                        + " a shared server with tokens use parley serve, which serves the same pages."})
final class BrowseCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Option(names = "--port", paramLabel = "N", description = "The TCP port (default: 0, a free one).")
    int port;

    @Override
    public Integer call() throws InterruptedException {
        ServerConfig config = ServerConfig.defaults().withPort(port);
        dev.parley.server.ParleyServer.checkCanListen(config); // a port in use is the first thing said
        root.requireExistingStore(); // the browser only reads: a mistyped path is reported, not created
        String browsing = "browsing " + root.storeLabel() + System.lineSeparator() + "session browser at ";
        ServerMain.serve(root.storeUri(), config, new PrintStream(System.out, true, StandardCharsets.UTF_8),
                uri -> browsing + uri + "/");
        return 0;
    }
}
