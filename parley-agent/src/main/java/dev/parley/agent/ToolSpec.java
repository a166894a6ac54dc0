package dev.parley.agent;

import dev.parley.core.RawJson;
import java.util.Objects;

/**
 * What the model is told about a tool.
 *
 * @param name the tool's name, unique among the agent's tools
 * @param description what it does, for the model
 * @param parameters the JSON Schema of its arguments (an object schema)
 */
public record ToolSpec(String name, String description, RawJson parameters) {
    /**
     * Keeps the values as given; neither the name's uniqueness nor the schema is checked here.
     *
     * @param name the tool's name
     * @param description what it does, for the model
     * @param parameters the JSON Schema of its arguments
     * @throws NullPointerException if {@code name}, {@code description} or {@code parameters} is null
     */
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
    }
}
