package dev.parley.core.store;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.AppendResult;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The log of a {@link NullStore}: appends are checked for what can be checked without storage (ids repeated in the
 * batch), answered with the entries they would have stored, and forgotten; every load is empty. A parent is never
 * checked against storage, since nothing is stored: an agent that chains its entries runs on it unchanged.
 * Thread-safe.
 */
final class NullMessageLog implements MessageLog {
    private long nextSeq = 1;

    @Override
    public synchronized AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
        Objects.requireNonNull(usage, "usage");
        AppendCheck.Plan plan = AppendCheck.plan(session, agent, batch, Map.of(), false);
        List<Entry> out = new ArrayList<>(batch.size());
        for (NewEntry e : plan.toWrite()) {
            out.add(new Entry(nextSeq++, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source()));
        }
        return plan.result(out);
    }

    /** Appends unconditionally: nothing is stored, so nothing can fork. */
    @Override
    public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                     List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage);
    }

    @Override
    public List<Entry> load(SessionId session, @Nullable AgentId agent) {
        return List.of();
    }

    @Override
    public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        return Optional.empty();
    }

    /** Does nothing: there is nothing stored to remove. */
    @Override
    public void truncateAfter(SessionId session, EntryId entry) {
        // nothing stored
    }

    @Override
    public Usage loadUsage(SessionId session, AgentId agent) {
        return Usage.ZERO;
    }

    @Override
    public void close() {
        // nothing to release
    }
}
