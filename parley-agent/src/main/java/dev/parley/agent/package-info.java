/**
 * An {@link dev.parley.agent.Agent} owns its conversation and its session store and persists every message as the
 * message enters the conversation (panto's agent-owned persistence): the user prompt on
 * submission, before any provider call; system messages; each assistant message and each tool result of a step as it
 * is committed, also when the step fails later; compaction results. The embedder never calls a persist function.
 *
 * <p>Model providers ({@link dev.parley.agent.ModelProvider}) and tools ({@link dev.parley.agent.Tool}) are small
 * interfaces; {@link dev.parley.agent.ScriptedProvider} is a deterministic provider for tests and the demo, and
 * {@code parley-langchain4j} adapts LangChain4j chat models.
 */
@NullMarked
package dev.parley.agent;

import org.jspecify.annotations.NullMarked;
