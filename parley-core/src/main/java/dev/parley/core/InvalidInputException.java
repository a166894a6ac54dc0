package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * Input that violates the contract: an invalid id, a malformed transcript line, a parent id that does not exist, an out-of-range setting, an unknown store URI scheme. The message names what and where; nothing of the failed call was written.
 */
public class InvalidInputException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /**
     * Input refused, with no underlying failure.
     *
     * @param message what is invalid and where, as the exception's message
     */
    public InvalidInputException(String message) {
        super(message, null);
    }

    /**
     * Input refused, with the failure that showed it invalid (a parse error…).
     *
     * @param message what is invalid and where, as the exception's message
     * @param cause the underlying failure, or null
     */
    public InvalidInputException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.INVALID_INPUT;
    }
}
