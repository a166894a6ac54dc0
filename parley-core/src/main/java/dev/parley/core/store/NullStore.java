package dev.parley.core.store;

import dev.parley.core.InvalidInputException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import java.util.Optional;
import java.util.Set;

/**
 * {@code null:}: the store for embedders who opt out (panto's null store). Its log answers an append with the entries
 * it would have stored and forgets them; every load is empty; it has no catalog, records or archives. An
 * {@code Agent} runs on it unchanged.
 *
 * <p>An append is checked only for what needs no storage: a batch that repeats an entry id is still an
 * {@link InvalidInputException}, and an entry over {@link dev.parley.core.log.EntryLimits} an
 * {@link dev.parley.core.log.EntryTooLargeException}; parents are not checked, and the condition of
 * {@link MessageLog#appendIfLast} is ignored. {@link MessageLog#truncateAfter} does nothing and never throws
 * {@link dev.parley.core.NotFoundException}.
 *
 * <p>Closing it changes nothing: its log keeps working after close. Thread-safe.
 */
public final class NullStore extends BaseStore {
    private final NullMessageLog log;

    private NullStore(String uri, String scope, boolean pinned) {
        super(uri, scope, pinned);
        this.log = new NullMessageLog();
    }

    private NullStore(NullStore root, String scope) {
        super(root, scope);
        this.log = root.log;
    }

    /**
     * A null store.
     *
     * @return a new null store, bound to {@value Store#DEFAULT_SCOPE}
     */
    public static NullStore open() {
        return new NullStore("null:", DEFAULT_SCOPE, false);
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.of();
    }

    @Override
    public MessageLog log() {
        return log;
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.empty();
    }

    @Override
    public Optional<ChatSessionRepository> sessions() {
        return Optional.empty();
    }

    @Override
    public Optional<ChatArchiveRepository> archives() {
        return Optional.empty();
    }

    /** Does nothing: nothing is stored. */
    @Override
    public void deleteScope() {
        // nothing stored
    }

    @Override
    protected Store view(String scope) {
        return new NullStore(this, scope);
    }

    @Override
    protected void release() {
        // nothing held
    }

    /** Serves {@code null:}. */
    static final class Provider implements StoreProvider {
        @Override
        public String scheme() {
            return "null";
        }

        @Override
        public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
            if (!uri.location().isEmpty()) {
                throw new InvalidInputException("null: takes no location, got '" + Stores.redact(uri.text()) + "'");
            }
            return new NullStore(uri.text(), scope, scopePinned);
        }
    }
}
