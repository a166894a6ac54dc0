package dev.parley.core.conversation;

import dev.parley.core.EntryId;
import java.util.Objects;

/**
 * One change {@link AgentSession#loadConversation} made to the logged messages to make the conversation
 * provider-valid. The log itself is never changed by a load.
 *
 * @param entry the entry whose message was changed
 * @param kind what was done
 * @param detail a human-readable detail (the tool call id, the reason)
 */
public record Repair(EntryId entry, Kind kind, String detail) {
    /**
     * @param entry the entry whose message was changed
     * @param kind what was done
     * @param detail a human-readable detail
     * @throws NullPointerException if {@code entry}, {@code kind} or {@code detail} is null
     */
    public Repair {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
    }

    /** The kinds of repair. */
    public enum Kind {
        /** An unanswered tool call was removed ({@link OrphanPolicy#STRIP}). */
        STRIPPED_TOOL_CALL,
        /** An unanswered tool call got a synthetic error result ({@link OrphanPolicy#SYNTHESIZE_ERROR_RESULTS}). */
        SYNTHESIZED_TOOL_RESULT,
        /** A tool result whose call is not in the conversation was removed. */
        DROPPED_ORPHAN_RESULT,
        /** An assistant message that was aborted or failed before completing was removed. */
        DROPPED_INCOMPLETE_MESSAGE,
        /** Two consecutive user messages were merged into one. */
        MERGED_USER_MESSAGES
    }
}
