package dev.parley.core.log;

import dev.parley.core.InvalidInputException;
import dev.parley.core.model.Entry;
import java.util.ArrayList;
import java.util.List;

/** The argument checks and the in-memory cut of {@link MessageLog#loadAfter}, shared by backends. */
public final class LogWindows {
    private LogWindows() {}

    /**
     * Checks the window's arguments.
     *
     * @throws InvalidInputException if {@code afterSeq} is negative or {@code limit} is below 1
     */
    public static void check(long afterSeq, int limit) {
        if (afterSeq < 0) {
            throw new InvalidInputException("a window starts after a seq of 0 or more, not " + afterSeq);
        }
        if (limit < 1) {
            throw new InvalidInputException("a window holds at least 1 entry, not " + limit);
        }
    }

    /** The first {@code limit} entries of {@code entries} (ascending seq) whose seq is greater than {@code afterSeq}. */
    public static List<Entry> cut(List<Entry> entries, long afterSeq, int limit) {
        check(afterSeq, limit);
        List<Entry> out = new ArrayList<>(Math.min(limit, entries.size()));
        for (Entry e : entries) {
            if (e.seq() > afterSeq) {
                out.add(e);
                if (out.size() == limit) {
                    break;
                }
            }
        }
        return List.copyOf(out);
    }
}
