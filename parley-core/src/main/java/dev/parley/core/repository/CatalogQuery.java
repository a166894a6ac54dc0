package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import org.jspecify.annotations.Nullable;

/**
 * One page request of the catalog. The filters apply before the page boundary.
 *
 * @param cursor the cursor a previous page returned, or null for the first page
 * @param limit the page size, an integer from 1 to {@value #MAX_LIMIT}
 * @param workspaceId only sessions of this workspace (exact match), or null for all
 * @param archived only archived ({@code true}) or only unarchived ({@code false}) sessions, or null for both
 */
public record CatalogQuery(@Nullable String cursor, int limit, @Nullable String workspaceId, @Nullable Boolean archived) {
    /** The largest page. */
    public static final int MAX_LIMIT = 200;

    /** @throws InvalidInputException unless {@code 1 <= limit <= 200} (Heddle's {@code validatePageLimit}) */
    public CatalogQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidInputException("page limit must be an integer from 1 to " + MAX_LIMIT + ", got " + limit);
        }
    }

    /** The first page of every session. */
    public static CatalogQuery first(int limit) {
        return new CatalogQuery(null, limit, null, null);
    }

    /** This query continuing after {@code nextCursor}. */
    public CatalogQuery after(@Nullable String nextCursor) {
        return new CatalogQuery(nextCursor, limit, workspaceId, archived);
    }

    /** Whether an entry passes the filters. */
    public boolean matches(CatalogEntry e) {
        return (workspaceId == null || workspaceId.equals(e.workspaceId()))
                && (archived == null || archived == e.archived());
    }
}
