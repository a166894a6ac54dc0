package dev.parley.core.log;

import dev.parley.core.InvalidInputException;
import dev.parley.core.model.Entry;
import java.util.List;
import java.util.function.IntToLongFunction;

/** The argument checks and the in-memory cut of {@link MessageLog#loadAfter}, shared by backends. */
public final class LogWindows {
    private LogWindows() {}

    /**
     * Checks the window's arguments.
     *
     * @param afterSeq the seq the window starts after
     * @param limit the most entries the window holds
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

    /**
     * The first position of {@code count} positions, in ascending seq order, whose seq is greater than
     * {@code afterSeq}; {@code count} when there is none. A binary search.
     *
     * @param count how many positions there are, at least 0
     * @param seqAt the seq at a position from 0 to {@code count - 1}
     * @param afterSeq the seq to search past
     * @return the position, 0 to {@code count}
     */
    public static int firstAfter(int count, IntToLongFunction seqAt, long afterSeq) {
        int low = 0;
        int high = count;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (seqAt.applyAsLong(mid) <= afterSeq) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /**
     * The first {@code limit} entries of {@code entries} (ascending seq) whose seq is greater than {@code afterSeq}.
     *
     * @param entries the entries, in ascending seq order
     * @param afterSeq the seq the window starts after, at least 0
     * @param limit the most entries returned, at least 1
     * @return the entries, copied; empty when none has a greater seq
     * @throws InvalidInputException if {@code afterSeq} is negative or {@code limit} is below 1
     */
    public static List<Entry> cut(List<Entry> entries, long afterSeq, int limit) {
        check(afterSeq, limit);
        int low = firstAfter(entries.size(), i -> entries.get(i).seq(), afterSeq);
        return List.copyOf(entries.subList(low, (int) Math.min(entries.size(), (long) low + limit)));
    }
}
