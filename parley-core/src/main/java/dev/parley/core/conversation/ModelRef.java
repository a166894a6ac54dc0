package dev.parley.core.conversation;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A provider and model, as {@link AgentSession#activeModel()} reports them.
 *
 * @param provider the provider, or null if the log does not say
 * @param model the model id
 */
public record ModelRef(@Nullable String provider, String model) {
    /**
     * @param provider the provider, or null
     * @param model the model id
     * @throws NullPointerException if {@code model} is null; {@code provider} may be
     */
    public ModelRef {
        Objects.requireNonNull(model, "model");
    }
}
