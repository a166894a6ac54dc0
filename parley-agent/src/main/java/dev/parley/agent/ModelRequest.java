package dev.parley.agent;

import dev.parley.core.model.Message;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One call to a model: the conversation so far and the tools it may call.
 *
 * @param model the model id
 * @param systemPrompt the system prompt, or null
 * @param messages the conversation, in order, provider-valid (every tool call answered), copied
 * @param tools the tools the model may call, copied
 */
public record ModelRequest(String model, @Nullable String systemPrompt, List<Message> messages, List<ToolSpec> tools) {
    /**
     * Checks the model id and copies the lists.
     *
     * @param model the model id
     * @param systemPrompt the system prompt, or null
     * @param messages the conversation, in order; copied
     * @param tools the tools the model may call; copied
     * @throws NullPointerException if {@code model}, {@code messages} or {@code tools} is null, or a list holds a null
     */
    public ModelRequest {
        Objects.requireNonNull(model, "model");
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }
}
