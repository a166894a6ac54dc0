package dev.parley.core.store;

import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * {@code memory:}: a store held in memory, with the same contract as the durable ones — message log, catalog,
 * session records and archives, every scope apart — for tests and ephemeral use. The same on every class path.
 *
 * <ul>
 *   <li>{@code memory:} is a new, empty store at each open; what it holds is gone when it is closed.</li>
 *   <li>{@code memory:NAME} (NAME a valid id) names a store shared by every open of that name in this JVM, and kept
 *       for the life of the JVM, also while no instance is open (so a test can close and reopen it). Remove what it
 *       holds with {@link #deleteScope()}.</li>
 * </ul>
 * Closing does not stop the objects already reached through the store: unlike the file and database backends, its
 * log, catalog and repositories keep working after close, and do not fail with
 * {@link dev.parley.core.UnavailableException} for it.
 * Thread-safe.
 */
public final class MemoryStore extends BaseStore {
    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.PERSISTENT,
            Capability.CATALOG, Capability.SESSION_RECORDS, Capability.ARCHIVES));

    private final Map<String, Scope> scopes;
    private final StoreOptions options;
    private final Scope here;

    private record Scope(MemoryMessageLog log, MemoryRepositories repositories) {}

    /** The named stores of this JVM, by name. */
    private static final Map<String, Map<String, Scope>> NAMED = new ConcurrentHashMap<>();

    private final boolean named;

    private MemoryStore(String uri, String scope, boolean pinned, StoreOptions options, @Nullable String name) {
        super(uri, scope, pinned);
        this.options = options;
        this.named = name != null;
        this.scopes = name == null ? new ConcurrentHashMap<>() : NAMED.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
        this.here = scopeData(scope);
    }

    private MemoryStore(MemoryStore root, String scope) {
        super(root, scope);
        this.options = root.options;
        this.scopes = root.scopes;
        this.named = root.named;
        this.here = scopeData(scope);
    }

    /**
     * A new, empty memory store bound to {@value Store#DEFAULT_SCOPE}, with {@link StoreOptions#defaults()}.
     *
     * @return the store, open
     */
    public static MemoryStore open() {
        return open(StoreOptions.defaults());
    }

    /**
     * A new, empty memory store with the given options (bound to their scope, or the default one).
     *
     * @param options the clock, the id generator and the scope to bind
     * @return the store, open
     */
    public static MemoryStore open(StoreOptions options) {
        return new MemoryStore("memory:", options.scope() == null ? DEFAULT_SCOPE : options.scope(), false, options, null);
    }

    private Scope scopeData(String scope) {
        return scopes.computeIfAbsent(scope, s -> new Scope(new MemoryMessageLog(options), new MemoryRepositories()));
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public MessageLog log() {
        return here.log();
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.of(here.log());
    }

    @Override
    public Optional<ChatSessionRepository> sessions() {
        return Optional.of(here.repositories());
    }

    @Override
    public Optional<ChatArchiveRepository> archives() {
        return Optional.of(here.repositories());
    }

    @Override
    public void deleteScope() {
        here.log().clear();
        here.repositories().clear();
    }

    @Override
    protected Store view(String scope) {
        return new MemoryStore(this, scope);
    }

    @Override
    protected void release() {
        if (!named) {
            scopes.clear();
        }
    }

    /** Serves {@code memory:}. */
    static final class Provider implements StoreProvider {
        @Override
        public String scheme() {
            return "memory";
        }

        @Override
        public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
            String name = uri.location();
            if (!name.isEmpty() && !Ids.isValid(name)) {
                throw new InvalidInputException("memory: takes an optional name (letters, digits, '.', '_', '-'), got '"
                        + Stores.redact(uri.text()) + "'");
            }
            return new MemoryStore(uri.text(), scope, scopePinned, options, name.isEmpty() ? null : name);
        }
    }
}
