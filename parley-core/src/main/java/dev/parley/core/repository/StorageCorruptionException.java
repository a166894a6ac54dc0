package dev.parley.core.repository;

import dev.parley.core.CorruptRecordException;
import org.jspecify.annotations.Nullable;

/**
 * {@code CHAT_SESSION_STORAGE_CORRUPTION} (or {@code CHAT_ARCHIVE_STORAGE_CORRUPTION} for archives): a stored session
 * record, catalog or archive manifest could not be decoded. {@link #location()} names it.
 */
public final class StorageCorruptionException extends CorruptRecordException {
    private static final long serialVersionUID = 1L;

    /** Whether the corrupt data is an archive's; selects the {@link #stableCode()}. */
    private final boolean archive;

    /**
     * A stored record that could not be decoded. The message reads {@code corrupt record at <location>: <detail>}.
     *
     * @param location where it is: a file path with a line number, or a table with its key
     * @param detail what is wrong with it, without the location
     * @param cause the decoding failure, or null
     * @param archive true for archive data: archived messages, a summary or an archive manifest
     *     ({@code CHAT_ARCHIVE_STORAGE_CORRUPTION}); false for a session record or the catalog
     *     ({@code CHAT_SESSION_STORAGE_CORRUPTION})
     */
    public StorageCorruptionException(String location, String detail, @Nullable Throwable cause, boolean archive) {
        super(location, detail, cause);
        this.archive = archive;
    }

    @Override
    public String stableCode() {
        return archive ? "CHAT_ARCHIVE_STORAGE_CORRUPTION" : "CHAT_SESSION_STORAGE_CORRUPTION";
    }
}
