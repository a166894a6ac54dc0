package dev.parley.agent;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An agent's configuration.
 *
 * @param provider the provider's name, stamped on the messages the agent writes
 * @param model the model id
 * @param systemPrompt the initial system prompt, or null
 * @param tools the tools the model may call, copied; names must be unique
 * @param maxSteps the most model calls one {@link Agent#runStep} makes before it stops (tool loops), at least 1
 */
public record AgentConfig(String provider, String model, @Nullable String systemPrompt, List<Tool> tools, int maxSteps) {
    /**
     * Checks the parts and copies {@code tools}.
     *
     * @param provider the provider's name, stamped on the messages the agent writes
     * @param model the model id
     * @param systemPrompt the initial system prompt, or null
     * @param tools the tools the model may call; copied
     * @param maxSteps the most model calls one step makes, at least 1
     * @throws NullPointerException if {@code provider}, {@code model} or {@code tools} is null, or {@code tools} holds
     *     a null
     * @throws dev.parley.core.InvalidInputException if {@code maxSteps} is below 1 or two tools have the same name
     */
    public AgentConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        tools = List.copyOf(tools);
        if (maxSteps < 1) {
            throw new dev.parley.core.InvalidInputException("maxSteps must be at least 1, got " + maxSteps);
        }
        if (tools.stream().map(t -> t.spec().name()).distinct().count() != tools.size()) {
            throw new dev.parley.core.InvalidInputException("tool names must be unique");
        }
    }

    /**
     * A configuration with no tools and at most 8 model calls per step.
     *
     * @param provider the provider's name, stamped on the messages the agent writes
     * @param model the model id
     * @param systemPrompt the initial system prompt, or null
     * @return the configuration
     * @throws NullPointerException if {@code provider} or {@code model} is null
     */
    public static AgentConfig of(String provider, String model, @Nullable String systemPrompt) {
        return new AgentConfig(provider, model, systemPrompt, List.of(), 8);
    }

    /**
     * This configuration with these tools.
     *
     * @param newTools the tools, in place of this configuration's; names must be unique
     * @return a new configuration with the same provider, model, system prompt and step limit
     * @throws NullPointerException if {@code newTools} is null or holds a null
     * @throws dev.parley.core.InvalidInputException if two tools have the same name
     */
    public AgentConfig withTools(List<Tool> newTools) {
        return new AgentConfig(provider, model, systemPrompt, newTools, maxSteps);
    }
}
