package dev.parley.formats;

import dev.parley.core.AgentId;
import dev.parley.core.model.NewEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One agent's entries read from one source, ready to append as one atomic batch.
 *
 * @param agent the agent
 * @param source the file they came from, or null for a conversation of a multi-conversation file
 * @param entries the entries in source order, copied
 * @param lines for each entry, the 1-based line of the source it was read from (0 when it has none: a message of a
 *     JSON document); empty when the format does not say, copied
 */
public record ParsedAgent(AgentId agent, @Nullable Path source, List<NewEntry> entries, List<Integer> lines) {
    /**
     * Checks the parts and copies the lists.
     *
     * @param agent the agent
     * @param source the file the entries came from, or null for a conversation of a multi-conversation file
     * @param entries the entries in source order; copied
     * @param lines the 1-based source line of each entry (0 for none), or empty when the format does not say; copied
     * @throws NullPointerException if {@code agent}, {@code entries} or {@code lines} is null, or a list holds a null
     * @throws IllegalArgumentException if {@code lines} is neither empty nor one per entry
     */
    public ParsedAgent {
        Objects.requireNonNull(agent, "agent");
        entries = List.copyOf(entries);
        lines = List.copyOf(lines);
        if (!lines.isEmpty() && lines.size() != entries.size()) {
            throw new IllegalArgumentException("one line per entry: " + lines.size() + " for " + entries.size());
        }
    }

    /**
     * Entries whose lines are not known.
     *
     * @param agent the agent
     * @param source the file the entries came from, or null for a conversation of a multi-conversation file
     * @param entries the entries in source order; copied
     * @throws NullPointerException if {@code agent} or {@code entries} is null, or {@code entries} holds a null
     */
    public ParsedAgent(AgentId agent, @Nullable Path source, List<NewEntry> entries) {
        this(agent, source, entries, List.of());
    }

    /**
     * The source line of the entry at this position, or 0 when not known.
     *
     * @param index the entry's 0-based position in {@link #entries()}
     * @return the 1-based line; 0 when the entry has none or {@link #lines()} is empty
     * @throws IndexOutOfBoundsException if {@code lines} is not empty and {@code index} is not a position in it
     */
    public int lineOf(int index) {
        return lines.isEmpty() ? 0 : lines.get(index);
    }

    /**
     * How many of the entries are messages.
     *
     * @return the number of entries whose payload is a {@link dev.parley.core.model.Message}
     */
    public long messageCount() {
        return entries.stream().filter(e -> e.payload() instanceof dev.parley.core.model.Message).count();
    }
}
