package dev.parley.core.log;

import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import java.util.LinkedHashMap;
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
 */
public record NewSession(SessionId id, @Nullable String title, @Nullable String origin, Map<String, RawJson> metadata) {
    public NewSession {
        Objects.requireNonNull(id, "id");
        metadata = metadata.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** A session with only an id. */
    public static NewSession of(SessionId id) {
        return new NewSession(id, null, null, Map.of());
    }
}
