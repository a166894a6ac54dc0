package dev.parley.agent;

import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;

/**
 * Receives what a step produces as it happens: streamed deltas (for display; never persisted on their own), and each
 * message once it is committed to the conversation and durably persisted. All methods have empty defaults; they run
 * on the thread that runs the step and must not call back into the agent.
 */
public interface Receiver {
    /** A receiver that ignores everything. */
    Receiver NONE = new Receiver() {};

    /**
     * A piece of assistant text, as the provider streams it.
     *
     * @param text the new text, to append to what came before
     */
    default void onTextDelta(String text) {}

    /**
     * A piece of reasoning, as the provider streams it.
     *
     * @param text the new reasoning text, to append to what came before
     */
    default void onThinkingDelta(String text) {}

    /**
     * A tool is about to run.
     *
     * @param call the call, as the model wrote it
     */
    default void onToolCall(ContentBlock.ToolCall call) {}

    /**
     * A message was committed to the conversation and persisted (its entry carries the store's seq).
     *
     * @param message the message, as the conversation holds it
     * @param entry the entry it was stored as
     */
    default void onCommitted(Message message, Entry entry) {}
}
