package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One message of a session record's model-facing transcript (Heddle's string-content {@code ChatMessage}).
 *
 * <p>Immutable. The message keeps what was written: a record that had no {@code toolCalls} key reads back without
 * one, and a record with {@code "toolCalls": []} reads back with an empty list, because Heddle's conformance suite
 * compares the record it wrote with the one it reads.
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text (for a tool message, the serialized result)
 * @param toolCalls the tool calls of an assistant message, copied; null when the message has no {@code toolCalls}
 *     key, which is not the same as an empty list. Use {@link #toolCallsOrEmpty()} to iterate
 * @param toolCallId the call a tool message answers, or null
 * @param providerContinuation opaque provider state that must be replayed (never rendered), or null
 */
public record ChatMessage(String role, String content, @Nullable List<ToolCall> toolCalls, @Nullable String toolCallId,
                          @Nullable RawJson providerContinuation) {
    static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool");

    /**
     * Copies {@code toolCalls}, when not null, into an unmodifiable list. Does not check that only an assistant
     * message has tool calls or only a tool message a {@code toolCallId}.
     *
     * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
     * @param content the text
     * @param toolCalls the tool calls, copied; null for no {@code toolCalls} key
     * @param toolCallId the call a tool message answers, or null
     * @param providerContinuation opaque provider state, or null
     * @throws InvalidInputException if {@code role} is not one of the four roles
     * @throws NullPointerException if {@code role} or {@code content} is null, or {@code toolCalls} holds a null
     */
    public ChatMessage {
        if (!ROLES.contains(role)) {
            throw new InvalidInputException("unknown chat message role '" + role + "'");
        }
        Objects.requireNonNull(content, "content");
        toolCalls = toolCalls == null ? null : List.copyOf(toolCalls);
    }

    /**
     * A message with text only: no {@code toolCalls} key, no tool call id, no provider state.
     *
     * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
     * @param content the text
     * @return the message
     * @throws InvalidInputException if {@code role} is not one of the four roles
     */
    public static ChatMessage of(String role, String content) {
        return new ChatMessage(role, content, null, null, null);
    }

    /**
     * The tool calls, or an empty list when the message has none or no {@code toolCalls} key. Never null.
     *
     * @return {@link #toolCalls()}, or an empty list when it is null
     */
    public List<ToolCall> toolCallsOrEmpty() {
        return toolCalls == null ? List.of() : toolCalls;
    }

    /**
     * A tool call of an assistant message.
     *
     * @param id the call id
     * @param tool the tool's name
     * @param input the arguments as JSON
     */
    public record ToolCall(String id, String tool, RawJson input) {
        /**
         * @param id the call id
         * @param tool the tool's name
         * @param input the arguments as JSON
         * @throws NullPointerException if {@code id}, {@code tool} or {@code input} is null
         */
        public ToolCall {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(input, "input");
        }
    }
}
