package dev.parley.langchain4j;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.parley.agent.ModelProvider;
import dev.parley.agent.ModelProviderFactory;
import dev.parley.core.InvalidInputException;
import java.time.Duration;
import java.util.Map;

/** The LangChain4j-backed providers, registered by name for {@link dev.parley.agent.ModelProviders}. */
public final class Providers {
    /** How long one model call may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(120);

    private Providers() {}

    static String require(Map<String, String> env, String key, String provider) {
        String value = env.get(key);
        if (value == null || value.isBlank()) {
            throw new InvalidInputException("the " + provider + " provider needs " + key + " in the environment");
        }
        return value;
    }

    /** {@code openai}: OpenAI or any OpenAI-compatible endpoint ({@code OPENAI_API_KEY}, optional {@code OPENAI_BASE_URL}). */
    public static final class OpenAi implements ModelProviderFactory {
        @Override
        public String name() {
            return "openai";
        }

        @Override
        public ModelProvider create(String model, Map<String, String> env) {
            OpenAiChatModel.OpenAiChatModelBuilder b = OpenAiChatModel.builder()
                    .apiKey(require(env, "OPENAI_API_KEY", "openai")).modelName(model).timeout(TIMEOUT).maxRetries(1);
            String base = env.get("OPENAI_BASE_URL");
            if (base != null && !base.isBlank()) {
                b.baseUrl(base);
            }
            return new LangChain4jProvider(name(), b.build(), base != null && !base.isBlank() ? base
                    : "OpenAI's API (set OPENAI_BASE_URL for another endpoint)");
        }
    }

    /** {@code anthropic}: the Anthropic Messages API ({@code ANTHROPIC_API_KEY}, optional {@code ANTHROPIC_BASE_URL}). */
    public static final class Anthropic implements ModelProviderFactory {
        @Override
        public String name() {
            return "anthropic";
        }

        @Override
        public ModelProvider create(String model, Map<String, String> env) {
            AnthropicChatModel.AnthropicChatModelBuilder b = AnthropicChatModel.builder()
                    .apiKey(require(env, "ANTHROPIC_API_KEY", "anthropic")).modelName(model).maxTokens(4096)
                    .timeout(TIMEOUT).maxRetries(1);
            String base = env.get("ANTHROPIC_BASE_URL");
            if (base != null && !base.isBlank()) {
                b.baseUrl(base);
            }
            return new LangChain4jProvider(name(), b.build(), base != null && !base.isBlank() ? base
                    : "Anthropic's API (set ANTHROPIC_BASE_URL for another endpoint)");
        }
    }

    /** {@code ollama}: a local Ollama server ({@code OLLAMA_BASE_URL}, default {@code http://localhost:11434}). */
    public static final class Ollama implements ModelProviderFactory {
        @Override
        public String name() {
            return "ollama";
        }

        @Override
        public ModelProvider create(String model, Map<String, String> env) {
            String base = env.getOrDefault("OLLAMA_BASE_URL", "http://localhost:11434");
            return new LangChain4jProvider(name(), OllamaChatModel.builder().baseUrl(base).modelName(model)
                    .timeout(TIMEOUT).maxRetries(1).build(), base);
        }
    }
}
