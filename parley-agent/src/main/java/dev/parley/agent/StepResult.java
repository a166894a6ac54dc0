package dev.parley.agent;

import dev.parley.core.model.Message;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link Agent#runStep} did.
 *
 * @param modelCalls how many times the provider was called
 * @param toolCalls how many tool calls ran (resumed ones included)
 * @param reply the last assistant message, or null if none was committed
 * @param stoppedAtMaxSteps whether the step stopped because it reached {@link AgentConfig#maxSteps()} with tool
 *     calls still being made
 */
public record StepResult(int modelCalls, int toolCalls, @Nullable Message reply, boolean stoppedAtMaxSteps) {}
