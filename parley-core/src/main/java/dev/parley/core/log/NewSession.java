package dev.parley.core.log;

import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.Times;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A session to create explicitly, with its catalog attributes. (Appending to a session that does not exist
 * creates it with no title, origin or metadata.)
 *
 * @param id the new session's id
 * @param title a title, or null
 * @param origin the import origin (see {@link SessionInfo#origin()}), or null
 * @param metadata free-form metadata, copied
 * @param createdAt when the session was created, for a session restored from elsewhere (a Parley export keeps it),
 *     kept to the millisecond; null for now. Its activity time ({@link SessionInfo#updatedAt()}) is still now (or
 *     this, if later): the catalog lists a restored session where its restoring happened. It lies within the years
 *     0000 to 9999, as every time Parley stores ({@link Times})
 */
public record NewSession(SessionId id, @Nullable String title, @Nullable String origin, Map<String, RawJson> metadata,
                         @Nullable Instant createdAt) {
    /**
     * Checks and copies the parts; {@code createdAt} is cut to the millisecond.
     *
     * @param id the new session's id
     * @param title a title, or null
     * @param origin the import origin, or null
     * @param metadata free-form metadata, copied
     * @param createdAt when the session was created, or null for now
     * @throws NullPointerException if {@code id} or {@code metadata} is null, or {@code metadata} holds a null key or
     *     value
     * @throws dev.parley.core.InvalidInputException if {@code createdAt} lies outside the years 0000 to 9999
     */
    public NewSession {
        Objects.requireNonNull(id, "id");
        metadata = RawJson.copyOf(metadata, "metadata");
        createdAt = createdAt == null ? null : Times.millis(createdAt);
    }

    /**
     * A session created now.
     *
     * @param id the new session's id
     * @param title a title, or null
     * @param origin the import origin (see {@link SessionInfo#origin()}), or null
     * @param metadata free-form metadata, copied
     * @throws NullPointerException if {@code id} or {@code metadata} is null, or {@code metadata} holds a null key or
     *     value
     */
    public NewSession(SessionId id, @Nullable String title, @Nullable String origin, Map<String, RawJson> metadata) {
        this(id, title, origin, metadata, null);
    }

    /**
     * When the session counts as created, given the time now: {@link #createdAt()}, or {@code now} when there is none.
     *
     * @param now the time now
     * @return {@link #createdAt()}, or {@code now} when it is null
     */
    public Instant createdAtOr(Instant now) {
        return createdAt != null ? createdAt : now;
    }

    /**
     * Its activity time at creation, given the time now: now, or its creation time if that is later.
     *
     * @param now the time now
     * @return the later of {@code now} and {@link #createdAt()}; {@code now} when there is no creation time
     */
    public Instant updatedAtOr(Instant now) {
        return createdAt != null && createdAt.isAfter(now) ? createdAt : now;
    }

    /**
     * A session with only an id.
     *
     * @param id the new session's id
     * @return a session with no title, origin or metadata, created now
     */
    public static NewSession of(SessionId id) {
        return new NewSession(id, null, null, Map.of());
    }
}
