package dev.parley.agent;

import dev.parley.core.model.Message;

/**
 * A model provider: turns a conversation into the model's next assistant message.
 *
 * <p>Implementations stream deltas to the receiver as they arrive and return the complete message (content,
 * usage, stop reason). They must not persist anything: the {@link Agent} commits the returned message. A failure
 * before the message is complete throws {@link ProviderException}; whatever was streamed is then discarded.
 * Implementations must be safe to call from one thread at a time.
 */
public interface ModelProvider {

    /**
     * The provider's name, as stamped on messages ({@code anthropic}, {@code openai}, {@code scripted}…).
     *
     * @return the name
     */
    String name();

    /**
     * Calls the model once.
     *
     * @param request the model id, system prompt, conversation and tools to send
     * @param receiver receives the deltas as they stream in, on the calling thread
     * @return the complete assistant message
     * @throws ProviderException if the call fails (a retriable failure says so through {@link ProviderException#isRetriable()})
     */
    Message complete(ModelRequest request, Receiver receiver);
}
