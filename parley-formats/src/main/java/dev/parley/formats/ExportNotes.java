package dev.parley.formats;

import dev.parley.core.EntryId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a converting export left out or cut, counted by kind, for the report on standard error. Not thread-safe.
 *
 * <p>Two levels. Within the records it writes, a converter notes what of their content has no form in the target
 * ({@link #leftOut}: reasoning blocks, unpaired tool calls…). Which records it writes at all is one accounting for
 * every target: the converter says which records it {@linkplain #wrote wrote} and which it {@linkplain #cut cut}
 * (history before a compaction, for an export of the active conversation), and {@link #account} then names every
 * other record of the export, by kind, so that the written, cut and left-out records add up to all of them.
 */
final class ExportNotes {
    private static final int EXAMPLES = 3;

    private final Format target;
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, List<String>> examples = new LinkedHashMap<>();
    private final List<String> lines = new ArrayList<>();
    private final Set<EntryId> written = new HashSet<>();
    private final Set<EntryId> cut = new HashSet<>();
    private @Nullable EntryId cutAt;

    /** Notes for an export to {@code target}. */
    ExportNotes(Format target) {
        this.target = Objects.requireNonNull(target, "target");
    }

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

    /** The export wrote this record, in whatever form the target has for it (what of it was lost is noted apart). */
    void wrote(EntryId record) {
        written.add(record);
    }

    /**
     * The export cut this record: it is history before {@code compaction}, the latest compaction of the active
     * conversation, and only the whole history ({@code --full}) has it.
     */
    void cut(EntryId record, EntryId compaction) {
        cut.add(record);
        cutAt = compaction;
    }

    /**
     * Names every one of {@code records} (the exported agent's, all of them) that was neither written nor cut: a
     * conversation's message on a branch the export does not follow, else a record with no form in the target.
     * Call once, after the conversion.
     */
    void account(List<Entry> records) {
        int cutRecords = 0;
        for (Entry e : records) {
            if (written.contains(e.id())) {
                continue;
            }
            if (cut.contains(e.id())) {
                cutRecords++;
            } else if (history(e) && target != Format.CLAUDE_CODE && target != Format.PI) {
                leftOut("messages on other branches (" + target.withArticle() + " conversation is one path of the tree)",
                        e.id().value());
            } else {
                leftOut(describe(e) + " (no form in " + target + ")", typeOf(e));
            }
        }
        if (cutRecords > 0) {
            note("cut the messages before the compaction at entry " + cutAt + " (a model sees only what follows it): "
                    + cutRecords + "; --full exports the whole history");
        }
    }

    /** Whether a record is part of a conversation where it lies: a message, a branch summary, a summarized compaction. */
    private static boolean history(Entry e) {
        return e.payload() instanceof Message || e.payload() instanceof EntryPayload.BranchSummary
                || e.payload() instanceof EntryPayload.Compaction c && c.summary() != null;
    }

    /** How a left-out record is counted: {@code custom records}, {@code model change entries}… */
    private static String describe(Entry e) {
        return switch (e.payload().kind()) {
            case CUSTOM -> "custom records";
            case MESSAGE -> "messages";
            default -> e.payload().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " entries";
        };
    }

    /** The type named in a report of a left-out record. */
    private static String typeOf(Entry e) {
        return e.payload() instanceof EntryPayload.Custom c ? c.customType()
                : e.payload().kind().name().toLowerCase(Locale.ROOT);
    }

    /**
     * The report: one line per kind, its count after the kind so that one reads as well as many
     * ({@code left out reasoning blocks (…): 3 (examples)}), and each note.
     */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        counts.forEach((kind, n) -> {
            List<String> ex = examples.get(kind);
            String named = ex.isEmpty() ? "" : " (" + String.join(", ", ex) + (n > ex.size() ? ", …" : "") + ")";
            out.add("left out " + kind + ": " + n + named);
        });
        out.addAll(lines);
        return List.copyOf(out);
    }
}
