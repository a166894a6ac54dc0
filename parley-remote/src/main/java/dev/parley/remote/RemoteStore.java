package dev.parley.remote;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.model.Entry;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.BaseStore;
import dev.parley.core.store.Capability;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import dev.parley.core.store.StoreUri;
import dev.parley.remote.internal.EventReader;
import dev.parley.remote.internal.Node;
import dev.parley.remote.internal.Remote;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A store on a Parley server ({@code parley serve}), opened from {@code remote:http://HOST:PORT[?parley.…]}: every
 * contract of the server's store over HTTP, with the resilience of {@link RemoteSettings} — a timeout on every call
 * (5000 ms by default, Planck's {@code persistence_timeout}), a circuit breaker, and a fallback to a local store.
 *
 * <h2>What falls back</h2>
 * The message log and its catalog (Planck's persistence behaviour): when a call fails because the server does not
 * answer — a refused connection, a timeout, a 5xx that is not a Parley answer, a 503 {@code UNAVAILABLE}, an open
 * breaker — it is carried out on the fallback store ({@link dev.parley.core.store.Stores#defaultUri()} unless
 * {@code parley.fallback=} names another), the first fallback of an outage is logged as a warning
 * ({@code dev.parley.remote}; the rest at DEBUG, and the server's return at INFO with their number), the
 * {@linkplain #addListener listeners} are told and {@link #stats()} counts it. A write that fell back is first recorded
 * in the replay journal (fsynced), and replayed to the server in order — in the background every
 * {@code parley.replay} ms, before the next call, and by {@link #sync()} ({@code parley remote sync}) — exactly once:
 * appends are idempotent by entry id. A write the server refuses at replay is reported, never merged. The answers
 * the server gives — invalid input, not found, conflicts, a corrupt record — are never fallbacks: they come back as
 * the same {@link dev.parley.core.ParleyException} type the server raised.
 *
 * <p>Session records and archives do not fall back: a revisioned record cannot be forked without two sides handing
 * out the same revision, so their calls fail with {@link UnavailableException} (retriable) while the server is down.
 * See {@code docs/08-remote-store.md} for what readers see during an outage.
 *
 * <h2>Scope</h2>
 * With a token, the server binds the token's scope. The store names its scope on each call only when it was bound
 * explicitly ({@code parley.scope=}, {@link StoreOptions#scope()}, {@link #withScope}); a server refuses a scope the
 * token is not bound to. {@link #scope()} reports {@value Store#DEFAULT_SCOPE} when the scope is left to the token.
 *
 * <p>Thread-safe. Closing the store stops the background replay and closes the fallback store; pending writes stay in
 * the journal for the next open.
 */
public final class RemoteStore extends BaseStore {
    private final Node node;
    private final Remote remote;
    private final @Nullable String namedScope;
    private volatile @Nullable Set<Capability> capabilities;

    private RemoteStore(StoreUri uri, String scope, boolean scopePinned, boolean named, StoreOptions options) {
        super(uri.text(), scope, scopePinned);
        this.node = new Node(RemoteSettings.from(uri, System.getenv()), options);
        this.namedScope = named ? scope : null;
        this.remote = new Remote(node, namedScope);
    }

    private RemoteStore(RemoteStore root, String scope) {
        super(root, scope);
        this.node = root.node;
        this.namedScope = scope;
        this.remote = new Remote(node, scope);
    }

    /** Opens {@code remote:} URIs. */
    public static final class Provider implements StoreProvider {
        @Override
        public String scheme() {
            return "remote";
        }

        @Override
        public Set<String> parameters() {
            return RemoteSettings.PARAMETERS;
        }

        @Override
        public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
            return new RemoteStore(uri, scope, scopePinned, scopePinned || options.scope() != null, options);
        }
    }

    /**
     * The resilience settings from the URI.
     *
     * @return the settings, the same for every scope of this store
     */
    public RemoteSettings settings() {
        return node.settings();
    }

    /**
     * Adds a listener of fallbacks, replays and conflicts (of every scope of this store).
     *
     * @param listener the listener; it cannot be removed, and one added twice is called twice
     */
    public void addListener(RemoteListener listener) {
        node.addListener(listener);
    }

    /**
     * This store's counters since it was opened (shared by every scope), the breaker's state and the journal's
     * pending writes.
     *
     * @return a snapshot of the counters, taken now
     */
    public RemoteStats stats() {
        return new RemoteStats(node.calls(), node.fallbacks(), node.replays(), node.conflicts(),
                node.journal().locked(node.journal()::pendingCount), node.transport().breakerState());
    }

    /**
     * What {@code parley remote status} prints: whether the server answers now (one call, within the timeout), the
     * breaker, the pending and refused writes, and where the journal and the fallback are.
     *
     * @return the status, with {@link RemoteStatus#reachable()} false when the server did not answer
     * @throws UnavailableException if what answers at the server's address is not a Parley server
     */
    public RemoteStatus status() {
        JsonNode health = remote.health();
        return new RemoteStatus(node.settings().server().toString(), health != null, node.transport().breakerState(),
                stats().pending(), node.journal().conflicts().size(), node.settings().timeout(),
                node.journal().file().toString(), dev.parley.core.store.Stores.redact(node.settings().fallbackUri()));
    }

    /**
     * Replays every write that fell back to the server, in order, now ({@code parley remote sync}), trying the server
     * even while the breaker is open.
     *
     * @return what was replayed, refused (reported as conflicts) and left pending (the server stopped answering)
     * @throws UnavailableException if the journal cannot be read or written
     */
    public SyncReport sync() {
        node.transport().probe();
        return node.replay();
    }

    /**
     * Follows a session's live event stream (server-sent events): calls {@code onEntry} with every entry appended after
     * {@code afterSeq}, in order, until {@code onEntry} returns false or the thread is interrupted; reconnects with
     * {@code Last-Event-ID} when the stream breaks. Blocks the calling thread. No fallback: while the server is down
     * it keeps reconnecting, waiting the shorter of one second and the timeout ({@link RemoteSettings#timeout()})
     * between attempts.
     *
     * <p>When the thread is interrupted, this returns normally with the thread's interrupt status set. Closing the
     * store does not end a stream that is open (stop it from {@code onEntry} or by interrupting the thread); its
     * next reconnection fails with {@link UnavailableException}.
     *
     * @param session the session to follow
     * @param afterSeq the seq to start after (0 for every entry)
     * @param onEntry receives each entry; returns whether to go on
     * @throws InvalidInputException if the server refuses the stream with a 4xx status other than 408 and 429 (a bad
     *     token, an invalid session id), or TLS fails in a way no reconnection mends (a plain HTTP server at an
     *     {@code https:} address, a certificate this JVM does not accept); a 408, a 429 or a 5xx is a break, and it
     *     reconnects
     * @throws dev.parley.core.CorruptRecordException if an event's data cannot be decoded as an entry
     */
    public void follow(SessionId session, long afterSeq, java.util.function.Predicate<Entry> onEntry) {
        new EventReader(node.transport(), namedScope).follow(session, afterSeq, onEntry);
    }

    /**
     * What the server's store offers. The first call asks the server (a health call, which blocks up to the timeout)
     * and caches its answer for the life of this store. While the server has not answered (it is down, or the
     * breaker is open), this returns the fallback store's capabilities, uncached, and the next call asks the server
     * again.
     */
    @Override
    public Set<Capability> capabilities() {
        Set<Capability> known = capabilities;
        if (known == null) {
            JsonNode health;
            try {
                health = remote.health();
            } catch (UnavailableException notParley) {
                health = null; // what answers is not a Parley server: no more use than none
            }
            if (health == null) {
                return node.fallback(namedScope).capabilities();
            }
            Set<Capability> caps = EnumSet.noneOf(Capability.class);
            health.path("capabilities").forEach(c -> caps.add(Capability.valueOf(c.asText())));
            known = Set.copyOf(caps);
            capabilities = known;
        }
        return known;
    }

    @Override
    public MessageLog log() {
        return remote.log();
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.of(remote.catalog());
    }

    /**
     * The server's session records, if its store has them: decided by {@link #capabilities()}, so the first call may
     * block up to the timeout, and while the server has not answered the fallback store's capabilities decide.
     */
    @Override
    public Optional<ChatSessionRepository> sessions() {
        return capabilities().contains(Capability.SESSION_RECORDS) ? Optional.of(remote.sessions()) : Optional.empty();
    }

    /**
     * The server's archives, if its store has them: decided by {@link #capabilities()}, so the first call may block
     * up to the timeout, and while the server has not answered the fallback store's capabilities decide.
     */
    @Override
    public Optional<ChatArchiveRepository> archives() {
        return capabilities().contains(Capability.ARCHIVES) ? Optional.of(remote.archives()) : Optional.empty();
    }

    @Override
    public void deleteScope() {
        remote.deleteScope();
    }

    @Override
    protected Store view(String scope) {
        return new RemoteStore(this, scope);
    }

    @Override
    protected void release() {
        node.close();
    }

}
