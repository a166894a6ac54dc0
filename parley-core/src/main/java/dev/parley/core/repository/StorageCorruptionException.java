package dev.parley.core.repository;

import dev.parley.core.CorruptRecordException;
import org.jspecify.annotations.Nullable;

/**
 * {@code CHAT_SESSION_STORAGE_CORRUPTION} (or {@code CHAT_ARCHIVE_STORAGE_CORRUPTION} for archives): a stored session
 * record, catalog or archive manifest could not be decoded. {@link #location()} names it.
 */
public final class StorageCorruptionException extends CorruptRecordException {
    private static final long serialVersionUID = 1L;

    private final boolean archive;

    public StorageCorruptionException(String location, String detail, @Nullable Throwable cause, boolean archive) {
        super(location, detail, cause);
        this.archive = archive;
    }

    @Override
    public String stableCode() {
        return archive ? "CHAT_ARCHIVE_STORAGE_CORRUPTION" : "CHAT_SESSION_STORAGE_CORRUPTION";
    }
}
