package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.ErrorCode;
import dev.parley.formats.Format;
import dev.parley.formats.ImportProblem;
import dev.parley.formats.ImportResult;
import dev.parley.formats.Importer;
import dev.parley.json.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
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

/** {@code parley import PATH...}: reads transcripts into the store. */
@Command(name = "import", mixinStandardHelpOptions = true, description = {"Import transcripts: files, or directories searched recursively.",
        "Formats: claude-code, pi, openai-chat, anthropic-messages, parley (detected from content).",
        "Importing the same source again changes nothing; a grown file gets its new entries."})
final class ImportCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Files or directories to import.")
    List<Path> paths;

    @Option(names = "--format", paramLabel = "FORMAT", description = "Assume this format for every file instead of detecting it.")
    String format;

    @Option(names = "--json", description = "Print one JSON object per session.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Format forced = format == null ? null : Format.of(format);
        Importer importer = new Importer(root.store(), IdGenerator.uuidV7());
        boolean progress = System.console() != null && !json;
        ProgressBar[] bar = new ProgressBar[1];
        int[] fatal = {0};
        int[] seen = {0};
        int rejected = importer.importPaths(paths, forced, new Importer.Listener() {
            @Override
            public void filesFound(int total) {
                if (progress && total > 1) {
                    bar[0] = new ProgressBarBuilder().setTaskName("Reading").setInitialMax(total)
                            .setStyle(ProgressBarStyle.ASCII).setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
                            .continuousUpdate().clearDisplayOnFinish().build();
                }
            }

            @Override
            public void fileDone(Path file) {
                if (bar[0] != null) {
                    bar[0].step();
                    if (bar[0].getCurrent() >= bar[0].getMax()) {
                        bar[0].close();
                        bar[0] = null;
                    }
                }
            }

            @Override
            public void session(ImportResult r) {
                seen[0]++;
                out.println(json ? Json.write(toJson(r)) : toText(r));
                out.flush();
            }

            @Override
            public void problem(ImportProblem p) {
                if (p.fatal()) {
                    fatal[0]++;
                }
                err.println((p.fatal() ? "error: " : "warning: ") + p.describe());
                err.flush();
            }
        });
        if (bar[0] != null) {
            bar[0].close();
        }
        if (seen[0] == 0 && fatal[0] == 0) {
            err.println("parley: no transcripts found in " + paths);
        }
        if (rejected > 0 || fatal[0] > 0) {
            err.println("parley: " + Math.max(rejected, fatal[0]) + " file(s) not imported");
            return ErrorCode.INVALID_INPUT.exitCode();
        }
        return 0;
    }

    static ObjectNode toJson(ImportResult r) {
        ObjectNode o = Json.object();
        o.put("session", r.session().value());
        o.put("format", r.format().cliName());
        o.put("status", r.status().label());
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

    static String toText(ImportResult r) {
        String where = r.source() != null ? r.source() + (r.index() != null ? "[" + r.index() + "]" : "")
                : r.agents().isEmpty() || r.agents().get(0).source() == null ? "" : r.agents().get(0).source().toString();
        return String.format("%-9s %s  %s  %d agent%s, %d entries, %d messages  %s", r.status().label(),
                r.session().value(), r.format().cliName(), r.agents().size(), r.agents().size() == 1 ? "" : "s",
                r.entries(), r.messages(), where);
    }
}
