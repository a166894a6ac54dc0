package dev.parley.core.log;

import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A session as the catalog lists it.
 *
 * @param id the session id
 * @param createdAt when the session was created (milliseconds)
 * @param updatedAt when an entry was last appended or removed (milliseconds); the catalog's "newest activity"
 * @param title a human-readable title, or null
 * @param origin where the session was imported from, as {@code format:source-session-id} (or
 *     {@code format:sha256-of-content} for formats without ids), or null for native sessions; importers use it to
 *     recognise a source they have seen before
 * @param entryCount the number of entries in the log
 * @param messageCount how many of them are messages
 * @param metadata free-form metadata set at creation (the import source path, a trajectory's task…), copied
 */
public record SessionInfo(SessionId id, Instant createdAt, Instant updatedAt, @Nullable String title,
                          @Nullable String origin, long entryCount, long messageCount, Map<String, RawJson> metadata) {
    /**
     * Truncates both times to milliseconds and copies {@code metadata}, keeping its order, into an unmodifiable map.
     * The counts are not checked.
     *
     * @param id the session id
     * @param createdAt when the session was created
     * @param updatedAt when an entry was last appended or removed
     * @param title a human-readable title, or null
     * @param origin where the session was imported from, or null for native sessions
     * @param entryCount the number of entries in the log
     * @param messageCount how many of them are messages
     * @param metadata free-form metadata set at creation, copied
     * @throws NullPointerException if {@code id}, {@code createdAt}, {@code updatedAt} or {@code metadata} is null, or
     *     {@code metadata} holds a null key or value
     */
    public SessionInfo {
        Objects.requireNonNull(id, "id");
        createdAt = Objects.requireNonNull(createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
        updatedAt = Objects.requireNonNull(updatedAt, "updatedAt").truncatedTo(ChronoUnit.MILLIS);
        metadata = RawJson.copyOf(metadata, "metadata");
    }
}
