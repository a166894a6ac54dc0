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
 */
public record ParsedAgent(AgentId agent, @Nullable Path source, List<NewEntry> entries) {
    public ParsedAgent {
        Objects.requireNonNull(agent, "agent");
        entries = List.copyOf(entries);
    }

    /** How many of the entries are messages. */
    public long messageCount() {
        return entries.stream().filter(e -> e.payload() instanceof dev.parley.core.model.Message).count();
    }
}
