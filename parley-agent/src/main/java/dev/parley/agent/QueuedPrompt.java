package dev.parley.agent;

import dev.parley.core.EntryId;
import java.util.Objects;

/**
 * A prompt that arrived while the agent was busy: held in memory, not persisted, editable and cancellable until the
 * next turn starts and flushes it (Planck's unpersisted queue).
 *
 * @param id the prompt's handle: the id of the entry it is stored as when flushed, minted when it was queued, so a
 *     flush sent twice stores it once
 * @param text the prompt's current text
 */
public record QueuedPrompt(EntryId id, String text) {
    /**
     * Checks the parts.
     *
     * @param id the id of the entry the prompt is stored as when flushed
     * @param text the prompt's current text
     * @throws NullPointerException if {@code id} or {@code text} is null
     */
    public QueuedPrompt {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(text, "text");
    }
}
