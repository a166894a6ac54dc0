package dev.parley.core.log;

import dev.parley.core.InvalidInputException;

/**
 * {@code LOG_ENTRY_TOO_LARGE}: an entry of an append holds more than a store can read back
 * ({@link EntryLimits}). Nothing of its batch was written. It is invalid input (the CLI exits 2); the server answers
 * 413 (Content Too Large) with a problem document, and the remote store raises this same exception.
 */
public final class EntryTooLargeException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    /**
     * An entry refused for its size.
     *
     * @param message which entry, its size and the limit it exceeds, as the exception's message
     */
    public EntryTooLargeException(String message) {
        super(message);
    }

    @Override
    public String stableCode() {
        return "LOG_ENTRY_TOO_LARGE";
    }
}
