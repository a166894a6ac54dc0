package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.json.Json;
import dev.parley.tck.ArchiveRepositoryScenarios;
import dev.parley.tck.ConformanceRunner;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.MessageLogScenarios;
import dev.parley.tck.SessionRepositoryScenarios;
import dev.parley.tck.Verdict;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley conformance}: runs the conformance kit against a store URI and prints each scenario's verdict. The
 * repository scenarios write only to scopes of their own ({@code tck-…}), dropped afterwards; the message-log scenarios
 * run in sibling stores that are removed afterwards (see {@link StoreUnderTest}).
 */
@Command(name = "conformance", mixinStandardHelpOptions = true,
        description = {"Run the conformance kit against a store and print each scenario's verdict.",
                "Repository scenarios run in scopes of their own inside the store and are dropped afterwards; "
                        + "message-log scenarios run in sibling stores (PATH.tck), or in log scopes of the same PostgreSQL database, "
                        + "removed afterwards.",
                "Exit status: 0 when no scenario failed, 10 when one did, 9 when none could run."},
        sortOptions = false)
final class ConformanceCommand implements Callable<Integer> {
    /** The exit status when a scenario failed. */
    static final int FAILED = 10;

    /** The kits. */
    enum Kit {
        MESSAGE_LOG("message-log"), SESSIONS("sessions"), ARCHIVES("archives");

        final String label;

        Kit(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--kit", split = ",", paramLabel = "KIT", converter = KitConverter.class,
            description = "The kits to run: message-log, sessions, archives (default: all).")
    List<Kit> kits = new ArrayList<>();

    @Option(names = "--json", description = "Print the verdicts as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String uri = root.storeUri();
        Set<Kit> selected = kits.isEmpty() ? EnumSet.allOf(Kit.class) : EnumSet.copyOf(kits);
        List<Section> sections = new ArrayList<>();
        try (StoreUnderTest store = new StoreUnderTest(uri)) {
            if (!json) {
                out.println("conformance of " + root.storeLabel());
                out.flush();
            }
            if (selected.contains(Kit.MESSAGE_LOG)) {
                MessageLogHarness harness = store.messageLog();
                Path where = store.messageLogRoot();
                sections.add(harness == null
                        ? Section.skipped(Kit.MESSAGE_LOG, "the kit needs a store per scope, which the command cannot "
                                + "derive from this scheme; run MessageLogConformance from the backend's tests")
                        : section(out, Kit.MESSAGE_LOG, where == null ? null : "stores per scope under " + where,
                                () -> ConformanceRunner.run(MessageLogScenarios.all(), harness,
                                        MessageLogHarness::cleanupScope)));
            }
            if (!store.hasRepositories()) {
                for (Kit kit : List.of(Kit.SESSIONS, Kit.ARCHIVES)) {
                    if (selected.remove(kit)) {
                        sections.add(Section.skipped(kit, "the store has no session repositories"));
                    }
                }
            }
            if (selected.contains(Kit.SESSIONS)) {
                var harness = store.sessions();
                sections.add(section(out, Kit.SESSIONS, null, () -> ConformanceRunner.run(
                        SessionRepositoryScenarios.all(), harness, (h, scope) -> h.cleanupScope(scope))));
            }
            if (selected.contains(Kit.ARCHIVES)) {
                var harness = store.archives();
                sections.add(section(out, Kit.ARCHIVES, null, () -> ConformanceRunner.run(
                        ArchiveRepositoryScenarios.all(), harness, (h, scope) -> h.cleanupScope(scope))));
            }
        }
        long passed = count(sections, Verdict.Outcome.PASSED);
        long failed = count(sections, Verdict.Outcome.FAILED);
        long skipped = count(sections, Verdict.Outcome.SKIPPED);
        if (json) {
            out.println(Json.write(toJson(root.storeLabel(), sections, passed, failed, skipped)));
        } else {
            out.println();
            for (Section s : sections) {
                if (s.skipReason != null) {
                    out.println(s.kit + ": not run: " + s.skipReason);
                }
            }
            out.printf("%d passed, %d failed, %d skipped%n", passed, failed, skipped);
        }
        if (passed + failed + skipped == 0) {
            spec.commandLine().getErr().println("parley: no scenario could run against " + root.storeLabel());
            return dev.parley.core.ErrorCode.UNSUPPORTED.exitCode();
        }
        return failed > 0 ? FAILED : 0;
    }

    private interface Run {
        List<Verdict> run();
    }

    private record Section(Kit kit, List<Verdict> verdicts, String skipReason) {
        static Section skipped(Kit kit, String why) {
            return new Section(kit, List.of(), why);
        }
    }

    /** Runs one kit, printing each verdict as it is known (when not printing JSON). */
    private Section section(PrintWriter out, Kit kit, String note, Run run) {
        if (!json) {
            out.println();
            out.println(kit + (note == null ? "" : " (" + note + ")"));
            out.flush();
        }
        List<Verdict> verdicts = run.run();
        if (!json) {
            for (Verdict v : verdicts) {
                out.printf("  %-7s %-76s %6d ms%n", label(v.outcome()), Terminal.safe(v.scenario()),
                        v.elapsed().toMillis());
                if (v.detail() != null) {
                    out.println("          " + Terminal.safe(v.detail()).replace("\n", "\n          "));
                }
            }
            out.flush();
        }
        return new Section(kit, verdicts, null);
    }

    private static String label(Verdict.Outcome o) {
        return switch (o) {
            case PASSED -> "passed";
            case FAILED -> "FAILED";
            case SKIPPED -> "skipped";
        };
    }

    private static long count(List<Section> sections, Verdict.Outcome outcome) {
        return sections.stream().flatMap(s -> s.verdicts.stream()).filter(v -> v.outcome() == outcome).count();
    }

    private static ObjectNode toJson(String uri, List<Section> sections, long passed, long failed, long skipped) {
        ObjectNode o = Json.object();
        o.put("store", uri);
        ArrayNode kitsNode = o.putArray("kits");
        for (Section s : sections) {
            ObjectNode k = kitsNode.addObject();
            k.put("kit", s.kit.label);
            if (s.skipReason != null) {
                k.put("notRun", s.skipReason);
            }
            ArrayNode scenarios = k.putArray("scenarios");
            for (Verdict v : s.verdicts) {
                ObjectNode n = scenarios.addObject();
                n.put("scenario", v.scenario());
                n.put("outcome", v.outcome().name().toLowerCase());
                if (v.detail() != null) {
                    n.put("detail", v.detail());
                }
                n.put("elapsedMillis", v.elapsed().toMillis());
            }
        }
        o.put("passed", passed);
        o.put("failed", failed);
        o.put("skipped", skipped);
        return o;
    }

    /** Parses kit names. */
    static final class KitConverter implements picocli.CommandLine.ITypeConverter<Kit> {
        @Override
        public Kit convert(String value) {
            for (Kit k : Kit.values()) {
                if (k.label.equals(value)) {
                    return k;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("unknown kit '" + value
                    + "'; expected message-log, sessions or archives");
        }
    }
}
