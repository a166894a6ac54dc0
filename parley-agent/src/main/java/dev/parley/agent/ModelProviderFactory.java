package dev.parley.agent;

import java.util.Map;

/**
 * Creates model providers of one name; registered through {@link java.util.ServiceLoader} under
 * {@code META-INF/services/dev.parley.agent.ModelProviderFactory} ({@code parley-langchain4j} registers
 * {@code openai}, {@code anthropic} and {@code ollama}).
 */
public interface ModelProviderFactory {

    /**
     * The provider name this factory serves ({@code openai}…).
     *
     * @return the name, as {@link ModelProviders#create} looks it up
     */
    String name();

    /**
     * Creates a provider.
     *
     * @param model the model id
     * @param environment where to read settings such as API keys and base URLs (normally {@link System#getenv()})
     * @return the provider, not yet called
     * @throws dev.parley.core.InvalidInputException if a required setting (an API key) is missing
     */
    ModelProvider create(String model, Map<String, String> environment);
}
