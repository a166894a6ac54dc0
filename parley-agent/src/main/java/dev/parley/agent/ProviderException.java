package dev.parley.agent;

import dev.parley.core.ErrorCode;
import dev.parley.core.ParleyException;
import org.jspecify.annotations.Nullable;

/**
 * A model provider call failed: the network, the provider's service, a refused request, or an injected failure. The
 * conversation keeps everything committed before the failure; the failed call left nothing.
 */
public class ProviderException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /** Whether the same call, unchanged, may succeed on a retry; serialized with the exception. */
    private final boolean retriable;

    /**
     * A failed provider call.
     *
     * @param message what failed, as the exception's message
     * @param retriable whether the same call, unchanged, may succeed on a retry ({@link #isRetriable()}); it also
     *     decides the {@link #code()}
     * @param cause the underlying failure, or null
     */
    public ProviderException(String message, boolean retriable, @Nullable Throwable cause) {
        super(message, cause);
        this.retriable = retriable;
    }

    /** {@link ErrorCode#UNAVAILABLE} when retriable, else {@link ErrorCode#INVALID_INPUT}. */
    @Override
    public ErrorCode code() {
        return retriable ? ErrorCode.UNAVAILABLE : ErrorCode.INVALID_INPUT;
    }

    @Override
    public boolean isRetriable() {
        return retriable;
    }
}
