package dev.parley.core.log;

import dev.parley.core.model.Entry;
import java.util.List;

/**
 * What an {@link MessageLog#append(dev.parley.core.SessionId, dev.parley.core.AgentId, List,
 * dev.parley.core.model.Usage) append} did.
 *
 * @param entries every entry of the batch as stored, in batch order: the ones written now with their new
 *     {@code seq}, the ones that were already stored (a retry) as they were stored
 * @param written how many of them this call wrote; 0 when the whole batch was already stored
 */
public record AppendResult(List<Entry> entries, int written) {
    /**
     * Copies {@code entries} and checks the count.
     *
     * @param entries every entry of the batch as stored, in batch order; copied
     * @param written how many of them this call wrote, 0 to {@code entries.size()}
     * @throws NullPointerException if {@code entries} is null or holds a null
     * @throws IllegalArgumentException if {@code written} is negative or more than the entries
     */
    public AppendResult {
        entries = List.copyOf(entries);
        if (written < 0 || written > entries.size()) {
            throw new IllegalArgumentException("written " + written + " of " + entries.size());
        }
    }

    /**
     * Whether the call wrote any entry ({@code written > 0}); a usage-only append answers false.
     *
     * @return true if {@code written} is above 0
     */
    public boolean wroteAnything() {
        return written > 0;
    }
}
