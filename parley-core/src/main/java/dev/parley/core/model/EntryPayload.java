package dev.parley.core.model;

import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link Entry} records. The variants follow the entry types of pi's session format (the richest of the
 * three seeds); everything a source writes that Parley does not model is a {@link Custom} entry, kept whole.
 */
public sealed interface EntryPayload permits Message, EntryPayload.Compaction, EntryPayload.ModelChange,
        EntryPayload.ThinkingLevelChange, EntryPayload.Label, EntryPayload.BranchSummary, EntryPayload.SessionName,
        EntryPayload.Custom {

    /**
     * The kind of this payload.
     *
     * @return the kind of the variant, never null
     */
    default EntryKind kind() {
        if (this instanceof Message) {
            return EntryKind.MESSAGE;
        } else if (this instanceof Compaction) {
            return EntryKind.COMPACTION;
        } else if (this instanceof ModelChange) {
            return EntryKind.MODEL_CHANGE;
        } else if (this instanceof ThinkingLevelChange) {
            return EntryKind.THINKING_LEVEL_CHANGE;
        } else if (this instanceof Label) {
            return EntryKind.LABEL;
        } else if (this instanceof BranchSummary) {
            return EntryKind.BRANCH_SUMMARY;
        } else if (this instanceof SessionName) {
            return EntryKind.SESSION_NAME;
        }
        return EntryKind.CUSTOM;
    }

    /**
     * A compaction: the conversation before this point is replaced by {@code summary} for the model, while every
     * earlier entry stays in the log. A conversation whose path crosses a compaction starts with the summary,
     * then the path entries from {@code firstKeptEntryId} up to the compaction, then the entries after it (pi's
     * rule). Claude Code's compaction boundary has no summary of its own: the summary is the next message.
     *
     * @param summary the summary text, or null when the summary is carried by a following message
     * @param firstKeptEntryId the first entry before the compaction that the model still sees, or null for none
     * @param tokensBefore the context size in tokens before compaction, or null if unknown
     */
    record Compaction(@Nullable String summary, @Nullable EntryId firstKeptEntryId, @Nullable Long tokensBefore)
            implements EntryPayload {}

    /**
     * The session switched model.
     *
     * @param provider the provider, or null if unknown
     * @param model the model id
     */
    record ModelChange(@Nullable String provider, String model) implements EntryPayload {
        /**
         * @param provider the provider, or null
         * @param model the model id
         * @throws NullPointerException if {@code model} is null; {@code provider} may be
         */
        public ModelChange {
            Objects.requireNonNull(model, "model");
        }
    }

    /**
     * The session switched reasoning effort.
     *
     * @param level the level in the source's words ({@code off}, {@code low}, {@code high}…)
     */
    record ThinkingLevelChange(String level) implements EntryPayload {
        /**
         * Keeps {@code level} as given; it is not checked against any list of levels.
         *
         * @param level the level in the source's words
         * @throws NullPointerException if {@code level} is null
         */
        public ThinkingLevelChange {
            Objects.requireNonNull(level, "level");
        }
    }

    /**
     * A user's bookmark on an entry.
     *
     * @param targetId the labelled entry
     * @param label the label, or null when the label is removed
     */
    record Label(EntryId targetId, @Nullable String label) implements EntryPayload {
        /**
         * @param targetId the labelled entry
         * @param label the label, or null when it is removed
         * @throws NullPointerException if {@code targetId} is null; {@code label} may be
         */
        public Label {
            Objects.requireNonNull(targetId, "targetId");
        }
    }

    /**
     * A summary of a branch the user left, placed where the conversation continues.
     *
     * @param fromId the entry the abandoned branch started from, or null if unknown
     * @param summary the summary text
     */
    record BranchSummary(@Nullable EntryId fromId, String summary) implements EntryPayload {
        /**
         * @param fromId the entry the abandoned branch started from, or null
         * @param summary the summary text
         * @throws NullPointerException if {@code summary} is null; {@code fromId} may be
         */
        public BranchSummary {
            Objects.requireNonNull(summary, "summary");
        }
    }

    /**
     * The session was (re)named.
     *
     * @param name the new name, or null when the name is cleared
     */
    record SessionName(@Nullable String name) implements EntryPayload {}

    /**
     * Anything else: extension state, UI events, source records Parley does not model (Claude Code's
     * {@code progress} and {@code file-history-snapshot}, a pi session header). Never part of a conversation.
     * A custom entry without a parent is a detached event: it is kept in the log but is never a leaf.
     *
     * @param customType the type in the source's words
     * @param data the record's data as JSON
     */
    record Custom(String customType, RawJson data) implements EntryPayload {
        /**
         * @param customType the type in the source's words
         * @param data the record's data as JSON
         * @throws NullPointerException if {@code customType} or {@code data} is null
         */
        public Custom {
            Objects.requireNonNull(customType, "customType");
            Objects.requireNonNull(data, "data");
        }
    }
}
