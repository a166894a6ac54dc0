package dev.parley.tck;

import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Capability;
import dev.parley.core.store.Store;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A store that forwards every call to another: the kit hands out views of a store it does not own through one whose
 * {@link #close()} does nothing, and the kit's own tests break one behaviour of a working store by overriding one
 * method. Not API.
 */
class ForwardingStore implements Store {
    private final Store delegate;

    ForwardingStore(Store delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store calls are forwarded to. */
    final Store delegate() {
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
