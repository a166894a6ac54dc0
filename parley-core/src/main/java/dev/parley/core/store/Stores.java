package dev.parley.core.store;

import dev.parley.core.InvalidInputException;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Opens a {@link Store} from its URI. Fails fast: an unknown scheme or a malformed location is an
 * {@link InvalidInputException} naming the schemes that are available; nothing ever falls back silently.
 */
public final class Stores {
    private Stores() {}

    /**
     * {@link #open(String, StoreOptions)} with {@link StoreOptions#defaults()}.
     *
     * @param uri the store URI (see {@link #open(String, StoreOptions)})
     * @return the store, open; close it when done
     * @throws InvalidInputException as {@link #open(String, StoreOptions)}
     * @throws dev.parley.core.UnavailableException if the store cannot be opened
     */
    public static Store open(String uri) {
        return open(uri, StoreOptions.defaults());
    }

    /**
     * Opens the store the URI names.
     *
     * @param uri {@code scheme:location[?parley.scope=S]}, e.g. {@code sqlite:/var/lib/app/parley.db} or
     *     {@code memory:} (see {@link StoreUri})
     * @param options the clock, id generator and scope
     * @return the store, open and bound to the URI's scope, else the options' scope, else {@value Store#DEFAULT_SCOPE};
     *     close it when done
     * @throws InvalidInputException if the URI has no scheme, no module on the class path serves it (the message
     *     names the module to add), a Parley parameter is unknown, or the URI and the options bind different scopes
     * @throws dev.parley.core.UnavailableException if the store cannot be opened
     */
    public static Store open(String uri, StoreOptions options) {
        StoreUri parsed = StoreUri.parse(uri);
        StoreProvider provider = provider(parsed);
        String pinned = parsed.scope();
        if (pinned != null && options.scope() != null && !pinned.equals(options.scope())) {
            throw new InvalidInputException("the store URI binds scope '" + pinned + "' but the options name '"
                    + options.scope() + "'");
        }
        String scope = pinned != null ? pinned : options.scope() != null ? options.scope() : Store.DEFAULT_SCOPE;
        return provider.open(parsed, scope, pinned != null, options);
    }

    /**
     * Whether the storage a URI names exists already, without creating anything (see {@link StoreProvider#exists}).
     *
     * @param uri the store URI
     * @return false if the storage is known to be absent; true if it exists or the backend cannot tell
     * @throws InvalidInputException as {@link #open(String, StoreOptions)} does for the URI itself
     */
    public static boolean exists(String uri) {
        StoreUri parsed = StoreUri.parse(uri);
        return provider(parsed).exists(parsed);
    }

    /**
     * Takes a consistent copy of the store at {@code uri} — every scope — into {@code to}, while its writers keep
     * working ({@link StoreProvider#backup}): {@code sqlite:} through SQLite's online backup, {@code jsonl:} file by
     * file under the files' writer locks. PostgreSQL has its own tools ({@code pg_dump}) and is refused with that hint.
     *
     * @param uri the store URI
     * @param to where the copy goes; must not exist yet
     * @throws dev.parley.core.UnsupportedException if the backend has no backup through Parley
     * @throws dev.parley.core.AlreadyExistsException if {@code to} exists
     * @throws dev.parley.core.NotFoundException if there is no store at {@code uri}
     * @throws dev.parley.core.UnavailableException if the copy failed; nothing is left at {@code to}
     */
    public static void backup(String uri, Path to) {
        StoreUri parsed = StoreUri.parse(uri);
        provider(parsed).backup(parsed, to);
    }

    /**
     * Puts a copy taken by {@link #backup} where {@code uri} names, which must hold no store yet.
     *
     * @param from the copy, as {@link #backup} wrote it
     * @param uri the store URI of where to put it
     * @throws dev.parley.core.UnsupportedException if the backend has no restore through Parley
     * @throws dev.parley.core.AlreadyExistsException if a store is there already
     * @throws dev.parley.core.NotFoundException if {@code from} does not exist
     * @throws dev.parley.core.InvalidInputException if {@code from} is not a backup of this backend (a file for a
     *     directory, a file that is not a database); nothing is left at {@code uri}
     * @throws dev.parley.core.CorruptRecordException if the copy does not open as a store; nothing is left at
     *     {@code uri}
     * @throws dev.parley.core.UnavailableException if the copy failed; nothing is left at {@code uri}
     */
    public static void restore(Path from, String uri) {
        StoreUri parsed = StoreUri.parse(uri);
        provider(parsed).restore(from, parsed);
    }

    private static StoreProvider provider(StoreUri parsed) {
        Map<String, StoreProvider> providers = providers();
        StoreProvider provider = providers.get(parsed.scheme());
        if (provider == null) {
            String module = MODULES.get(parsed.scheme());
            throw new InvalidInputException("unknown store scheme '" + parsed.scheme() + "' in '"
                    + redact(parsed.text()) + "'" + (module == null ? ""
                    : ": add " + module + " to the class path for " + parsed.scheme() + ":")
                    + "; available: " + providers.keySet());
        }
        parsed.requireKnown(provider.parameters());
        return provider;
    }

    /** The module that serves each scheme Parley ships, for the message when it is missing from the class path. */
    private static final Map<String, String> MODULES = Map.of(
            "sqlite", "dev.parley:parley-sqlite",
            "jsonl", "dev.parley:parley-files",
            "postgres", "dev.parley:parley-postgres",
            "remote", "dev.parley:parley-remote");

    /**
     * The URI with its secrets masked, for messages, logs and prompts: the value of every query parameter whose name
     * ends in {@code password}, {@code token} (a remote store's {@code parley.token}) or {@code key} ({@code api-key},
     * {@code apikey}) and the password of a {@code //user:password@host} authority become {@code ***}. Also applies to
     * a text that holds such a URI among other words.
     *
     * @param uri the URI, or any text that holds one
     * @return the text with the secrets replaced by {@code ***}; unchanged when it holds none
     */
    public static String redact(String uri) {
        return uri.replaceAll("(?i)([?&;][^=&;?\\s]*(?:password|token|key)=)[^&;\\s]*", "$1***")
                .replaceAll("(//[^/@:?#\\s]*:)[^/@?#\\s]*@", "$1***@");
    }

    /**
     * The default store's URI: {@code sqlite:$PARLEY_HOME/parley.db}.
     *
     * @return the URI, {@code sqlite:} and the path of {@code parley.db} in {@link #home()}
     */
    public static String defaultUri() {
        return "sqlite:" + home().resolve("parley.db");
    }

    /**
     * Parley's home directory: {@code $PARLEY_HOME}, defaulting to {@code ~/.local/share/parley}
     * (the XDG data directory when {@code XDG_DATA_HOME} is set: {@code $XDG_DATA_HOME/parley}).
     *
     * @return the directory; it is not created here
     */
    public static Path home() {
        String home = System.getenv("PARLEY_HOME");
        if (home != null && !home.isBlank()) {
            return Path.of(home);
        }
        String xdg = System.getenv("XDG_DATA_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "parley");
        }
        return Path.of(System.getProperty("user.home"), ".local", "share", "parley");
    }

    /**
     * Every provider on the class path, by scheme (the first found wins when two serve one scheme).
     *
     * @return the providers by scheme, in scheme order, {@code memory} and {@code null} included; a new map at each
     *     call
     */
    public static Map<String, StoreProvider> providers() {
        Map<String, StoreProvider> byScheme = new TreeMap<>();
        for (StoreProvider p : ServiceLoader.load(StoreProvider.class, Stores.class.getClassLoader())) {
            byScheme.putIfAbsent(p.scheme(), p);
        }
        byScheme.putIfAbsent("memory", new MemoryStore.Provider());
        byScheme.putIfAbsent("null", new NullStore.Provider());
        return byScheme;
    }
}
