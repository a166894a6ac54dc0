package dev.parley.core.store;

import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import java.util.Optional;
import java.util.Set;

/**
 * One opened store: the root from which everything Parley keeps is reached — the {@linkplain #log() message log},
 * its {@linkplain #catalog() catalog}, and the {@linkplain #sessions() session} and {@linkplain #archives() archive}
 * repositories. Open one with {@link Stores#open(String)}; close it when done.
 *
 * <h2>Scope</h2>
 * A store is bound to one <em>scope</em> (a tenant) when it is opened: by {@code parley.scope=} in its URI, by
 * {@link StoreOptions#scope()}, or {@value #DEFAULT_SCOPE}. Everything reached through it — the log, the catalog,
 * the records and archives — sees that scope only: a session of another scope looks missing. The binding is the
 * same on every backend. {@link #withScope(String)} gives a view bound to another scope, unless the URI pinned one.
 *
 * <h2>Capabilities</h2>
 * What a backend offers is queried through {@link #capabilities()} and the {@link Optional} views, never discovered
 * by catching exceptions.
 *
 * <p>Implementations are thread-safe. Closing a store closes everything reached through it, including views made by
 * {@link #withScope(String)}; using any of them afterwards fails with an {@link dev.parley.core.UnavailableException}
 * on every backend except {@code memory:} and {@code null:}, whose objects keep working after close.
 */
public interface Store extends AutoCloseable {

    /** The scope a store is bound to when neither its URI nor its options name one. */
    String DEFAULT_SCOPE = "default";

    /**
     * The URI this store was opened from, with secrets masked ({@link Stores#redact}); for messages and logs.
     *
     * @return the URI, masked
     */
    String uri();

    /**
     * The scope this store is bound to; never empty.
     *
     * @return the scope
     */
    String scope();

    /**
     * What this store offers.
     *
     * @return the capabilities; empty for the null store
     */
    Set<Capability> capabilities();

    /**
     * The message log of this store's scope. Every store has one (the null store's keeps nothing).
     *
     * @return the log, never null
     */
    MessageLog log();

    /**
     * The session catalog of this store's scope; empty only for stores that keep nothing ({@code null:}).
     *
     * @return the catalog, or empty for a store that keeps nothing
     */
    Optional<SessionCatalog> catalog();

    /**
     * The session-record repository of this store's scope, if the store has one
     * ({@link Capability#SESSION_RECORDS}).
     *
     * @return the repository, or empty when the store has none
     */
    Optional<ChatSessionRepository> sessions();

    /**
     * The archive repository of this store's scope, if the store has one ({@link Capability#ARCHIVES}).
     *
     * @return the repository, or empty when the store has none
     */
    Optional<ChatArchiveRepository> archives();

    /**
     * A view of the same storage bound to another scope. The view shares this store's resources: closing the view
     * does nothing, closing this store closes it.
     *
     * @param scope the scope, checked by {@link Scopes#require}
     * @return the view; this store itself when {@code scope} is this store's scope
     * @throws dev.parley.core.InvalidInputException if the scope is invalid, or this store's URI pinned its scope
     *     with {@code parley.scope=} (a URI that binds a scope binds everything reached through it)
     */
    Store withScope(String scope);

    /**
     * Removes everything this store's scope holds: the log's sessions with their entries and usage, and the
     * session records and archives. Administrative (deleting a tenant, the conformance kit's clean-up); other scopes
     * are untouched. Nothing of the scope's sessions is kept, not even what keeps a deleted session's seqs from being
     * given again ({@code jsonl:} keeps no trace; the databases' seqs are store-wide and go on rising).
     *
     * @throws dev.parley.core.UnavailableException if the backend failed; what was removed before the failure
     *     stays removed
     */
    void deleteScope();

    /** Releases the store's resources (connections, file locks). Idempotent. */
    @Override
    void close();
}
