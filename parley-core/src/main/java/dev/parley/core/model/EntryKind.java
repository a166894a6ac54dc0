package dev.parley.core.model;

/** The kind of an {@link Entry}, one per {@link EntryPayload} variant, with a stable wire name. */
public enum EntryKind {
    /** A {@link Message}: one message of a conversation. Wire name {@code message}. */
    MESSAGE("message"),
    /**
     * An {@link EntryPayload.Compaction}: the conversation before it is replaced by a summary for the model, while
     * the earlier entries stay in the log. Wire name {@code compaction}.
     */
    COMPACTION("compaction"),
    /** An {@link EntryPayload.ModelChange}: the session switched model. Wire name {@code model_change}. */
    MODEL_CHANGE("model_change"),
    /**
     * An {@link EntryPayload.ThinkingLevelChange}: the session switched reasoning effort. Wire name
     * {@code thinking_level_change}.
     */
    THINKING_LEVEL_CHANGE("thinking_level_change"),
    /** An {@link EntryPayload.Label}: a user's bookmark set on (or removed from) an entry. Wire name {@code label}. */
    LABEL("label"),
    /**
     * An {@link EntryPayload.BranchSummary}: a summary of a branch the user left, placed where the conversation
     * continues. Wire name {@code branch_summary}.
     */
    BRANCH_SUMMARY("branch_summary"),
    /** An {@link EntryPayload.SessionName}: the session was named, renamed or unnamed. Wire name {@code session_name}. */
    SESSION_NAME("session_name"),
    /**
     * An {@link EntryPayload.Custom}: anything Parley does not model, kept whole; never part of a conversation.
     * Wire name {@code custom}.
     */
    CUSTOM("custom");

    private final String wireName;

    EntryKind(String wireName) {
        this.wireName = wireName;
    }

    /**
     * The name used in stored records and on the command line.
     *
     * @return the wire name, never null
     */
    public String wireName() {
        return wireName;
    }

    /**
     * The kind with this wire name.
     *
     * @param name the wire name, matched exactly (case included)
     * @return the kind
     * @throws dev.parley.core.InvalidInputException if there is none
     */
    public static EntryKind fromWireName(String name) {
        for (EntryKind kind : values()) {
            if (kind.wireName.equals(name)) {
                return kind;
            }
        }
        throw new dev.parley.core.InvalidInputException("unknown entry kind '" + name + "'");
    }
}
