package dev.parley.core.log;

/** The outcome of {@link MessageLog#flushUnpersisted}: Planck's {@code :flushed | :noop}. */
public enum FlushResult {
    /** Messages were written. */
    FLUSHED,
    /** There was nothing to write. */
    NOOP
}
