package dev.parley.core.store;

import dev.parley.core.UnsupportedException;
import java.nio.file.Path;
import java.util.Set;

/**
 * Opens stores of one URI scheme. Backends register an implementation under
 * {@code META-INF/services/dev.parley.core.store.StoreProvider}; {@link Stores#open(String)} finds it by scheme.
 * Implementations are stateless and thread-safe.
 */
public interface StoreProvider {

    /**
     * The URI scheme this provider opens, without the colon ({@code sqlite}, {@code jsonl}…).
     *
     * @return the scheme, in lowercase: {@link Stores#open} looks a provider up by the URI's lowercased scheme
     */
    String scheme();

    /**
     * The Parley parameters ({@code parley.*}) this backend accepts in its URI besides {@value StoreUri#SCOPE},
     * which every backend accepts. {@link Stores#open} refuses any other.
     *
     * @return the parameter names, with the {@code parley.} prefix; empty by default
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
     * @return false if the storage is known to be absent; true if it exists or the store cannot tell
     * @throws dev.parley.core.InvalidInputException if the URI names no location where it needs one, as
     *     {@link #open} would say ({@code sqlite:} without a path)
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
     * @return the store, open and bound to {@code scope}
     * @throws dev.parley.core.InvalidInputException if the location is malformed
     * @throws dev.parley.core.UnavailableException if the store cannot be opened
     */
    Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options);

    /**
     * Takes a consistent copy of the whole storage the URI names (every scope) into {@code to}, while writers keep
     * working: the copy holds every write acknowledged before the backup began, and only whole batches and whole
     * records. See {@link Stores#backup}.
     *
     * @param uri the parsed URI of the store to copy
     * @param to where the copy goes; must not exist yet
     * @throws UnsupportedException if the backend has no backup through Parley (the default; the message names the
     *     backend's own tool)
     * @throws dev.parley.core.AlreadyExistsException if {@code to} exists
     * @throws dev.parley.core.NotFoundException if there is no store at the URI
     * @throws dev.parley.core.UnavailableException if reading the store or writing the copy failed; a partial copy is
     *     removed
     */
    default void backup(StoreUri uri, Path to) {
        throw new UnsupportedException(scheme() + ": stores have no backup through Parley");
    }

    /**
     * Puts a copy taken by {@link #backup} where the URI names, which must not hold a store yet; the restored store is
     * opened once to check it.
     *
     * @param from the copy, as {@link #backup} wrote it
     * @param uri the parsed URI of where to put it
     * @throws UnsupportedException if the backend has no restore through Parley (the default)
     * @throws dev.parley.core.AlreadyExistsException if a store is there already
     * @throws dev.parley.core.NotFoundException if {@code from} does not exist
     * @throws dev.parley.core.InvalidInputException if {@code from} is not a backup of this backend; nothing is left
     *     at the URI
     * @throws dev.parley.core.CorruptRecordException if the copy does not open as a store; nothing is left at the URI
     * @throws dev.parley.core.UnavailableException if the copy failed; nothing is left at the URI
     */
    default void restore(Path from, StoreUri uri) {
        throw new UnsupportedException(scheme() + ": stores have no restore through Parley");
    }
}
