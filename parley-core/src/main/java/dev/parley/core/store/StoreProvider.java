package dev.parley.core.store;

import java.util.Set;

/**
 * Opens stores of one URI scheme. Backends register an implementation under
 * {@code META-INF/services/dev.parley.core.store.StoreProvider}; {@link Stores#open(String)} finds it by scheme.
 * Implementations are stateless and thread-safe.
 */
public interface StoreProvider {

    /** The URI scheme this provider opens, without the colon ({@code sqlite}, {@code jsonl}…). */
    String scheme();

    /**
     * The Parley parameters ({@code parley.*}) this backend accepts in its URI besides {@value StoreUri#SCOPE},
     * which every backend accepts. {@link Stores#open} refuses any other.
     */
    default Set<String> parameters() {
        return Set.of();
    }

    /**
     * Whether the storage the URI names exists already (the file, the directory), without creating anything: so a
     * command that only reads can report a mistyped location instead of creating an empty store there. Stores that
     * cannot tell (a server, memory) answer true.
     *
     * @param uri the parsed URI
     */
    default boolean exists(StoreUri uri) {
        return true;
    }

    /**
     * Opens the store the URI names, bound to {@code scope}.
     *
     * @param uri the parsed URI; its Parley parameters are already checked against {@link #parameters()}
     * @param scope the scope to bind, already checked ({@link Scopes#require})
     * @param scopePinned whether the URI bound the scope (then {@link Store#withScope} must refuse another one)
     * @param options the store-wide options (clock, id generator)
     * @throws dev.parley.core.InvalidInputException if the location is malformed
     * @throws dev.parley.core.UnavailableException if the store cannot be opened
     */
    Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options);
}
