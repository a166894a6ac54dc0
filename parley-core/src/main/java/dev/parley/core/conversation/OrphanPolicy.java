package dev.parley.core.conversation;

/**
 * What {@link AgentSession#loadConversation} does with tool calls that have no result in the conversation (a
 * crash or abort between the call and its result). The providers reject a call without a result, so only
 * {@link #KEEP} can yield a conversation that is not provider-valid.
 */
public enum OrphanPolicy {
    /** Leave the calls as they are (for display and export). */
    KEEP,
    /** Remove the unanswered calls; an assistant message left with no content is removed (Planck's strip). */
    STRIP,
    /** Answer each unanswered call with a synthetic error result, "No result provided" (pi's read-side repair). */
    SYNTHESIZE_ERROR_RESULTS
}
