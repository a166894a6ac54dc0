package dev.parley.core.log;

import dev.parley.core.SessionId;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The sessions of a store's message log: listing, lookup and deletion. Catalogs are backend-specific in panto
 * (it keeps them off its store interface); Parley gives every store except the null store the same one, reached
 * through {@link dev.parley.core.store.Store#catalog()} and bound to the store's scope.
 *
 * <p>Thread-safe.
 */
public interface SessionCatalog {

    /**
     * Creates an empty session with its catalog attributes. It is created at {@link NewSession#createdAt()} when that
     * is given (a restored session keeps its creation time), else now; its activity time is now, or that creation
     * time if it is later, so it is listed first until another session is active.
     *
     * @param session the session's id and attributes
     * @return the created session, as {@link #find} would return it
     * @throws dev.parley.core.AlreadyExistsException if the id is taken; nothing was changed
     */
    SessionInfo create(NewSession session);

    /**
     * The session, or empty if it does not exist.
     *
     * @param session the session id
     * @return the session as the catalog lists it, or empty
     */
    Optional<SessionInfo> find(SessionId session);

    /**
     * One page of sessions, newest activity ({@link SessionInfo#updatedAt()}) first, ties broken by id ascending.
     * The cursor holds the last listed session's activity time and id, and each page is read from the store as it
     * is then (no snapshot of the whole walk). So paging with the returned cursors lists exactly once every session
     * that exists throughout the walk and whose activity does not change during it; a session whose activity
     * changes during the walk moves in the order and may be missed or listed again, and one created during the walk
     * may be missed.
     *
     * @param cursor the cursor a previous page returned, or null for the first page
     * @param limit the page size, 1 to {@value #MAX_PAGE_SIZE}
     * @return at most {@code limit} sessions, and the cursor of the next page (null after the last page)
     * @throws dev.parley.core.InvalidInputException if the cursor is damaged or the limit out of range
     */
    SessionPage list(@Nullable String cursor, int limit);

    /** The largest page {@link #list} returns: the same limit as the session-record catalog's. */
    int MAX_PAGE_SIZE = dev.parley.core.repository.CatalogQuery.MAX_LIMIT;

    /**
     * The session with the most recent activity (panto's {@code findMostRecentSession}): the first entry of
     * {@link #list}, or empty when the store has no session.
     *
     * @return the session, or empty when the store has none
     */
    default Optional<SessionInfo> findMostRecent() {
        return list(null, 1).sessions().stream().findFirst();
    }

    /**
     * The sessions imported from this origin (see {@link SessionInfo#origin()}), oldest first.
     *
     * @param origin the origin to match exactly
     * @return the sessions, oldest creation first, ties by id; empty when there are none
     */
    List<SessionInfo> findByOrigin(String origin);

    /**
     * The ids of sessions whose id starts with {@code prefix}, in id order, at most {@code max} of them.
     * Used to accept a unique prefix wherever a session id is expected.
     *
     * @param prefix the start of the ids to find; an empty prefix matches every session
     * @param max the most ids returned, at least 1
     * @return the ids, ascending; empty when none matches
     * @throws dev.parley.core.InvalidInputException if {@code max} is below 1
     */
    List<SessionId> findByPrefix(String prefix, int max);

    /**
     * Deletes the session with all its entries and usage.
     *
     * @param session the session to delete
     * @return true if it existed
     */
    boolean delete(SessionId session);
}
