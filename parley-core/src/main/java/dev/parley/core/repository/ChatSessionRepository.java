package dev.parley.core.repository;

import java.util.Optional;

/**
 * Revisioned session records (Heddle's {@code ChatSessionRepository}): whole records
 * written under compare-and-swap on an integer revision, and a catalog paged by an opaque cursor.
 *
 * <p>A repository is constructed <b>already bound to a scope</b> (a tenant); no operation takes one, and a record of
 * another scope is indistinguishable from a missing one.
 *
 * <h2>Rules (the conformance kit's session scenarios check them)</h2>
 * <ul>
 *   <li>{@link #create} gives revision 1; each successful {@link #update} adds one. A record reads back equal to what
 *       was written.</li>
 *   <li>Writes are atomic compare-and-swaps: of two writers holding the same revision exactly one succeeds, the
 *       other gets a {@link RevisionConflictException} naming the expected and actual revisions. Never a lost
 *       update, also across processes and fresh instances.</li>
 *   <li>{@link #list} orders by {@link CatalogOrder}, applies the filters before the page boundary, returns a
 *       {@code nextCursor} only when more entries exist, and projects entries by selecting catalog fields
 *       ({@link CatalogEntry#of}).</li>
 *   <li>A stored record that cannot be decoded makes {@link #read} fail with a
 *       {@link dev.parley.core.CorruptRecordException}; it is never skipped or partly returned.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe. I/O failures are {@link dev.parley.core.UnavailableException}s; nothing is
 * half-written.
 */
public interface ChatSessionRepository {

    /**
     * One page of the catalog.
     *
     * @param query the filters, the cursor and the page size
     * @return the page: entries in {@link CatalogOrder}, and a next cursor only when more entries match
     * @throws InvalidCursorException if the cursor is damaged
     */
    CatalogPage list(CatalogQuery query);

    /**
     * The record and its revision, or empty if there is none (in this scope).
     *
     * @param sessionId the session id
     * @return the record and its revision, or empty
     * @throws dev.parley.core.InvalidInputException if the session id is invalid: not 1 to
     *     {@value ChatSession#MAX_ID_LENGTH} characters, or holding a NUL or an unpaired surrogate
     *     ({@link ChatSession#requireId})
     */
    Optional<StoredSession> read(String sessionId);

    /**
     * Creates a record at revision 1.
     *
     * @param session the record to store; its id must not exist yet
     * @return the record at revision 1
     * @throws SessionAlreadyExistsException if the id exists; nothing was changed
     */
    StoredSession create(ChatSession session);

    /**
     * Replaces the record if its revision is still {@code expectedRevision}.
     *
     * @param session the new record; its id names the record to replace
     * @param expectedRevision the revision the caller last read
     * @return the record at its new revision ({@code expectedRevision + 1}), or empty if there is no record
     * @throws RevisionConflictException if the revision moved on; nothing was changed
     */
    Optional<StoredSession> update(ChatSession session, long expectedRevision);

    /**
     * Deletes the record if its revision is still {@code expectedRevision}.
     *
     * @param sessionId the session id
     * @param expectedRevision the revision the caller last read
     * @return true if it was deleted, false if there was no record
     * @throws RevisionConflictException if the revision moved on; nothing was changed
     */
    boolean delete(String sessionId, long expectedRevision);
}
