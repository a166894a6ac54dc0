package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.ErrorCode;
import dev.parley.json.Json;
import dev.parley.tck.Kit;
import dev.parley.tck.StoreHarness;
import dev.parley.tck.Verdict;
import dev.parley.tck.process.CrashCampaign;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley conformance}: runs the conformance kit against a store URI and prints each scenario's verdict. The
 * command asks the kit ({@link StoreHarness#of(String)}), never the URI's scheme: which kits run follows the store's
 * capabilities, every scenario runs in a scope of its own that is removed afterwards, and damage injection comes from
 * the backend's conformance support on the class path. A kit the store does not offer, and a scenario that cannot
 * run, are listed as skipped with the reason.
 */
@Command(name = "conformance", mixinStandardHelpOptions = true,
        description = {"Run the conformance kit against a store and print each scenario's verdict.",
                "Every scenario runs in a scope of its own (tck-…) inside the store, removed afterwards; the rest of "
                        + "the store is not touched, so a URI that binds parley.scope= is refused. memory: alone runs "
                        + "as a named memory store of its own.",
                "Which kits run follows what the store offers; a kit or scenario that cannot run is listed as "
                        + "skipped, with the reason.",
                "With --crash N, runs the crash campaign instead: writer processes appending batches and updating "
                        + "records are killed with SIGKILL at random moments (first opens included) until N kills; "
                        + "after each round every acknowledged entry and revision must be there exactly once, every "
                        + "batch whole, and the store must open. It prints kills, acknowledged, lost, duplicated, "
                        + "partial.",
                "Exit status: 0 when no scenario failed, 10 when one did (or the campaign lost, duplicated or split "
                        + "anything), 9 when none could run."},
        sortOptions = false)
final class ConformanceCommand implements Callable<Integer> {
    /** The exit status when a scenario failed. */
    static final int FAILED = 10;

    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--kit", split = ",", paramLabel = "KIT", converter = KitConverter.class,
            description = "The kits to run: message-log, sessions, archives (default: all).")
    List<Kit> kits = new ArrayList<>();

    @Option(names = "--json", description = "Print the verdicts as JSON.")
    boolean json;

    @Option(names = "--crash", paramLabel = "N",
            description = "Run the crash campaign with N SIGKILLs instead of the scenarios.")
    @Nullable Integer crash;

    @Option(names = "--seed", paramLabel = "S", description = "The crash campaign's random seed (default: the time).")
    @Nullable Long seed;

    @Override
    public Integer call() throws Exception {
        if (crash != null) {
            return crashCampaign(crash);
        }
        if (seed != null) {
            throw new dev.parley.core.InvalidInputException("--seed is the crash campaign's: give it with --crash N");
        }
        PrintWriter out = spec.commandLine().getOut();
        StoreHarness harness = StoreHarness.of(root.storeUri());
        harness.capabilities(); // a store that cannot be opened fails here, before any output
        String runAs = harness.uri().equals(root.storeLabel()) ? null : harness.uri();
        Set<Kit> selected = kits.isEmpty() ? EnumSet.allOf(Kit.class) : EnumSet.copyOf(kits);
        if (!json) {
            out.println("conformance of " + root.storeLabel() + (runAs == null ? "" : " (run as " + runAs + ")"));
            out.flush();
        }
        List<Section> sections = new ArrayList<>();
        for (Kit kit : selected) {
            sections.add(section(out, harness, kit));
        }
        long passed = count(sections, Verdict.Outcome.PASSED);
        long failed = count(sections, Verdict.Outcome.FAILED);
        long skipped = count(sections, Verdict.Outcome.SKIPPED);
        if (json) {
            out.println(Json.write(toJson(root.storeLabel(), runAs, sections, passed, failed, skipped)));
        } else {
            out.println();
            for (Section s : sections) {
                if (s.notRun != null) {
                    out.println(s.kit + ": not run: " + s.notRun);
                }
            }
            out.printf(Locale.ROOT, "%d passed, %d failed, %d skipped%n", passed, failed, skipped);
        }
        out.flush();
        if (passed + failed == 0) {
            spec.commandLine().getErr().println("parley: no scenario could run against " + root.storeLabel());
            return ErrorCode.UNSUPPORTED.exitCode();
        }
        return failed > 0 ? FAILED : 0;
    }

    /** Runs the crash campaign and prints its figures; {@link #FAILED} when anything was lost, doubled or split. */
    private int crashCampaign(int kills) throws Exception {
        if (kills < 1) {
            throw new dev.parley.core.InvalidInputException("--crash needs a positive number of kills");
        }
        PrintWriter out = spec.commandLine().getOut();
        long s = seed != null ? seed : System.nanoTime();
        if (!json) {
            out.println("crash campaign against " + root.storeLabel() + ": " + kills + " kills, seed " + s);
            out.flush();
        }
        java.nio.file.Path work = java.nio.file.Files.createTempDirectory("parley-crash");
        CrashCampaign.Report r;
        try {
            r = CrashCampaign.run(root.storeUri(), kills, work, s, line -> {
                if (!json) {
                    out.println("  " + line);
                    out.flush();
                }
            });
        } finally {
            try (java.util.stream.Stream<java.nio.file.Path> paths = java.nio.file.Files.walk(work)) {
                for (java.nio.file.Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.deleteIfExists(p);
                }
            }
        }
        if (json) {
            ObjectNode o = Json.object();
            o.put("store", root.storeLabel());
            o.put("seed", s);
            o.put("kills", r.kills());
            o.put("acknowledged", r.acknowledged());
            o.put("acknowledgedRevisions", r.acknowledgedRevisions());
            o.put("lost", r.lost());
            o.put("duplicated", r.duplicated());
            o.put("partial", r.partial());
            o.put("elapsedMillis", r.elapsed().toMillis());
            ArrayNode v = o.putArray("violations");
            r.violations().forEach(v::add);
            out.println(Json.write(o));
        } else {
            for (String v : r.violations().stream().limit(20).toList()) {
                out.println("  " + Terminal.safe(v).replace("\n", "\n    "));
            }
            if (r.violations().size() > 20) {
                out.println("  … and " + (r.violations().size() - 20) + " more");
            }
            out.printf(Locale.ROOT, "kills %d, acknowledged %s and %s, lost %d, duplicated %d, partial %d (%.1f s)%n", r.kills(),
                    Terminal.count(r.acknowledged(), "entry", "entries"),
                    Terminal.count(r.acknowledgedRevisions(), "revision", "revisions"), r.lost(), r.duplicated(),
                    r.partial(), r.elapsed().toMillis() / 1000.0);
        }
        out.flush();
        return r.passed() ? 0 : FAILED;
    }

    /**
     * One kit's verdicts, and why none of its scenarios ran when the store does not offer what the kit checks.
     */
    private record Section(Kit kit, List<Verdict> verdicts, @Nullable String notRun) {}

    /** Runs one kit, then prints its verdicts (when not printing JSON). */
    private Section section(PrintWriter out, StoreHarness harness, Kit kit) {
        String notRun = harness.capabilities().contains(kit.requires()) ? null : kit.notDeclared();
        if (!json) {
            out.println();
            out.println(kit + (notRun == null ? "" : ": not run: " + notRun));
            out.flush();
        }
        List<Verdict> verdicts = harness.run(kit);
        if (!json) {
            for (Verdict v : verdicts) {
                out.printf(Locale.ROOT, "  %-7s %-76s %6d ms%n", label(v.outcome()), Terminal.safe(v.scenario()),
                        v.elapsed().toMillis());
                if (v.detail() != null && notRun == null) {
                    out.println("          " + Terminal.safe(v.detail()).replace("\n", "\n          "));
                }
            }
            out.flush();
        }
        return new Section(kit, verdicts, notRun);
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

    private static ObjectNode toJson(String uri, @Nullable String runAs, List<Section> sections, long passed,
                                     long failed, long skipped) {
        ObjectNode o = Json.object();
        o.put("store", uri);
        if (runAs != null) {
            o.put("runAs", runAs);
        }
        ArrayNode kitsNode = o.putArray("kits");
        for (Section s : sections) {
            ObjectNode k = kitsNode.addObject();
            k.put("kit", s.kit.label());
            if (s.notRun != null) {
                k.put("notRun", s.notRun);
            }
            ArrayNode scenarios = k.putArray("scenarios");
            for (Verdict v : s.verdicts) {
                ObjectNode n = scenarios.addObject();
                n.put("id", v.id());
                n.put("scenario", v.scenario());
                n.put("outcome", v.outcome().name().toLowerCase(Locale.ROOT));
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
            try {
                return Kit.ofLabel(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
