package dev.parley.engine;

import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.TurnSummary;
import java.util.List;
import java.util.Objects;

/**
 * What a finished turn adds to its session record: the summary recorded among the recent turns, the messages
 * appended to the model-facing transcript ({@code history}) and the lines appended to the UI projection
 * ({@code messages}). Immutable; lists are copied.
 *
 * @param summary the turn's summary; its id must not be among the record's recent turns already
 * @param messages the messages the turn produced, in order (the prompt, replies, tool calls and results)
 * @param lines the UI lines the turn produced, in order; may be empty
 */
public record CompletedTurn(TurnSummary summary, List<ChatMessage> messages, List<ConversationLine> lines) {
    /**
     * Checks the summary and copies the lists. Whether the summary's id is new is for
     * {@link SessionService#applyCompletedTurn} to check, not this constructor.
     *
     * @param summary the turn's summary
     * @param messages the messages the turn produced, in order; copied
     * @param lines the UI lines the turn produced, in order; copied, may be empty
     * @throws NullPointerException if {@code summary}, {@code messages} or {@code lines} is null, or a list holds a
     *     null
     */
    public CompletedTurn {
        Objects.requireNonNull(summary, "summary");
        messages = List.copyOf(messages);
        lines = List.copyOf(lines);
    }

    /**
     * A completed turn without UI lines.
     *
     * @param summary the turn's summary
     * @param messages the messages the turn produced, in order; copied
     * @return the completed turn, with no lines
     * @throws NullPointerException if {@code summary} or {@code messages} is null, or {@code messages} holds a null
     */
    public static CompletedTurn of(TurnSummary summary, List<ChatMessage> messages) {
        return new CompletedTurn(summary, messages, List.of());
    }
}
