package dev.parley.core.store;

import dev.parley.core.InvalidInputException;
import dev.parley.core.log.MessageLog;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Opens a store from its URI. Fails fast: an unknown scheme or a malformed location is an
 * {@link InvalidInputException} naming the schemes that are available; nothing ever falls back silently.
 */
public final class Stores {
    private Stores() {}

    /** {@link #open(String, StoreOptions)} with {@link StoreOptions#defaults()}. */
    public static MessageLog open(String uri) {
        return open(uri, StoreOptions.defaults());
    }

    /**
     * Opens the store the URI names.
     *
     * @param uri {@code scheme:location}, e.g. {@code sqlite:/var/lib/app/parley.db} or {@code memory:}
     * @throws InvalidInputException if the URI has no scheme or no provider serves it
     * @throws dev.parley.core.UnavailableException if the store cannot be opened
     */
    public static MessageLog open(String uri, StoreOptions options) {
        int colon = uri.indexOf(':');
        if (colon <= 0) {
            throw new InvalidInputException("store URI '" + uri + "' has no scheme; expected one of "
                    + providers().keySet().stream().map(s -> s + ":…").toList());
        }
        String scheme = uri.substring(0, colon);
        StoreProvider provider = providers().get(scheme);
        if (provider == null) {
            throw new InvalidInputException("unknown store scheme '" + scheme + "' in '" + uri + "'; available: "
                    + providers().keySet());
        }
        return provider.open(uri.substring(colon + 1), options);
    }

    /**
     * The URI with its secrets masked, for messages, logs and prompts: every {@code password=} parameter value and the
     * password of a {@code //user:password@host} authority become {@code ***}.
     */
    public static String redact(String uri) {
        return uri.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("(//[^/@:?#]*:)[^/@?#]*@", "$1***@");
    }

    /** The default store's URI: {@code sqlite:$PARLEY_HOME/parley.db}. */
    public static String defaultUri() {
        return "sqlite:" + home().resolve("parley.db");
    }

    /**
     * Parley's home directory: {@code $PARLEY_HOME}, defaulting to {@code ~/.local/share/parley}
     * (the XDG data directory when {@code XDG_DATA_HOME} is set: {@code $XDG_DATA_HOME/parley}).
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

    /** Every provider on the class path, by scheme (the first found wins when two serve one scheme). */
    public static Map<String, StoreProvider> providers() {
        Map<String, StoreProvider> byScheme = new TreeMap<>();
        for (StoreProvider p : ServiceLoader.load(StoreProvider.class, Stores.class.getClassLoader())) {
            byScheme.putIfAbsent(p.scheme(), p);
        }
        // Built in, unless a module on the class path serves the scheme (parley-engine's memory: adds repositories).
        byScheme.putIfAbsent("memory", new MemoryMessageLog.Provider());
        byScheme.putIfAbsent("null", new NullMessageLog.Provider());
        return byScheme;
    }
}
