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

    /**
     * @param cursor the cursor a previous page returned, or null for the first page
     * @param limit the page size, 1 to {@value #MAX_LIMIT}
     * @param workspaceId only sessions of this workspace, or null for all
     * @param archived only archived or only unarchived sessions, or null for both
     * @throws InvalidInputException unless {@code 1 <= limit <= 200} (Heddle's {@code validatePageLimit})
     */
    public CatalogQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidInputException("page limit must be an integer from 1 to " + MAX_LIMIT + ", got " + limit);
        }
    }

    /**
     * The first page of every session.
     *
     * @param limit the page size, 1 to {@value #MAX_LIMIT}
     * @return a query with no cursor and no filters
     * @throws InvalidInputException if {@code limit} is out of range
     */
    public static CatalogQuery first(int limit) {
        return new CatalogQuery(null, limit, null, null);
    }

    /**
     * This query continuing after {@code nextCursor}.
     *
     * @param nextCursor the cursor a page returned, or null for the first page
     * @return a new query with that cursor and this query's limit and filters
     */
    public CatalogQuery after(@Nullable String nextCursor) {
        return new CatalogQuery(nextCursor, limit, workspaceId, archived);
    }

    /**
     * Whether an entry passes the filters.
     *
     * @param e the entry
     * @return true if it passes both filters; a null filter passes every entry
     */
    public boolean matches(CatalogEntry e) {
        return (workspaceId == null || workspaceId.equals(e.workspaceId()))
                && (archived == null || archived == e.archived());
    }
}
