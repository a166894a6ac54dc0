package dev.parley.core.repository;

import dev.parley.core.RawJson;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One UI line of a session record ({@code messages}): what a chat UI shows.
 *
 * @param id the line id
 * @param role {@code user} or {@code assistant}
 * @param text the text
 * @param isStreaming whether it is still streaming, or null
 * @param isPending whether it is pending, or null
 * @param directShellResult the result of a direct shell command (opaque JSON), or null
 */
public record ConversationLine(String id, String role, String text, @Nullable Boolean isStreaming,
                               @Nullable Boolean isPending, @Nullable RawJson directShellResult) {
    /**
     * {@code role} is not checked to be {@code user} or {@code assistant}.
     *
     * @param id the line id
     * @param role the role, not checked
     * @param text the text
     * @param isStreaming whether it is still streaming, or null
     * @param isPending whether it is pending, or null
     * @param directShellResult the result of a direct shell command (opaque JSON), or null
     * @throws NullPointerException if {@code id}, {@code role} or {@code text} is null
     */
    public ConversationLine {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(text, "text");
    }
}
