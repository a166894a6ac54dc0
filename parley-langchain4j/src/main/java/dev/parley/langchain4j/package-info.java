/**
 * Real model providers for Parley agents, through LangChain4j chat models: {@code openai} (and any OpenAI-compatible
 * endpoint), {@code anthropic} and {@code ollama}. Configured by provider name, model and environment variables:
 * {@code OPENAI_API_KEY} / {@code OPENAI_BASE_URL}, {@code ANTHROPIC_API_KEY} / {@code ANTHROPIC_BASE_URL},
 * {@code OLLAMA_BASE_URL}. Kept in its own module so that the core stays free of them.
 */
@NullMarked
package dev.parley.langchain4j;

import org.jspecify.annotations.NullMarked;
