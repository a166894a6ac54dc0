package dev.parley.cli;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.Store;
import dev.parley.remote.RemoteStats;
import dev.parley.remote.RemoteStatus;
import dev.parley.remote.RemoteStore;
import dev.parley.remote.SyncReport;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley remote status|sync}: the fallback and replay journal of a {@code remote:} store. */
@Command(name = "remote", mixinStandardHelpOptions = true,
        description = "The fallback of a remote: store: 'status' (server reachable, breaker, pending and refused "
                + "writes), 'sync' (replay the writes that fell back, now).",
        subcommands = {RemoteCommand.Status.class, RemoteCommand.Sync.class})
final class RemoteCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    /** Without {@code status} or {@code sync}: a usage error (exit code 2). */
    @Override
    public Integer call() {
        return ParleyCommand.commandRequired(spec);
    }

    RemoteStore remote() {
        Store store = root.store();
        if (!(store instanceof RemoteStore r)) {
            throw new InvalidInputException("the store " + root.storeLabel() + " is not a remote: store");
        }
        return r;
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Whether the server answers, the breaker,"
            + " and the writes that fell back and wait to be replayed (exit 7 when the server does not answer).")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        RemoteCommand remote;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            RemoteStatus s = remote.remote().status();
            PrintWriter out = spec.commandLine().getOut();
            out.println("server     " + s.server() + (s.reachable() ? " (answers)" : " (does not answer)"));
            out.println("timeout    " + s.timeout().toMillis() + " ms");
            out.println("breaker    " + s.breaker() + " (this process's: it opens after calls fail)");
            out.println("pending    " + s.pending() + " writes that fell back, to replay");
            out.println("conflicts  " + s.conflicts() + " writes the server refused at replay");
            out.println("journal    " + s.journal());
            out.println("fallback   " + s.fallback());
            return s.reachable() ? 0 : dev.parley.core.ErrorCode.UNAVAILABLE.exitCode();
        }
    }

    @Command(name = "sync", mixinStandardHelpOptions = true, description = "Replay the writes that fell back to the "
            + "server, in order, now (exit 7 if some are still pending, 5 if the server refused some).")
    static final class Sync implements Callable<Integer> {
        @ParentCommand
        RemoteCommand remote;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            RemoteStore store = remote.remote();
            SyncReport r = store.sync();
            // Opening the store may already have replayed in the background: count what this process replayed and
            // refused since it opened the store (sync's own work included), not only what sync found still pending.
            RemoteStats since = store.stats();
            long replayed = since.replays();
            long refused = since.conflicts();
            spec.commandLine().getOut().println("replayed " + replayed + ", refused " + refused
                    + ", pending " + r.pending() + (r.stoppedBy() == null ? "" : " (" + r.stoppedBy() + ")"));
            if (r.pending() > 0) {
                return dev.parley.core.ErrorCode.UNAVAILABLE.exitCode();
            }
            return refused > 0 ? dev.parley.core.ErrorCode.REVISION_CONFLICT.exitCode() : 0;
        }
    }
}
