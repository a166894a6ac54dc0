package dev.parley.cli;

import dev.parley.agent.memory.MemoryIds;
import dev.parley.core.ErrorCode;
import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreUri;
import dev.parley.core.store.Stores;
import dev.parley.remote.RemoteStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code parley} command. Every subcommand takes {@code --store URI} (before or after the subcommand's name);
 * without it the embedded default store is used ({@code sqlite:$PARLEY_HOME/parley.db}).
 *
 * <p>Exit codes: 0 success; 1 an unexpected internal error; 2 invalid input or usage; otherwise the
 * {@link ErrorCode#exitCode()} of the error (3 not found, 4 already exists, 6 corrupt record, 7 unavailable…);
 * 10 a conformance scenario failed.
 */
@Command(name = "parley", mixinStandardHelpOptions = true, versionProvider = ParleyCommand.Version.class,
        description = "Durable, pluggable conversation sessions for LLM agents.",
        subcommands = {ImportCommand.class, SessionsCommand.class, ShowCommand.class, TreeCommand.class, ChatCommand.class,
                DemoCommand.class,
                ExportCommand.class, DeleteCommand.class, ConformanceCommand.class, BackupCommand.class,
                RestoreCommand.class, ServeCommand.class, BrowseCommand.class, RemoteCommand.class, TailCommand.class,
                CommandLine.HelpCommand.class})
public final class ParleyCommand implements Callable<Integer> {

    @Option(names = "--store", scope = ScopeType.INHERIT, paramLabel = "URI",
            description = "The store: sqlite:PATH, jsonl:DIR, postgres:JDBC-URL, remote:URL, memory: or null: (default:"
                    + " the embedded SQLite store, sqlite:$PARLEY_HOME/parley.db).",
            defaultValue = "${sys:parley.store:-__DEFAULT__}")
    String store;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private @Nullable Store opened;

    /**
     * The environment {@code chat} reads its providers' keys and URLs from and {@code serve} its tokens: the
     * process's by default. (The store's own settings, {@code PARLEY_HOME} and a remote token, come from the
     * process's environment.)
     */
    java.util.Map<String, String> environment = System.getenv();

    /** Without a command: a usage error (exit code 2), with the usage on standard error. */
    @Override
    public Integer call() {
        return commandRequired(spec);
    }

    /**
     * What a command that only groups others does when given none: says so and prints its usage on standard error.
     *
     * @return 2, the exit code of a usage error
     */
    static int commandRequired(CommandLine.Model.CommandSpec spec) {
        CommandLine cli = spec.commandLine();
        cli.getErr().println(spec.qualifiedName() + ": a command is required");
        cli.usage(cli.getErr());
        return 2;
    }

    /** The store URI in use. */
    String storeUri() {
        return store == null || store.equals("__DEFAULT__") ? Stores.defaultUri() : store;
    }

    /** The store URI for messages and hints: its password masked. */
    String storeLabel() {
        return Stores.redact(storeUri());
    }

    /** {@code " --store URI"} for a command line to print (masked and quoted), or empty for the default store. */
    String storeOption() {
        return store == null || store.equals("__DEFAULT__") ? "" : " --store " + Terminal.shellQuote(storeLabel());
    }

    /** The store, opened (and created if absent) on first use, and closed when the command ends. */
    Store store() {
        if (opened == null) {
            opened = Stores.open(creatableStoreUri(), StoreOptions.defaults());
        }
        return opened;
    }

    /**
     * The store URI, for a command that may create the store there: a {@code sqlite:} file or {@code jsonl:} directory
     * is created, but not a missing directory above it (a mistyped path must not leave a tree of directories behind),
     * except Parley's own home, which holds the default store.
     *
     * @throws InvalidInputException naming the missing directory
     */
    String creatableStoreUri() {
        String uri = storeUri();
        StoreUri parsed = StoreUri.parse(uri);
        if ((parsed.scheme().equals("sqlite") || parsed.scheme().equals("jsonl")) && !parsed.location().isBlank()) {
            Path parent = parsed.path("a path", "/var/lib/app/parley").toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent) && !parent.equals(Stores.home().toAbsolutePath())) {
                throw new InvalidInputException("cannot create the store " + storeLabel() + ": the directory " + parent
                        + " does not exist");
            }
        }
        return uri;
    }

    /** The store's message log, opened (and created if absent) on first use. */
    MessageLog log() {
        return store().log();
    }

    /**
     * The store, for commands that only read or remove: a store whose storage does not exist yet is reported instead
     * of being created (a mistyped path must not look like an empty store).
     *
     * @throws NotFoundException if the store's storage does not exist
     */
    Store existingStore() {
        requireExistingStore();
        return store();
    }

    /**
     * For a command that only reads or removes: a store that does not exist is reported, never created.
     *
     * @throws NotFoundException if there is no store at the URI
     */
    void requireExistingStore() {
        if (opened == null && !Stores.exists(storeUri())) {
            throw new NotFoundException("no store at " + storeLabel() + " (nothing has been imported or written there yet)");
        }
    }

    /** The store's catalog. @throws UnsupportedException for the null store */
    SessionCatalog catalog() {
        return existingStore().catalog().orElseThrow(() -> new UnsupportedException("the store " + storeLabel()
                + " keeps no sessions"));
    }

    /**
     * A session named by its full id or a unique prefix of it.
     *
     * @throws NotFoundException if nothing matches
     * @throws InvalidInputException if the prefix is ambiguous or cannot be an id
     */
    SessionId resolveSession(String text) {
        return resolveSession(text, false);
    }

    /**
     * {@link #resolveSession(String)}, or the session that the LangChain4j or Spring AI memory of id {@code text} is
     * stored in when {@code text} is no session id ({@code alice@example.com}; {@link MemoryIds}), for the commands
     * that read or delete a session. Not for those that write to it: a memory's session holds the memory's own
     * entries, which only its framework's adapter writes.
     *
     * @throws NotFoundException if nothing matches
     * @throws InvalidInputException if the prefix is ambiguous, or {@code text} is neither an id nor the id of a
     *     stored memory
     */
    SessionId resolveSessionOrMemory(String text) {
        return resolveSession(text, true);
    }

    private SessionId resolveSession(String text, boolean memories) {
        SessionCatalog catalog = catalog();
        long fellBack = fallbacks();
        if (Ids.isValid(text) && catalog.find(new SessionId(text)).isPresent()) {
            return new SessionId(text);
        }
        SessionId memory = memories ? memorySession(text) : null;
        if (memory != null) {
            if (catalog.find(memory).filter(info -> ownedBy(info, text)).isPresent()) {
                return memory;
            }
            if (fallbacks() > fellBack) {
                throw noSession(text, fellBack); // the server, which was not asked, may hold the memory
            }
            try {
                Ids.requireValid("session id", text);
            } catch (InvalidInputException e) {
                throw new InvalidInputException(e.getMessage() + "; nor is it the id of a LangChain4j or Spring AI"
                        + " memory stored here (that would be in session " + memory + ")", e);
            }
        }
        // A prefix of an id is an id itself: one that is not ("..", 129 characters) is invalid input, not missing.
        Ids.requireValid("session id", text);
        List<SessionId> matches = catalog.findByPrefix(text, 6);
        if (matches.isEmpty()) {
            throw noSession(text, fellBack);
        }
        if (matches.size() > 1) {
            throw new InvalidInputException("'" + text + "' matches several sessions: " + matches
                    + (matches.size() > 5 ? " …" : "") + "; give more of the id");
        }
        if (catalog.find(matches.get(0)).isEmpty()) {
            throw noSession(text, fellBack);
        }
        return matches.get(0);
    }

    /** Whether {@code info} is the session of the framework memory of id {@code memoryId} (its catalog metadata). */
    private static boolean ownedBy(SessionInfo info, String memoryId) {
        MemoryIds.Owner stored = MemoryIds.ownerOf(info);
        return stored != null && memoryId.equals(stored.id());
    }

    /** The session a framework memory of id {@code text} is stored in, when that is not {@code text} itself. */
    private static @Nullable SessionId memorySession(String text) {
        if (text.isEmpty() || Ids.isValid(text)) {
            return null;
        }
        try {
            return MemoryIds.sessionId(text);
        } catch (InvalidInputException noMemoryId) {
            return null; // an unpaired surrogate: no memory has this id either
        }
    }

    /** How many calls of a {@code remote:} store have fallen back so far (0 for any other store). */
    long fallbacks() {
        return opened instanceof RemoteStore remote ? remote.stats().fallbacks() : 0;
    }

    /**
     * That no session {@code text} was found — or, when a lookup since {@code fallbacksBefore} ({@link #fallbacks()})
     * fell back because the server did not answer, that the server could not be asked: it may hold the session, and a
     * session of that id started in the fallback store would be refused at replay.
     */
    ParleyException noSession(String text, long fallbacksBefore) {
        if (fallbacks() > fallbacksBefore) {
            return new UnavailableException("cannot tell whether session " + text + " exists: " + storeLabel()
                    + " did not answer and its fallback store has no such session; retry when the server is back"
                    + " (parley" + storeOption() + " remote status)", null);
        }
        return new NotFoundException("no session " + text + " in " + storeLabel());
    }

    void closeStore() {
        if (opened != null) {
            opened.close();
            opened = null;
        }
    }

    /**
     * Runs the command line and returns the exit code.
     *
     * @param args the command-line arguments, without the program's name
     * @param out where the command writes its output; flushed, not closed
     * @param err where errors and warnings go; flushed, not closed
     * @return 0 on success, 2 for a usage error, a {@link ParleyException}'s {@link ErrorCode#exitCode()}, 1 for
     *     another failure, or a code the command sets itself
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, System.getenv());
    }

    /** {@link #run(String[], PrintWriter, PrintWriter)} with another environment than the process's (for tests). */
    static int run(String[] args, PrintWriter out, PrintWriter err, java.util.Map<String, String> environment) {
        ParleyCommand root = new ParleyCommand();
        root.environment = environment;
        CommandLine cli = new CommandLine(root);
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, arguments) -> {
            // As every other error: "parley: " and what is wrong; then the likely meant command or option, or where
            // the command's options are listed (not the whole usage, which buries the one line that matters).
            CommandLine failed = ex.getCommandLine();
            PrintWriter errors = failed.getErr();
            errors.println("parley: " + Terminal.safe(ex.getMessage()));
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, errors)) {
                errors.println("(" + failed.getCommandSpec().qualifiedName() + " --help lists its options)");
            }
            return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            commandLine.getErr().println("parley: " + Terminal.safe(message(ex))); // may quote a server's answer
            if (System.getenv("PARLEY_DEBUG") != null) {
                ex.printStackTrace(commandLine.getErr());
            }
            return ex instanceof ParleyException p ? p.code().exitCode() : 1;
        });
        try {
            return cli.execute(args);
        } finally {
            long fellBack = root.fallbacks();
            if (fellBack > 0 && root.opened instanceof RemoteStore remote) {
                // the per-call warnings scroll away in a long import: the command ends saying where its work went
                err.println("warning: " + Terminal.count(fellBack, "call", "calls") + " of this command fell back"
                        + " to " + Stores.redact(remote.settings().fallbackUri()) + " because the server "
                        + Stores.redact(remote.settings().server().toString()) + " did not answer; its writes are"
                        + " replayed once the server answers, by the next command or by: parley" + root.storeOption()
                        + " remote sync (remote status shows what waits)");
            }
            try {
                root.closeStore();
            } catch (RuntimeException e) {
                err.println("parley: closing the store failed: " + e.getMessage());
            }
            out.flush();
            err.flush();
        }
    }

    private static String message(Throwable ex) {
        if (ex instanceof ParleyException) {
            return ex.getMessage();
        }
        return ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage());
    }

    /**
     * Runs the command line on the process's standard streams and exits with its code. Output that could not be
     * written (a full disk behind {@code > FILE}) fails the command: exit code 7, saying why, whatever the command
     * itself returned; a reader that stopped early (a closed pipe, {@code | head}) is not an error.
     *
     * @param args the command-line arguments
     */
    public static void main(String[] args) {
        StandardOutput stdout = new StandardOutput();
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(stdout,
                java.nio.charset.StandardCharsets.UTF_8), false);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err,
                java.nio.charset.StandardCharsets.UTF_8), true);
        int exit = run(args, out, err);
        out.flush();
        java.io.IOException failed = stdout.failure;
        if (failed != null && !"Broken pipe".equals(failed.getMessage())) {
            err.println("parley: cannot write standard output: " + failed.getMessage());
            exit = ErrorCode.UNAVAILABLE.exitCode();
        }
        System.exit(exit);
    }

    /** The process's standard output, unbuffered here, keeping the first write error (PrintWriter swallows it). */
    private static final class StandardOutput extends java.io.OutputStream {
        private final java.io.FileOutputStream fd = new java.io.FileOutputStream(java.io.FileDescriptor.out);
        volatile java.io.@Nullable IOException failure;

        @Override
        public void write(int b) throws java.io.IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            try {
                fd.write(b, off, len);
            } catch (java.io.IOException e) {
                if (failure == null) {
                    failure = e;
                }
                throw e;
            }
        }
    }

    /** Reports the version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = ParleyCommand.class.getPackage().getImplementationVersion();
            return new String[] {"parley " + (v == null ? "(development build)" : v)};
        }
    }
}
