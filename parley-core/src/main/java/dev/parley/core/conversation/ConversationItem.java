package dev.parley.core.conversation;

import dev.parley.core.EntryId;
import dev.parley.core.model.Message;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One message of a loaded conversation and the entry it came from.
 *
 * @param entry the entry the message was read from (the first one, when split records were merged), or null for
 *     a message the load synthesized (a repair)
 * @param message the message
 */
public record ConversationItem(@Nullable EntryId entry, Message message) {
    /**
     * @param entry the entry the message was read from, or null for a message the load synthesized
     * @param message the message
     * @throws NullPointerException if {@code message} is null; {@code entry} may be
     */
    public ConversationItem {
        Objects.requireNonNull(message, "message");
    }
}
