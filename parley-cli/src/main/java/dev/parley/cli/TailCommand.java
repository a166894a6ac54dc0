package dev.parley.cli;

import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.json.EntryCodec;
import dev.parley.json.Json;
import dev.parley.remote.RemoteStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley tail SESSION}: follows a session like {@code tail -f} — the live event stream on {@code remote:},
 * polling the log elsewhere. A session that does not exist is an error (exit 3), except on {@code remote:}, where a
 * full id the server does not know yet is followed until its first entry (saying so); a {@code remote:} server that
 * does not answer is an error (exit 7), never followed from the fallback store's copy.
 */
@Command(name = "tail", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Follow a session like tail -f: print its last entries, then every entry appended, until "
                + "interrupted.", "On remote: the server's event stream; on other stores the log is polled."})
final class TailCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SESSION", description = "A session id (or a unique prefix of one).")
    String session;

    @Option(names = {"-n", "--lines"}, paramLabel = "N", description = "Entries to print first (default: ${DEFAULT-VALUE}).")
    int lines = 10;

    @Option(names = "--json", description = "Print each entry as its canonical JSON line.")
    boolean json;

    @Option(names = "--poll-millis", paramLabel = "MS", description = "The poll interval off remote: (default: ${DEFAULT-VALUE}).")
    long pollMillis = 500;

    @Option(names = "--count", paramLabel = "N", hidden = true, description = "Stop after N entries (for tests).")
    long count = Long.MAX_VALUE;

    private long printed;

    /** The most entries one poll reads: a poll after a burst reads the rest at the next. */
    private static final int POLL_PAGE = 1_000;

    @Override
    public Integer call() throws InterruptedException {
        if (lines < 0) {
            throw new InvalidInputException("-n needs a number of entries of 0 or more, not " + lines);
        }
        if (pollMillis <= 0) {
            throw new InvalidInputException("--poll-millis needs a positive number of milliseconds, not " + pollMillis);
        }
        Store store = root.existingStore();
        long fellBack = root.fallbacks();
        SessionId id;
        try {
            id = root.resolveSession(session);
        } catch (NotFoundException e) {
            if (!(store instanceof RemoteStore) || !Ids.isValid(session)) {
                throw e;
            }
            // The server answered that there is no such session: its live stream shows the session once it begins.
            id = new SessionId(session);
            spec.commandLine().getErr().println("parley: no session " + id + " on " + root.storeLabel()
                    + " yet; waiting for its first entry");
            spec.commandLine().getErr().flush();
        }
        PrintWriter out = spec.commandLine().getOut();
        List<Entry> existing = store.log().load(id, null);
        if (root.fallbacks() > fellBack) {
            // The fallback store's copy is not the server's: its last entries, and its last seq as the point to follow
            // from, would show entries the server may not hold and pass over some it does.
            throw new UnavailableException("cannot follow session " + id + ": " + root.storeLabel() + " did not"
                    + " answer, and its fallback store's copy may differ from the server's; retry when the server is"
                    + " back (parley" + root.storeOption() + " remote status)", null);
        }
        long after = 0;
        for (Entry e : existing.subList(Math.max(0, existing.size() - lines), existing.size())) {
            if (!print(out, e)) {
                return 0;
            }
        }
        if (!existing.isEmpty()) {
            after = existing.get(existing.size() - 1).seq();
        }
        if (store instanceof RemoteStore remote) {
            remote.follow(id, after, e -> print(out, e));
            return 0;
        }
        while (!Thread.currentThread().isInterrupted()) {
            for (Entry e : store.log().loadAfter(id, after, POLL_PAGE)) {
                after = e.seq();
                if (!print(out, e)) {
                    return 0;
                }
            }
            Thread.sleep(pollMillis);
        }
        return 0;
    }

    private boolean print(PrintWriter out, Entry e) {
        if (json) {
            out.println(Json.write(EntryCodec.encode(e)));
        } else {
            // the line tree prints for an entry, with the whole text: tool calls and results show as →name, ←name
            out.println(e.seq() + " " + e.agentId() + " " + Terminal.line(TreeCommand.describe(e, Integer.MAX_VALUE)));
        }
        out.flush();
        return ++printed < count;
    }
}
