package dev.parley.core.model;

/** The kind of an {@link Entry}, one per {@link EntryPayload} variant, with a stable wire name. */
public enum EntryKind {
    MESSAGE("message"),
    COMPACTION("compaction"),
    MODEL_CHANGE("model_change"),
    THINKING_LEVEL_CHANGE("thinking_level_change"),
    LABEL("label"),
    BRANCH_SUMMARY("branch_summary"),
    SESSION_NAME("session_name"),
    CUSTOM("custom");

    private final String wireName;

    EntryKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in stored records and on the command line. */
    public String wireName() {
        return wireName;
    }

    /** The kind with this wire name. @throws dev.parley.core.InvalidInputException if there is none */
    public static EntryKind fromWireName(String name) {
        for (EntryKind kind : values()) {
            if (kind.wireName.equals(name)) {
                return kind;
            }
        }
        throw new dev.parley.core.InvalidInputException("unknown entry kind '" + name + "'");
    }
}
