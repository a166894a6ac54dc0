package dev.parley.formats;

import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A message to write into a conversation document, with the entry it was read from (null for a merged or
 * synthesized one), so that imported messages can be reproduced exactly.
 */
record ExportedMessage(@Nullable Entry entry, Message message) {
    ExportedMessage {
        Objects.requireNonNull(message, "message");
    }
}
