package dev.parley.core.store;

import dev.parley.core.log.MessageLog;

/**
 * Opens stores of one URI scheme. Backends register an implementation under
 * {@code META-INF/services/dev.parley.core.store.StoreProvider}; {@link Stores#open(String)} finds it by scheme.
 */
public interface StoreProvider {

    /** The URI scheme this provider opens, without the colon ({@code sqlite}, {@code jsonl}…). */
    String scheme();

    /**
     * Opens the store named by the part of the URI after {@code scheme:}.
     *
     * @param location the scheme-specific part (a path, a JDBC URL, nothing)
     * @param options the store-wide options (clock, id generator)
     * @throws dev.parley.core.InvalidInputException if the location is malformed
     * @throws dev.parley.core.UnavailableException if the store cannot be opened
     */
    MessageLog open(String location, StoreOptions options);
}
