package dev.parley.core.conversation;

import dev.parley.core.EntryId;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How {@link AgentSession#loadConversation(ConversationOptions)} builds a conversation.
 *
 * @param orphans what to do with tool calls that have no result
 * @param leaf the entry to end the conversation at, or null for the agent's active leaf (its most recent entry
 *     that is not a detached event)
 * @param repairTurns whether to make the turns provider-valid: remove assistant messages that ended in an error or
 *     abort and carry no text (pi's read-side rule), and merge user messages that end up next to each other
 */
public record ConversationOptions(OrphanPolicy orphans, @Nullable EntryId leaf, boolean repairTurns) {
    /** The log as written: orphaned calls and incomplete messages kept, for display and export. */
    public static final ConversationOptions AS_WRITTEN = new ConversationOptions(OrphanPolicy.KEEP, null, false);
    /** A conversation a provider accepts: unanswered calls get error results, incomplete messages are dropped. */
    public static final ConversationOptions PROVIDER_VALID =
            new ConversationOptions(OrphanPolicy.SYNTHESIZE_ERROR_RESULTS, null, true);

    /**
     * Does not check that {@code leaf} exists; the load does.
     *
     * @param orphans what to do with tool calls that have no result
     * @param leaf the entry to end the conversation at, or null for the agent's active leaf
     * @param repairTurns whether to make the turns provider-valid
     * @throws NullPointerException if {@code orphans} is null
     */
    public ConversationOptions {
        Objects.requireNonNull(orphans, "orphans");
    }

    /**
     * These options with the given orphan policy.
     *
     * @param policy the orphan policy; not null
     * @return new options with {@code policy}, the same leaf and the same {@code repairTurns}
     */
    public ConversationOptions withOrphans(OrphanPolicy policy) {
        return new ConversationOptions(policy, leaf, repairTurns);
    }

    /**
     * These options ending at the given leaf.
     *
     * @param leafId the entry to end the conversation at, or null for the agent's active leaf
     * @return new options with {@code leafId}, the same orphan policy and the same {@code repairTurns}
     */
    public ConversationOptions withLeaf(@Nullable EntryId leafId) {
        return new ConversationOptions(orphans, leafId, repairTurns);
    }
}
