package dev.parley.agent;

import java.util.Objects;

/**
 * A prompt that arrived while the agent was busy: held in memory, not persisted, editable and cancellable until the
 * next turn starts and flushes it (Planck's unpersisted queue).
 *
 * @param id the prompt's handle, unique within the agent
 * @param text the prompt's current text
 */
public record QueuedPrompt(long id, String text) {
    public QueuedPrompt {
        Objects.requireNonNull(text, "text");
    }
}
