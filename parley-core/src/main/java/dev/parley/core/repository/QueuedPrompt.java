package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.Times;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A prompt queued for the session's next turn (persisted FIFO).
 *
 * @param id the prompt id
 * @param prompt the prompt, not blank; kept as given: the record does not trim it (the engine's session service
 *     strips the prompts it queues and edits)
 * @param agentProfileId the agent profile to run it with, or null
 * @param agentSnapshot a snapshot of that agent (opaque JSON), or null
 * @param systemContext extra system context, or null
 * @param createdAt when it was queued
 * @param updatedAt when it was last edited
 */
public record QueuedPrompt(String id, String prompt, @Nullable String agentProfileId, @Nullable RawJson agentSnapshot,
                           @Nullable String systemContext, Instant createdAt, Instant updatedAt) {
    /**
     * Checks the parts; both instants are cut to the millisecond. {@code prompt} is kept untrimmed.
     *
     * @param id the prompt id
     * @param prompt the prompt, not blank; kept untrimmed
     * @param agentProfileId the agent profile to run it with, or null
     * @param agentSnapshot a snapshot of that agent (opaque JSON), or null
     * @param systemContext extra system context, or null
     * @param createdAt when it was queued
     * @param updatedAt when it was last edited
     * @throws InvalidInputException if {@code prompt} is null or blank, or an instant lies outside the years 0000 to
     *     9999 ({@link Times})
     * @throws NullPointerException if {@code id}, {@code createdAt} or {@code updatedAt} is null
     */
    public QueuedPrompt {
        Objects.requireNonNull(id, "id");
        if (prompt == null || prompt.isBlank()) {
            throw new InvalidInputException("a queued prompt must not be empty");
        }
        createdAt = Times.millis(Objects.requireNonNull(createdAt, "createdAt"));
        updatedAt = Times.millis(Objects.requireNonNull(updatedAt, "updatedAt"));
    }
}
