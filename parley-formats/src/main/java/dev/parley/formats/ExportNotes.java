package dev.parley.formats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a converting export left out or cut, counted by kind, for the report on standard error. Not thread-safe.
 */
final class ExportNotes {
    private static final int EXAMPLES = 3;

    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, List<String>> examples = new LinkedHashMap<>();
    private final List<String> lines = new ArrayList<>();

    /** One more thing of this kind was left out; {@code example} (an id, a type) is named in the report. */
    void leftOut(String kind, String example) {
        counts.merge(kind, 1, Integer::sum);
        List<String> ex = examples.computeIfAbsent(kind, k -> new ArrayList<>());
        if (ex.size() < EXAMPLES && !ex.contains(example)) {
            ex.add(example);
        }
    }

    /** A note of its own. */
    void note(String line) {
        lines.add(line);
    }

    /** The report: one line per kind ({@code left out 3 reasoning blocks (…)}) and each note. */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        counts.forEach((kind, n) -> {
            List<String> ex = examples.get(kind);
            String named = ex.isEmpty() ? "" : " (" + String.join(", ", ex) + (n > ex.size() ? ", …" : "") + ")";
            out.add("left out " + n + " " + kind + named);
        });
        out.addAll(lines);
        return List.copyOf(out);
    }
}
