package dev.parley.core.store;

import dev.parley.core.InvalidInputException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What every {@link Store} shares, for backends to extend: the URI, the bound scope and whether the URI pinned it,
 * views of other scopes, and closing once. A subclass opens its resources in its root instance, makes views with
 * {@link #view(String)} that share them, and releases them in {@link #release()}, which runs once, when the root
 * is closed.
 */
public abstract class BaseStore implements Store {
    private final String uri;
    private final String scope;
    private final boolean scopePinned;
    private final @Nullable BaseStore root;
    private volatile boolean closed;

    /**
     * A root store (the one {@link Stores#open} returns), which owns the resources.
     *
     * @param uri the URI it was opened from (masked here for messages)
     * @param scope the bound scope, already checked
     * @param scopePinned whether the URI bound the scope
     */
    protected BaseStore(String uri, String scope, boolean scopePinned) {
        this.uri = Stores.redact(Objects.requireNonNull(uri, "uri"));
        this.scope = Scopes.require(scope);
        this.scopePinned = scopePinned;
        this.root = null;
    }

    /**
     * A view of {@code root}'s storage bound to {@code scope}; it owns nothing.
     *
     * @param root the store whose storage the view shares; when it is itself a view, its root
     * @param scope the bound scope, checked by {@link Scopes#require}
     */
    protected BaseStore(BaseStore root, String scope) {
        this.root = Objects.requireNonNull(root, "root").root == null ? root : root.root;
        this.uri = root.uri;
        this.scope = Scopes.require(scope);
        this.scopePinned = false;
    }

    @Override
    public final String uri() {
        return uri;
    }

    @Override
    public final String scope() {
        return scope;
    }

    @Override
    public final Store withScope(String scope) {
        Scopes.require(scope);
        if (scope.equals(this.scope)) {
            return this;
        }
        if (scopePinned) {
            throw new InvalidInputException("the store URI binds scope '" + this.scope + "' (parley.scope=), so it"
                    + " cannot reach scope '" + scope + "'");
        }
        return view(scope);
    }

    /**
     * A view of this store's storage bound to another scope (a valid one, not this store's).
     *
     * @param scope the scope to bind, valid and not this store's
     * @return the view; it shares this store's resources and owns none
     */
    protected abstract Store view(String scope);

    /** Releases the root's resources; called once, by the root's {@link #close()}. */
    protected abstract void release();

    /**
     * Whether the store (its root, for a view) has been closed.
     *
     * @return true once the root store has been closed
     */
    protected final boolean isClosed() {
        return root == null ? closed : root.closed;
    }

    @Override
    public final void close() {
        if (root != null) {
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        release();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + uri + ", scope " + scope + "]";
    }
}
