package dev.parley.core;

import org.jspecify.annotations.Nullable;

/**
 * A stored record could not be decoded. {@link #location()} names where (a file and line, a table and key);
 * the read fails instead of skipping the record, and nothing else stored is changed by the failure.
 */
public class CorruptRecordException extends ParleyException {
    private static final long serialVersionUID = 1L;

    /** Where the corrupt record is; see {@link #location()}. */
    private final String location;
    /** What is wrong with it; see {@link #detail()}. */
    private final String detail;

    /**
     * A record that could not be decoded, with the failure that showed it. The message reads
     * {@code corrupt record at <location>: <detail>}.
     *
     * @param location where the record is: a file path with a line number, or a table with its key
     * @param detail what is wrong with it, without the location
     * @param cause the decoding failure, or null
     */
    public CorruptRecordException(String location, String detail, @Nullable Throwable cause) {
        super("corrupt record at " + location + ": " + detail, cause);
        this.location = location;
        this.detail = detail;
    }

    /**
     * A record that could not be decoded, with no underlying failure; same as the three-argument constructor with a
     * null cause.
     *
     * @param location where the record is: a file path with a line number, or a table with its key
     * @param detail what is wrong with it, without the location
     */
    public CorruptRecordException(String location, String detail) {
        this(location, detail, null);
    }

    /**
     * Where the corrupt record is: a file path with a line number, or a table with its key.
     *
     * @return the location, as given to the constructor
     */
    public String location() {
        return location;
    }

    /**
     * What is wrong with it, without the location.
     *
     * @return the detail, as given to the constructor
     */
    public String detail() {
        return detail;
    }

    @Override
    public ErrorCode code() {
        return ErrorCode.CORRUPT_RECORD;
    }
}
