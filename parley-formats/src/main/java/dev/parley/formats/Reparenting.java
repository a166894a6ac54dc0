package dev.parley.formats;

import dev.parley.core.EntryId;
import dev.parley.core.model.Entry;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Keeps a converted export's tree intact when some entries have no form in the target format (Claude Code progress
 * records in a pi export, a pi label in a Claude Code export): an entry whose parent was left out gets the parent's
 * nearest written ancestor, and a parent outside the exported entries (another agent's) makes it a root.
 */
final class Reparenting {
    /** For each entry seen: itself if it was written, else its nearest written ancestor (null: none). */
    private final Map<EntryId, @Nullable EntryId> written = new HashMap<>();

    /** The entry with its parent replaced by the nearest written ancestor. */
    Entry reparent(Entry e) {
        EntryId parent = e.parentId() == null ? null : written.get(e.parentId());
        if (java.util.Objects.equals(parent, e.parentId())) {
            return e;
        }
        return new Entry(e.seq(), e.id(), parent, e.agentId(), e.timestamp(), e.payload(), e.source());
    }

    /** Records whether the entry was written. */
    void note(Entry e, boolean wasWritten) {
        written.put(e.id(), wasWritten ? e.id() : e.parentId() == null ? null : written.get(e.parentId()));
    }
}
