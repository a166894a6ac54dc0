package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.ErrorCode;
import dev.parley.core.UnavailableException;
import dev.parley.core.store.Store;
import dev.parley.formats.Format;
import dev.parley.formats.ImportProblem;
import dev.parley.formats.ImportResult;
import dev.parley.formats.Importer;
import dev.parley.json.Json;
import dev.parley.remote.RemoteStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code parley import PATH...}: reads transcripts into the store. Standard output has one line (or JSON object) per
 * session; standard error has every problem (with {@code --json}, one JSON object each) and, last, a summary: sessions
 * imported, updated, unchanged and failed, files of a directory skipped as no transcript (when there are any),
 * messages, time. A long import shows progress when standard error is a terminal.
 *
 * <p>On {@code remote:}, an import compares each transcript with what the store holds, which the fallback store cannot
 * tell for the server: while the server does not answer the import does not start (exit 7, nothing written). A session
 * whose calls fell back because the server stopped answering during the import was compared with the fallback store's
 * copy: found unchanged there it is reported {@value #UNSENT} (this import sent nothing for it) and counted as
 * failed; imported or updated there, its writes are queued for replay with a warning that the server may refuse them.
 * Either way the command exits 7 (unavailable) unless an input failed too.
 *
 * <p>Exit codes: 0 when every input was imported, updated or unchanged; 2 when an input was refused (a malformed or
 * conflicting transcript, or failures of different kinds together); 3 when the only failures are paths that do not
 * exist, or when the paths hold no transcript at all; 7 when the only failures are sessions the store could not take
 * (read only, full, the server not answering), or when writes fell back to the fallback store.
 */
@Command(name = "import", mixinStandardHelpOptions = true, description = {"Import transcripts: files, or directories searched recursively.",
        "Formats: claude-code, pi, codex, gemini, aider, openai-chat, openai-responses, anthropic-messages, parley (detected from content).",
        "A file with the session id of an imported Claude Code, Codex or Gemini CLI session extends it with what is new; one that disagrees with it is refused.",
        "Importing the same source again changes nothing; a grown file gets its new entries."})
final class ImportCommand implements Callable<Integer> {
    /** The status of a session found unchanged in the fallback store while the server did not answer. */
    static final String UNSENT = "unsent";

    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Files or directories to import.")
    List<Path> paths;

    @Option(names = "--format", paramLabel = "FORMAT", description = "Assume this format for every file instead of detecting it.")
    String format;

    @Option(names = "--json", description = "Print one JSON object per session (standard output), per problem and for the summary (standard error).")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Format forced = format == null ? null : Format.of(format);
        long started = System.nanoTime();
        Store store = root.store();
        if (store instanceof RemoteStore remote && !remote.status().reachable()) {
            throw new UnavailableException("cannot import through " + root.storeLabel() + ": the server does not"
                    + " answer, and an import compares each transcript with what the server holds, which the fallback"
                    + " store cannot tell; nothing was written; retry when it is back (parley" + root.storeOption()
                    + " remote status)", null);
        }
        long missing = paths.stream().filter(p -> !Files.exists(p)).count();
        Importer importer = new Importer(store, IdGenerator.uuidV7());
        boolean progress = !json && stderrIsTerminal();
        Progress bar = new Progress(progress);
        int[] fatal = {0};
        int[] unavailable = {0}; // files the store could not take now: a retry may store them
        int[] seen = {0};
        int[] skipped = {0};
        Map<ImportResult.Status, Integer> statuses = new EnumMap<>(ImportResult.Status.class);
        long[] messages = {0};
        int[] unsent = {0};
        int[] comparedWithFallback = {0};
        long[] fallbacksSoFar = {root.fallbacks()};
        int rejected = importer.importPaths(paths, forced, new Importer.Listener() {
            @Override
            public void filesFound(int total) {
                bar.start("Reading", total);
            }

            @Override
            public void fileDone(Path file) {
                bar.step();
            }

            @Override
            public void skipped(Path file) {
                skipped[0]++;
            }

            @Override
            public void stored(int done, int total) {
                if (done == 1) {
                    bar.start("Storing", total);
                }
                bar.step();
            }

            @Override
            public void session(ImportResult r) {
                seen[0]++;
                messages[0] += r.messages();
                // Sessions are stored one after another, each reported when done: a call that fell back since the
                // last report was this session's. Then it was compared with the fallback store's copy (the local
                // default store unless parley.fallback names another), not the server's.
                long fallbacks = root.fallbacks();
                boolean fellBack = fallbacks > fallbacksSoFar[0];
                fallbacksSoFar[0] = fallbacks;
                boolean notSent = fellBack && r.status() == ImportResult.Status.UNCHANGED;
                String status = notSent ? UNSENT : r.status().label();
                if (notSent) {
                    unsent[0]++;
                } else {
                    statuses.merge(r.status(), 1, Integer::sum);
                }
                if (fellBack) {
                    comparedWithFallback[0]++;
                }
                bar.pause(() -> {
                    out.println(json ? Json.write(toJson(r, status)) : toText(r, status));
                    out.flush();
                    if (fellBack) {
                        String message = "session " + r.session() + " was compared with the fallback store's copy,"
                                + " not " + root.storeLabel() + "'s, which stopped answering: " + (notSent
                                ? "the fallback store already holds this transcript, so this import sent nothing for"
                                + " it; import it again when the server is back"
                                : "its writes are queued and replayed when the server is back, which refuses them if"
                                + " it holds another version (parley" + root.storeOption() + " remote sync says so)");
                        err.println(json ? Json.write(sessionProblem(r, message, notSent))
                                : (notSent ? "error: " : "warning: ") + message);
                        err.flush();
                    }
                });
            }

            @Override
            public void problem(ImportProblem p) {
                if (p.fatal()) {
                    fatal[0]++;
                    if (p.storeError() == ErrorCode.UNAVAILABLE) {
                        unavailable[0]++;
                    }
                }
                bar.pause(() -> {
                    err.println(json ? Json.write(toJson(p)) : (p.fatal() ? "error: " : "warning: ") + p.describe());
                    err.flush();
                });
            }
        });
        bar.close();
        int failedInputs = Math.max(rejected, fatal[0]);
        int failed = failedInputs + unsent[0];
        boolean none = seen[0] == 0 && failed == 0;
        if (none) {
            String message = "no transcripts found in " + paths + (skipped[0] == 0 ? ""
                    : " (" + Terminal.count(skipped[0], "file was", "files were") + " of no format Parley reads)");
            if (json) {
                ObjectNode o = Json.object();
                o.put("problem", "error");
                ArrayNode where = o.putArray("paths");
                paths.forEach(path -> where.add(path.toString()));
                o.put("skipped", skipped[0]);
                o.put("message", message);
                err.println(Json.write(o));
            } else {
                err.println("parley: " + message);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (json) {
            ObjectNode summary = Json.object();
            ObjectNode o = summary.putObject("summary");
            for (ImportResult.Status s : ImportResult.Status.values()) {
                o.put(s.label(), statuses.getOrDefault(s, 0));
            }
            o.put("failed", failed);
            o.put("skipped", skipped[0]);
            o.put("messages", messages[0]);
            o.put("seconds", Math.round(seconds * 1000) / 1000.0);
            err.println(Json.write(summary));
        } else {
            err.println(String.format(java.util.Locale.ROOT,
                    "parley: %s imported, %d updated, %d unchanged, %d failed%s; %s; %.1f s",
                    Terminal.count(statuses.getOrDefault(ImportResult.Status.IMPORTED, 0), "session", "sessions"),
                    statuses.getOrDefault(ImportResult.Status.UPDATED, 0),
                    statuses.getOrDefault(ImportResult.Status.UNCHANGED, 0), failed,
                    skipped[0] == 0 ? "" : ", " + Terminal.count(skipped[0], "file", "files") + " skipped",
                    Terminal.count(messages[0], "message", "messages"), seconds));
        }
        err.flush();
        if (failedInputs > 0) {
            // Paths that do not exist and nothing else failed: not found, as a mistyped path is for every command;
            // files the store could not take now (read only, a full disk) and nothing else: unavailable.
            return failedInputs == missing ? ErrorCode.NOT_FOUND.exitCode() : failedInputs == unavailable[0]
                    ? ErrorCode.UNAVAILABLE.exitCode() : ErrorCode.INVALID_INPUT.exitCode();
        }
        if (none) {
            // Nothing to import where the paths point: most likely the wrong place (a file named alone that is no
            // transcript is already invalid input). A script that imports a directory which may be empty can allow 3.
            return ErrorCode.NOT_FOUND.exitCode();
        }
        return comparedWithFallback[0] > 0 ? ErrorCode.UNAVAILABLE.exitCode() : 0;
    }

    /**
     * Whether standard error is a terminal: on Linux its descriptor names a terminal device; elsewhere the JVM's
     * console (standard input and output on a terminal) stands in for it.
     */
    static boolean stderrIsTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        if (Files.exists(Path.of("/proc/self/fd"))) {
            try {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
        return System.console() != null;
    }

    /** A progress bar on standard error, or nothing. */
    private static final class Progress {
        private final boolean enabled;
        private ProgressBar bar;

        Progress(boolean enabled) {
            this.enabled = enabled;
        }

        void start(String task, int total) {
            close();
            if (enabled && total > 1) {
                bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total).setStyle(ProgressBarStyle.ASCII)
                        .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
                        .continuousUpdate().clearDisplayOnFinish().build();
            }
        }

        void step() {
            if (bar != null) {
                bar.step();
                if (bar.getCurrent() >= bar.getMax()) {
                    close();
                }
            }
        }

        /** Runs a print with the bar out of its way. */
        void pause(Runnable print) {
            if (bar == null) {
                print.run();
                return;
            }
            System.err.print("\r\u001b[K");
            print.run();
        }

        void close() {
            if (bar != null) {
                bar.close();
                bar = null;
            }
        }
    }

    static ObjectNode toJson(ImportProblem p) {
        ObjectNode o = Json.object();
        o.put("problem", p.fatal() ? "error" : "warning");
        o.put("file", p.file().toString());
        if (p.line() > 0) { // 0: not one line's problem (a file whose format is not recognised)
            o.put("line", p.line());
        }
        o.put("message", p.message());
        if (p.callId() != null) {
            o.put("callId", p.callId());
        }
        if (p.record() != null) {
            o.put("record", p.record());
        }
        if (p.storeError() != null) {
            o.put("storeError", p.storeError().name());
        }
        return o;
    }

    /** A session's problem with {@code --json}: what {@link #toJson(ImportProblem)} gives for a file's. */
    private static ObjectNode sessionProblem(ImportResult r, String message, boolean error) {
        ObjectNode o = Json.object();
        o.put("problem", error ? "error" : "warning");
        o.put("session", r.session().value());
        o.put("message", message);
        return o;
    }

    static ObjectNode toJson(ImportResult r, String status) {
        ObjectNode o = Json.object();
        o.put("session", r.session().value());
        o.put("format", r.format().cliName());
        o.put("status", status);
        o.put("entries", r.entries());
        o.put("messages", r.messages());
        if (r.source() != null) {
            o.put("source", r.source().toString());
            if (r.index() != null) {
                o.put("index", r.index());
            }
        }
        ArrayNode agents = o.putArray("agents");
        for (ImportResult.Agent a : r.agents()) {
            ObjectNode ao = agents.addObject();
            ao.put("agent", a.agent().value());
            if (a.source() == null) {
                ao.putNull("source");
            } else {
                ao.put("source", a.source().toString());
            }
            ao.put("entries", a.entries());
            ao.put("messages", a.messages());
        }
        return o;
    }

    static String toText(ImportResult r, String status) {
        String where = r.source() != null ? r.source() + (r.index() != null ? "[" + r.index() + "]" : "")
                : r.agents().isEmpty() || r.agents().get(0).source() == null ? "" : r.agents().get(0).source().toString();
        return String.format(Locale.ROOT, "%-9s %s  %s  %s, %s, %s  %s", status, r.session().value(),
                r.format().cliName(), Terminal.count(r.agents().size(), "agent", "agents"),
                Terminal.count(r.entries(), "entry", "entries"), Terminal.count(r.messages(), "message", "messages"),
                where);
    }
}
