package dev.parley.agent;

import dev.parley.core.InvalidInputException;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Finds model providers by name: {@code scripted} is built in; the others come from {@link ModelProviderFactory}s. */
public final class ModelProviders {
    /** The name of the built-in scripted provider (it echoes the last prompt). */
    public static final String SCRIPTED = "scripted";

    private ModelProviders() {}

    /**
     * Creates the named provider.
     *
     * @param name the provider's name: {@link #SCRIPTED} or the name of a {@link ModelProviderFactory}
     * @param model the model id; the scripted provider ignores it
     * @param environment where the provider reads its settings (normally {@link System#getenv()}); the scripted
     *     provider reads none
     * @return a new provider
     * @throws InvalidInputException if no provider has that name (the message lists the available ones), or a
     *     setting it needs is missing
     */
    public static ModelProvider create(String name, String model, Map<String, String> environment) {
        if (name.equals(SCRIPTED)) {
            return ScriptedProvider.echo();
        }
        ModelProviderFactory factory = factories().get(name);
        if (factory == null) {
            throw new InvalidInputException("unknown provider '" + name + "'; available: " + names());
        }
        return factory.create(model, environment);
    }

    /**
     * The available provider names.
     *
     * @return {@link #SCRIPTED} and the names of the factories found, sorted; a new, modifiable set
     */
    public static java.util.Set<String> names() {
        java.util.Set<String> names = new java.util.TreeSet<>(factories().keySet());
        names.add(SCRIPTED);
        return names;
    }

    private static Map<String, ModelProviderFactory> factories() {
        Map<String, ModelProviderFactory> out = new TreeMap<>();
        for (ModelProviderFactory f : ServiceLoader.load(ModelProviderFactory.class, ModelProviders.class.getClassLoader())) {
            out.putIfAbsent(f.name(), f);
        }
        return out;
    }
}
