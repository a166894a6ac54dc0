package dev.parley.engine;

import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.StoredSession;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SessionService#applyCompletedTurn} committed, in one compare-and-swap write.
 *
 * @param stored the record as written, with its new revision
 * @param nextPrompt the queued prompt taken off the front of the queue by the same write, or null when the queue was
 *     empty; the caller owns it now (it is no longer stored anywhere)
 */
public record AppliedTurn(StoredSession stored, @Nullable QueuedPrompt nextPrompt) {
    /**
     * Checks the record.
     *
     * @param stored the record as written, with its new revision
     * @param nextPrompt the queued prompt the write took off the queue, or null when the queue was empty
     * @throws NullPointerException if {@code stored} is null
     */
    public AppliedTurn {
        Objects.requireNonNull(stored, "stored");
    }

    /**
     * {@link #nextPrompt} as an optional.
     *
     * @return the prompt taken off the queue; empty when the queue was empty
     */
    public Optional<QueuedPrompt> next() {
        return Optional.ofNullable(nextPrompt);
    }
}
