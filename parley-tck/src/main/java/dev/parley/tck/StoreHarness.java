package dev.parley.tck;

import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Capability;
import dev.parley.core.store.ForwardingStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreUri;
import dev.parley.core.store.Stores;
import dev.parley.tck.spi.ConformanceSupport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The harness of every kit over any store: each scope under test is the same storage bound to that scope, clean-up
 * is {@link Store#deleteScope()}, and damage for the corruption scenarios comes from the backend's
 * {@link ConformanceSupport}, found by the store URI's scheme. This is what {@code parley conformance --store URI}
 * runs, and what a backend's or an adapter's own test suite runs (through {@code parley-tck-junit}).
 *
 * <p>Which kits apply follows the store's {@link #capabilities()}: {@link #run(Kit)} runs a kit's scenarios when the
 * store declares {@link Kit#requires()}, and reports each of them skipped, with the reason, when it does not. A
 * scenario needing damage injection is skipped, with the reason, when no {@link ConformanceSupport} serves the
 * scheme. Nothing is left out silently.
 *
 * <p>The kit binds its own scope to every scenario ({@code tck-…}) and removes it afterwards; the rest of the store
 * is not touched. So a harness refuses a store whose URI pins its scope with {@code parley.scope=}.
 *
 * <p>Thread-safe. Stores opened for the repository scenarios stay open until their scope is cleaned up.
 */
public final class StoreHarness implements MessageLogHarness, SessionRepositoryHarness, ArchiveRepositoryHarness {
    private final String uri;
    private final Function<String, Store> backing;
    private final boolean ownsBacking;
    private final UnaryOperator<Store> wrapper;
    private final @Nullable String scheme;
    private final @Nullable ConformanceSupport support;
    private final Map<String, List<Store>> held = new HashMap<>();
    private volatile @Nullable Set<Capability> capabilities;

    private StoreHarness(String uri, Function<String, Store> backing, boolean ownsBacking, UnaryOperator<Store> wrapper,
                         @Nullable String scheme, @Nullable ConformanceSupport support) {
        this.uri = uri;
        this.backing = backing;
        this.ownsBacking = ownsBacking;
        this.wrapper = wrapper;
        this.scheme = scheme;
        this.support = support;
    }

    /**
     * {@link #of(String, StoreOptions)} with {@link StoreOptions#defaults()}.
     *
     * @param uri the store URI; it must not bind a scope
     * @return the harness
     * @throws InvalidInputException as {@link #of(String, StoreOptions)}
     */
    public static StoreHarness of(String uri) {
        return of(uri, StoreOptions.defaults());
    }

    /**
     * The harness of the store the URI names. Each scenario's scope is opened as a new instance,
     * {@code Stores.open(uri, options.withScope(scope))}, and closed by the kit.
     *
     * <p>{@code memory:} alone opens a new, empty store each time, which could not show a fresh instance what an
     * earlier one wrote; the harness runs it as a named memory store of its own, {@code memory:tck-RANDOM}
     * ({@link #uri()} says which), kept for the life of the JVM and emptied scope by scope.
     *
     * @param uri the store URI; it must not bind a scope
     * @param options the clock and ids to open each instance with; their scope, if any, is replaced per scenario
     * @return the harness; nothing is opened yet
     * @throws InvalidInputException if the URI is malformed, or binds a scope with {@code parley.scope=} (the message
     *     says to remove it). Nothing is opened before the first scenario, so a store that cannot be opened fails
     *     there, or at {@link #capabilities()}
     */
    public static StoreHarness of(String uri, StoreOptions options) {
        Objects.requireNonNull(options, "options");
        StoreUri parsed = StoreUri.parse(Objects.requireNonNull(uri, "uri"));
        refusePinnedScope(parsed, uri);
        String target = parsed.scheme().equals("memory") && parsed.location().isEmpty()
                ? "memory:tck-" + UUID.randomUUID().toString().substring(0, 8) + uri.substring("memory:".length())
                : uri;
        return new StoreHarness(Stores.redact(target), scope -> Stores.open(target, options.withScope(scope)), true,
                UnaryOperator.identity(), parsed.scheme(), supportFor(parsed.scheme()));
    }

    /**
     * The harness of a store already open, for a store made in code rather than from a URI (an adapter's tests,
     * {@code MemoryStore.open()}). Each scenario's scope is {@code store.withScope(scope)}; the kit never closes
     * {@code store}, which stays the caller's to close after the run. Damage injection is found by the scheme of
     * {@link Store#uri()}.
     *
     * @param store the store under test; it stays open, for the caller to close
     * @return the harness
     * @throws InvalidInputException if the store's URI pins its scope ({@code parley.scope=})
     */
    public static StoreHarness over(Store store) {
        Objects.requireNonNull(store, "store");
        StoreUri parsed;
        try {
            parsed = StoreUri.parse(store.uri());
        } catch (InvalidInputException e) {
            // A URI only the store itself understands: no damage injection can be found for it.
            return new StoreHarness(store.uri(), store::withScope, false, UnaryOperator.identity(), null, null);
        }
        refusePinnedScope(parsed, store.uri());
        return new StoreHarness(store.uri(), store::withScope, false, UnaryOperator.identity(), parsed.scheme(),
                supportFor(parsed.scheme()));
    }

    private static void refusePinnedScope(StoreUri parsed, String uri) {
        if (parsed.scope() != null) {
            throw new InvalidInputException("the store URI '" + Stores.redact(uri) + "' binds scope '" + parsed.scope()
                    + "' with " + StoreUri.SCOPE + "=: the conformance kit binds a scope of its own to each scenario"
                    + " (tck-…) and removes it afterwards; give the URI without " + StoreUri.SCOPE + "=");
        }
    }

    /**
     * This harness with every store it hands to a scenario passed through {@code wrapper} first: to run the kit
     * against a deliberately broken store, or with fault injection. Clean-up and damage injection act on the
     * unwrapped store. The harnesses share nothing else: each keeps its own open stores.
     *
     * @param wrapper given a store bound to a scenario's scope, returns the store the scenario uses; closing what it
     *     returns must close what it was given
     * @return a new harness over the same store; this one is unchanged
     */
    public StoreHarness wrapping(UnaryOperator<Store> wrapper) {
        Objects.requireNonNull(wrapper, "wrapper");
        UnaryOperator<Store> outer = this.wrapper;
        return new StoreHarness(uri, backing, ownsBacking, s -> wrapper.apply(outer.apply(s)), scheme, support);
    }

    /**
     * The backend's conformance support for a scheme, or null when none is on the class path.
     *
     * @param scheme the URI scheme, without the colon ({@code sqlite}, {@code jsonl}…)
     * @return the first {@link ConformanceSupport} that {@link ServiceLoader} finds whose
     *     {@link ConformanceSupport#scheme()} equals {@code scheme}, or null
     */
    public static @Nullable ConformanceSupport supportFor(String scheme) {
        for (ConformanceSupport s : ServiceLoader.load(ConformanceSupport.class, StoreHarness.class.getClassLoader())) {
            if (s.scheme().equals(scheme)) {
                return s;
            }
        }
        return null;
    }

    /**
     * The URI of the store under test, with secrets masked (for {@code memory:}, the named store it runs as).
     *
     * @return the URI, for reports
     */
    public String uri() {
        return uri;
    }

    /**
     * What the store under test declares, read once from a store the harness opens (and closes) for it.
     *
     * @return the capabilities, an immutable set
     * @throws dev.parley.core.ParleyException if the store cannot be opened
     */
    public Set<Capability> capabilities() {
        Set<Capability> c = capabilities;
        if (c == null) {
            try (Store store = open(Store.DEFAULT_SCOPE)) {
                c = Set.copyOf(store.capabilities());
            }
            capabilities = c;
        }
        return c;
    }

    /**
     * Runs one kit and returns a verdict for each of its scenarios, in order. When the store does not declare the
     * kit's {@linkplain Kit#requires() capability}, no scenario runs and each is reported skipped with that reason.
     * Never throws for a failing scenario.
     *
     * @param kit the kit to run
     * @return one verdict per scenario of the kit, in the order they run
     * @throws dev.parley.core.ParleyException if the store cannot be opened to read its capabilities
     */
    public List<Verdict> run(Kit kit) {
        return capabilities().contains(kit.requires())
                ? ConformanceRunner.run(kit.scenarios(), this, StoreHarness::cleanupScope)
                : ConformanceRunner.skipAll(kit.scenarios(), kit.notDeclared());
    }

    @Override
    public Store open(String scope) {
        Store store = backing.apply(scope);
        return wrapper.apply(ownsBacking ? store : new Unclosed(store));
    }

    private Store held(String scope) {
        Store store = open(scope);
        synchronized (held) {
            held.computeIfAbsent(scope, s -> new ArrayList<>()).add(store);
        }
        return store;
    }

    @Override
    public ChatSessionRepository createRepository(String scopeId) {
        return held(scopeId).sessions().orElseThrow(() -> new CapabilityMissing("session records"));
    }

    @Override
    public ChatArchiveRepository createArchiveRepository(String scopeId) {
        return held(scopeId).archives().orElseThrow(() -> new CapabilityMissing("archives"));
    }

    @Override
    public void cleanupScope(String scope) {
        List<Store> stores;
        synchronized (held) {
            stores = held.remove(scope);
        }
        if (stores != null) {
            stores.forEach(Store::close);
        }
        withBacking(scope, Store::deleteScope);
    }

    @Override
    public void corruptEntry(String scope, SessionId session, EntryId entry) {
        ConformanceSupport s = support();
        withBacking(scope, store -> s.corruptEntry(store, session, entry));
    }

    @Override
    public void corruptSessionRecord(String scopeId, String sessionId) {
        ConformanceSupport s = support();
        withBacking(scopeId, store -> s.corruptSessionRecord(store, sessionId));
    }

    @Override
    public void corruptManifest(String scopeId, String sessionId) {
        ConformanceSupport s = support();
        withBacking(scopeId, store -> s.corruptManifest(store, sessionId));
    }

    /** Runs {@code action} on the unwrapped store of the scope, closing it afterwards if the harness opened it. */
    private void withBacking(String scope, Consumer<Store> action) {
        Store store = backing.apply(scope);
        try {
            action.accept(store);
        } finally {
            if (ownsBacking) {
                store.close();
            }
        }
    }

    private ConformanceSupport support() {
        if (support == null) {
            throw new CapabilityMissing("damage injection (no " + ConformanceSupport.class.getSimpleName()
                    + (scheme == null ? " can serve " + uri : " for " + scheme + ":") + " is on the class path)");
        }
        return support;
    }

    @Override
    public String toString() {
        return "StoreHarness[" + uri + "]";
    }

    /** A view of a store the harness does not own: closing it leaves the store open. */
    private static final class Unclosed extends ForwardingStore {
        Unclosed(Store delegate) {
            super(delegate);
        }

        @Override
        public void close() {
            // the store is its opener's to close
        }
    }
}
