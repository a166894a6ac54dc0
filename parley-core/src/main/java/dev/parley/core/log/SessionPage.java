package dev.parley.core.log;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of the session catalog.
 *
 * @param sessions the sessions on this page, newest activity first, copied
 * @param nextCursor the opaque cursor of the next page, or null when this is the last page
 */
public record SessionPage(List<SessionInfo> sessions, @Nullable String nextCursor) {
    /**
     * Copies {@code sessions} into an unmodifiable list.
     *
     * @param sessions the sessions on this page, newest activity first
     * @param nextCursor the opaque cursor of the next page, or null when this is the last page
     * @throws NullPointerException if {@code sessions} is null or holds a null
     */
    public SessionPage {
        sessions = List.copyOf(sessions);
    }
}
