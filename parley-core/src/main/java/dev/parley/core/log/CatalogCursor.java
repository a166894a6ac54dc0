package dev.parley.core.log;

import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The position after which the next catalog page starts: the last listed session's activity time and id.
 * Encoded as opaque base64url text and decoded strictly; a damaged cursor is an
 * {@link InvalidInputException}, never a silently restarted walk.
 *
 * <p>For backend authors: {@link #ORDER} is the catalog order, and {@link #isAfter(SessionInfo)} tells whether a
 * session belongs to a page that starts after this cursor.
 *
 * @param updatedAt the last listed session's {@link SessionInfo#updatedAt()}
 * @param id the last listed session's id
 */
public record CatalogCursor(Instant updatedAt, SessionId id) {
    private static final String VERSION = "c1";

    /** Catalog order: newest activity first, then id ascending. */
    public static final Comparator<SessionInfo> ORDER = Comparator
            .comparing(SessionInfo::updatedAt, Comparator.reverseOrder())
            .thenComparing(SessionInfo::id);

    /**
     * Keeps both values as given.
     *
     * @param updatedAt the last listed session's activity time
     * @param id the last listed session's id
     * @throws NullPointerException if {@code updatedAt} or {@code id} is null
     */
    public CatalogCursor {
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(id, "id");
    }

    /**
     * The cursor positioned after {@code session}.
     *
     * @param session the last session of a page
     * @return a cursor at its activity time and id
     */
    public static CatalogCursor after(SessionInfo session) {
        return new CatalogCursor(session.updatedAt(), session.id());
    }

    /**
     * Whether {@code session} sorts strictly after this cursor in {@link #ORDER}.
     *
     * @param session the session to place
     * @return true if a page that starts after this cursor may hold it: its activity is older, or as old and its id is
     *     greater
     */
    public boolean isAfter(SessionInfo session) {
        int byTime = session.updatedAt().compareTo(updatedAt);
        return byTime < 0 || byTime == 0 && session.id().compareTo(id) > 0;
    }

    /**
     * The opaque text form.
     *
     * @return base64url text without padding, which {@link #decode} reads back; the time is kept to the millisecond
     */
    public String encode() {
        String plain = VERSION + "|" + updatedAt.toEpochMilli() + "|" + id.value();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Decodes a cursor, or returns null for null.
     *
     * @param text the text {@link #encode} wrote, or null
     * @return the cursor, or null when {@code text} is null
     * @throws InvalidInputException if the text is not a cursor this version wrote
     */
    public static @Nullable CatalogCursor decode(@Nullable String text) {
        if (text == null) {
            return null;
        }
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            String[] parts = plain.split("\\|", -1);
            if (parts.length != 3 || !parts[0].equals(VERSION) || !Ids.isValid(parts[2])) {
                throw new IllegalArgumentException("unexpected layout");
            }
            return new CatalogCursor(Instant.ofEpochMilli(Long.parseLong(parts[1])), new SessionId(parts[2]));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("invalid catalog cursor '" + abbreviate(text) + "': not a cursor that a"
                    + " page of the catalog gave (pass the next-page cursor as it was returned)", e);
        }
    }

    /**
     * Pages an already-sorted ({@link #ORDER}) list in memory: for backends that hold their catalog in memory.
     *
     * @param sorted the whole catalog, sorted by {@link #ORDER}
     * @param cursor the cursor of the previous page, or null for the first page
     * @param limit the most sessions on the page, 1 to {@link SessionCatalog#MAX_PAGE_SIZE}
     * @return the sessions after the cursor, at most {@code limit}, with the cursor of the next page; the next cursor
     *     is null when the page reaches the end of {@code sorted}
     * @throws InvalidInputException if {@code limit} is outside 1 to {@link SessionCatalog#MAX_PAGE_SIZE}, or the
     *     cursor is damaged
     */
    public static SessionPage page(List<SessionInfo> sorted, @Nullable String cursor, int limit) {
        checkLimit(limit);
        CatalogCursor after = decode(cursor);
        int start = 0;
        if (after != null) {
            while (start < sorted.size() && !after.isAfter(sorted.get(start))) {
                start++;
            }
        }
        int end = Math.min(sorted.size(), start + limit);
        List<SessionInfo> page = sorted.subList(start, end);
        String next = end < sorted.size() && !page.isEmpty() ? after(page.get(page.size() - 1)).encode() : null;
        return new SessionPage(page, next);
    }

    /**
     * @param limit the page size to check
     * @throws InvalidInputException unless {@code 1 <= limit <= SessionCatalog.MAX_PAGE_SIZE}
     */
    public static void checkLimit(int limit) {
        if (limit < 1 || limit > SessionCatalog.MAX_PAGE_SIZE) {
            throw new InvalidInputException("page limit must be between 1 and " + SessionCatalog.MAX_PAGE_SIZE
                    + ", got " + limit);
        }
    }

    private static String abbreviate(String text) {
        return text.length() > 40 ? text.substring(0, 37) + "..." : text;
    }
}
