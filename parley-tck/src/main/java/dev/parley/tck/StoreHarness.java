package dev.parley.tck;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
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
import org.jspecify.annotations.Nullable;

/**
 * The harness of every kit over any store URI: each scope under test is the same storage opened with
 * {@code parley.scope} bound to it, clean-up is {@link Store#deleteScope()}, and damage for the corruption
 * scenarios comes from the backend's {@link ConformanceSupport}, found by the URI's scheme. This is what
 * {@code parley conformance --store URI} runs, and what a backend's own test suite can run.
 *
 * <p>Thread-safe. Stores opened for the repository scenarios stay open until their scope is cleaned up.
 */
public final class StoreHarness implements MessageLogHarness, SessionRepositoryHarness, ArchiveRepositoryHarness {
    private final String uri;
    private final StoreOptions options;
    private final @Nullable ConformanceSupport support;
    private final Map<String, List<Store>> open = new HashMap<>();

    private StoreHarness(String uri, StoreOptions options) {
        this.uri = Objects.requireNonNull(uri, "uri");
        this.options = Objects.requireNonNull(options, "options");
        this.support = supportFor(StoreUri.parse(uri).scheme());
    }

    /**
     * The harness of the store the URI names. The URI must not bind a scope of its own: the kit binds one per
     * scenario.
     */
    public static StoreHarness of(String uri) {
        return of(uri, StoreOptions.defaults());
    }

    /** {@link #of(String)} with the given clock and ids. */
    public static StoreHarness of(String uri, StoreOptions options) {
        return new StoreHarness(uri, options);
    }

    /** The backend's conformance support for a scheme, or null when none is on the class path. */
    public static @Nullable ConformanceSupport supportFor(String scheme) {
        for (ConformanceSupport s : ServiceLoader.load(ConformanceSupport.class, StoreHarness.class.getClassLoader())) {
            if (s.scheme().equals(scheme)) {
                return s;
            }
        }
        return null;
    }

    /** The URI under test, with secrets masked. */
    public String uri() {
        return Stores.redact(uri);
    }

    @Override
    public Store open(String scope) {
        return Stores.open(uri, options.withScope(scope));
    }

    private Store held(String scope) {
        Store store = open(scope);
        synchronized (open) {
            open.computeIfAbsent(scope, s -> new ArrayList<>()).add(store);
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
        synchronized (open) {
            stores = open.remove(scope);
        }
        if (stores != null) {
            stores.forEach(Store::close);
        }
        try (Store store = open(scope)) {
            store.deleteScope();
        }
    }

    @Override
    public void corruptEntry(String scope, SessionId session, EntryId entry) {
        try (Store store = open(scope)) {
            support().corruptEntry(store, session, entry);
        }
    }

    @Override
    public void corruptSessionRecord(String scopeId, String sessionId) {
        try (Store store = open(scopeId)) {
            support().corruptSessionRecord(store, sessionId);
        }
    }

    @Override
    public void corruptManifest(String scopeId, String sessionId) {
        try (Store store = open(scopeId)) {
            support().corruptManifest(store, sessionId);
        }
    }

    private ConformanceSupport support() {
        if (support == null) {
            throw new CapabilityMissing("damage injection (no conformance support for " + uri() + " on the class path)");
        }
        return support;
    }
}
