package dev.parley.core.store;

import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A store that hands every call to another one: the base for decorators (a view whose {@link #close()} leaves the
 * store open, a test that records or breaks one behaviour of a working store). Override the calls to intercept; the
 * rest reach the delegate unchanged. {@link #withScope} returns the delegate's view, undecorated: a decorator that
 * must cover other scopes overrides it too.
 *
 * <p>Thread-safe if the delegate is; adds no state of its own.
 */
public abstract class ForwardingStore implements Store {
    private final Store delegate;

    /**
     * @param delegate the store every call is handed to; not null
     * @throws NullPointerException if {@code delegate} is null
     */
    protected ForwardingStore(Store delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The store every call is handed to.
     *
     * @return the delegate, as given to the constructor
     */
    protected final Store delegate() {
        return delegate;
    }

    @Override
    public String uri() {
        return delegate.uri();
    }

    @Override
    public String scope() {
        return delegate.scope();
    }

    @Override
    public Set<Capability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public MessageLog log() {
        return delegate.log();
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return delegate.catalog();
    }

    @Override
    public Optional<ChatSessionRepository> sessions() {
        return delegate.sessions();
    }

    @Override
    public Optional<ChatArchiveRepository> archives() {
        return delegate.archives();
    }

    @Override
    public Store withScope(String scope) {
        return delegate.withScope(scope);
    }

    @Override
    public void deleteScope() {
        delegate.deleteScope();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
