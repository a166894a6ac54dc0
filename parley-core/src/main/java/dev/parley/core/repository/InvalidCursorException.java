package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;

/** {@code INVALID_CHAT_SESSION_CURSOR}: a catalog cursor that is not one the repository wrote. */
public final class InvalidCursorException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    /**
     * A cursor refused. The message reads {@code invalid catalog cursor: <detail>}.
     *
     * @param detail what is wrong with the cursor
     * @param cause the decoding failure, or null
     */
    public InvalidCursorException(String detail, @org.jspecify.annotations.Nullable Throwable cause) {
        super("invalid catalog cursor: " + detail, cause);
    }

    @Override
    public String stableCode() {
        return "INVALID_CHAT_SESSION_CURSOR";
    }
}
