package dev.parley.engine;

import dev.parley.core.repository.ChatMessage;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes the rolling summary for a compaction (in a product, a model call): the previous summary extended with the
 * messages being compacted. Called by {@link SessionService#compactHistory} before anything is written.
 */
@FunctionalInterface
public interface Summarizer {

    /**
     * Summarizes.
     *
     * @param previousSummary the rolling summary the record points at now, or null before the first compaction
     * @param compacted the oldest messages of the transcript, which the compaction archives and removes, in order
     * @return the new rolling summary, never null
     * @throws RuntimeException anything; it propagates out of {@code compactHistory} and nothing is written
     */
    Summary summarize(@Nullable String previousSummary, List<ChatMessage> compacted);

    /**
     * A rolling summary and how it was made.
     *
     * @param text the summary
     * @param model the model that wrote it, or null (kept as the archive's {@code summaryModel})
     * @param shortDescription a short description of the archived part, or null
     */
    record Summary(String text, @Nullable String model, @Nullable String shortDescription) {
        /**
         * Checks the text.
         *
         * @param text the summary
         * @param model the model that wrote it, or null
         * @param shortDescription a short description of the archived part, or null
         * @throws NullPointerException if {@code text} is null
         */
        public Summary {
            Objects.requireNonNull(text, "text");
        }

        /**
         * A summary with text only.
         *
         * @param text the summary
         * @return a summary with no model and no short description
         * @throws NullPointerException if {@code text} is null
         */
        public static Summary of(String text) {
            return new Summary(text, null, null);
        }
    }
}
