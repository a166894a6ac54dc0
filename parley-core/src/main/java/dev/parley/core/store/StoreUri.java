package dev.parley.core.store;

import dev.parley.core.InvalidInputException;
import java.io.File;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A parsed store URI: {@code scheme:location}, where the location may end in a query whose {@code parley.*}
 * parameters are Parley's settings and every other parameter belongs to the backend (a JDBC driver's, for
 * {@code postgres:}). Parley's parameters are taken out of the location: {@link #location()} is what the backend
 * opens.
 *
 * <p>Parley's parameters are the same on every backend: {@code parley.scope} binds the store's scope (see
 * {@link Store}); a backend may accept more (listed by its provider's {@link StoreProvider#parameters()}). A
 * parameter that looks like Parley's but is not one a backend accepts ({@code parley_scope}, {@code Parley.Scope},
 * {@code parley.scop}) is an error, never passed on: a misspelt scope must not silently bind the default one.
 *
 * @param scheme the scheme, without the colon
 * @param location the scheme-specific part with Parley's parameters removed
 * @param parameters the query parameters taken as Parley's, by name as written, in URI order, decoded: every name
 *     that starts with {@code parley} in any case ({@code parley.scope}, and also {@code parley_scope} or
 *     {@code Parley.Scope}, which {@link #requireKnown} refuses)
 * @param text the URI as given, for messages (mask it with {@link Stores#redact} before showing it)
 */
public record StoreUri(String scheme, String location, Map<String, String> parameters, String text) {
    /** The parameter that binds a store's scope. */
    public static final String SCOPE = "parley.scope";

    /**
     * Copies {@code parameters}, keeping their order, into an unmodifiable map. Nothing is parsed or checked here:
     * not the scheme, not that the location is free of Parley's parameters, not the parameter names ({@link #parse}
     * splits the parameters out, {@link #requireKnown} checks their names).
     *
     * @param scheme the scheme, without the colon
     * @param location the scheme-specific part with Parley's parameters removed
     * @param parameters Parley's parameters, by name, copied
     * @param text the URI as given
     * @throws NullPointerException if {@code scheme}, {@code location}, {@code parameters} or {@code text} is null
     */
    public StoreUri {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(location, "location");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        Objects.requireNonNull(text, "text");
    }

    /**
     * For a bare path given as a store URI, {@code "; did you mean jsonl:PATH?"} (an existing directory) or
     * {@code "; did you mean sqlite:PATH?"} (anything else that looks like a path), with a leading {@code ~} written
     * as {@code $HOME} (nothing expands {@code ~} after a scheme); {@code "; did you mean sqlite:/x.db?"} for
     * {@code sqlite/x.db}, the colon left out, unless that names an existing path; otherwise empty.
     */
    private static String likelyUri(String uri) {
        if (uri.isBlank() || uri.contains("://") || uri.contains("?")) {
            return "";
        }
        boolean pathLike = uri.startsWith("/") || uri.startsWith(".") || uri.startsWith("~") || uri.contains("/")
                || uri.contains(File.separator) || uri.matches("(?i).*\\.(db|sqlite3?)");
        if (!pathLike) {
            return "";
        }
        Path path;
        try {
            path = Path.of(uri);
        } catch (InvalidPathException e) {
            return "";
        }
        if (!Files.exists(path)) {
            for (String scheme : Stores.providers().keySet()) {
                if (uri.startsWith(scheme + "/")) { // the colon left out: sqlite/var/lib/x.db
                    return "; did you mean " + scheme + ":" + uri.substring(scheme.length()) + "?";
                }
            }
        }
        boolean home = uri.equals("~") || uri.startsWith("~/");
        Path meant = home ? Path.of(System.getProperty("user.home"), uri.substring(1).replaceFirst("^/", "")) : path;
        return "; did you mean " + (Files.isDirectory(meant) ? "jsonl:" : "sqlite:")
                + (home ? "$HOME" + uri.substring(1) : uri) + "?";
    }

    /**
     * The location as a file system path, for a scheme whose location is one ({@code sqlite:}, {@code jsonl:}).
     *
     * @param what what the path names, for the message ("a file path", "a directory")
     * @param example a path to show in the message, e.g. {@code /var/lib/app/parley.db}
     * @return the path, as given (relative to the working directory unless absolute)
     * @throws InvalidInputException if the location is blank, is not a valid path, starts with {@code ~} (nothing
     *     expands it there: a shell expands {@code ~} only at the start of a word, so it would name a directory
     *     called {@code ~} under the working directory), or holds a {@code ?}: the start of parameters that are not
     *     Parley's, which a path-valued scheme does not take (they would become part of a file name)
     */
    public Path path(String what, String example) {
        if (location.isBlank()) {
            throw new InvalidInputException(scheme + ": needs " + what + ", e.g. " + scheme + ":" + example);
        }
        int q = location.indexOf('?');
        if (q >= 0) {
            // Names only: a value may be a secret (a key of an encrypted database's driver)
            List<String> names = new ArrayList<>();
            for (String pair : location.substring(q + 1).split("&", -1)) {
                names.add(pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair);
            }
            throw new InvalidInputException("'" + Stores.redact(text) + "': " + scheme + ": takes no parameter "
                    + names + " (only Parley's parameters, parley.…, may follow " + what
                    + "; a ? in a path is not supported)");
        }
        if (location.startsWith("~")) {
            throw new InvalidInputException("'" + scheme + ":" + location + "': a ~ after " + scheme
                    + ": is not expanded (neither the shell nor Parley expands it there); write the path out, e.g. "
                    + scheme + ":" + (location.equals("~") || location.startsWith("~/") ? "$HOME"
                    + location.substring(1) : example));
        }
        try {
            return Path.of(location);
        } catch (InvalidPathException e) {
            throw new InvalidInputException("'" + scheme + ":" + location + "' is not a valid path: " + e.getReason());
        }
    }

    /**
     * Parses a store URI.
     *
     * @param uri the URI text
     * @return the parsed URI; the scheme lowercased, the parameters decoded
     * @throws InvalidInputException if there is no scheme, or a Parley parameter repeats or is malformed
     * @throws NullPointerException if {@code uri} is null
     */
    public static StoreUri parse(String uri) {
        Objects.requireNonNull(uri, "uri");
        int colon = uri.indexOf(':');
        if (colon <= 0 || !uri.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
            throw new InvalidInputException("store URI '" + Stores.redact(uri) + "' has no scheme; expected one of "
                    + Stores.providers().keySet().stream().map(s -> s + ":…").toList() + likelyUri(uri));
        }
        String scheme = uri.substring(0, colon).toLowerCase(Locale.ROOT); // schemes are case-insensitive (RFC 3986)
        String rest = uri.substring(colon + 1);
        int q = rest.indexOf('?');
        if (q < 0) {
            return new StoreUri(scheme, rest, Map.of(), uri);
        }
        Map<String, String> parley = new LinkedHashMap<>();
        List<String> kept = new ArrayList<>();
        for (String pair : rest.substring(q + 1).split("&", -1)) {
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq), uri);
            if (!looksLikeParley(key)) {
                kept.add(pair);
                continue;
            }
            if (eq < 0) {
                throw new InvalidInputException("store URI parameter '" + key + "' has no value (write " + key
                        + "=VALUE) in '" + Stores.redact(uri) + "'");
            }
            if (parley.put(key, decode(pair.substring(eq + 1), uri)) != null) {
                throw new InvalidInputException("store URI parameter '" + key + "' is given twice in '"
                        + Stores.redact(uri) + "'");
            }
        }
        String location = rest.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
        return new StoreUri(scheme, location, parley, uri);
    }

    /**
     * Checks that every Parley parameter is one the backend accepts.
     *
     * @param accepted the parameter names the backend accepts (always including {@value #SCOPE})
     * @return this URI
     * @throws InvalidInputException naming the first unknown parameter and the accepted ones
     */
    public StoreUri requireKnown(Set<String> accepted) {
        for (String key : parameters.keySet()) {
            if (!key.equals(SCOPE) && !accepted.contains(key)) {
                List<String> known = new ArrayList<>(accepted);
                if (!known.contains(SCOPE)) {
                    known.add(0, SCOPE);
                }
                throw new InvalidInputException("unknown store URI parameter '" + key + "' for " + scheme
                        + ": (accepted: " + known + ")");
            }
        }
        return this;
    }

    /**
     * A Parley parameter's value, or null when the URI does not set it.
     *
     * @param name the parameter's name, with the {@code parley.} prefix
     * @return the decoded value, or null
     */
    public @Nullable String parameter(String name) {
        return parameters.get(name);
    }

    /**
     * The scope the URI binds with {@code parley.scope=}, checked; null when it binds none.
     *
     * @return the scope, or null
     * @throws InvalidInputException if the value is not a valid scope ({@link Scopes#require})
     */
    public @Nullable String scope() {
        String scope = parameters.get(SCOPE);
        return scope == null ? null : Scopes.require(scope);
    }

    private static boolean looksLikeParley(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.startsWith("parley");
    }

    private static String decode(String s, String uri) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("malformed escape in store URI '" + Stores.redact(uri) + "': "
                    + e.getMessage());
        }
    }
}
