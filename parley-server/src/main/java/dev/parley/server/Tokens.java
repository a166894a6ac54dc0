package dev.parley.server;

import dev.parley.core.InvalidInputException;
import dev.parley.core.IoErrors;
import dev.parley.core.store.Scopes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The bearer tokens a server accepts, each bound to one scope: a request's scope is its token's, never one the
 * request names. Immutable and thread-safe.
 *
 * <p>Text form (a file, or the {@value #ENV} environment variable with entries separated by commas): one
 * {@code TOKEN=SCOPE} per line or separated by commas, in a file too; blank lines and lines starting with {@code #} are ignored. A token is 16 or more
 * characters without spaces, {@code =} or commas. The scope {@value #ANY_SCOPE} makes an administrative token that
 * may name any scope with the {@code Parley-Scope} header (the conformance kit needs one, as it works in scopes of its
 * own); give it only to trusted services.
 */
public final class Tokens {
    /** The environment variable that may hold tokens: {@code TOKEN=SCOPE,TOKEN=SCOPE}. */
    public static final String ENV = "PARLEY_SERVER_TOKENS";
    /** The scope of an administrative token, which may name any scope. */
    public static final String ANY_SCOPE = "*";
    /** The shortest token accepted, in characters. */
    public static final int MIN_LENGTH = 16;

    private final Map<String, String> scopes;
    /** Each token's {@link #browserCookieOf browser cookie}, and the token's scope. */
    private final Map<String, String> cookieScopes;

    private Tokens(Map<String, String> scopes) {
        this.scopes = Map.copyOf(scopes);
        Map<String, String> cookies = new LinkedHashMap<>();
        scopes.forEach((token, scope) -> cookies.put(browserCookieOf(token), scope));
        this.cookieScopes = Map.copyOf(cookies);
    }

    /**
     * No tokens: the server listens only on loopback and answers the programs of this machine, each in the scope its
     * {@code Parley-Scope} header names (or the store's), but no web page of another origin.
     *
     * @return the empty set of tokens
     */
    public static Tokens none() {
        return new Tokens(Map.of());
    }

    /**
     * Tokens from a map of token to scope.
     *
     * @param tokenToScope each token and the scope it is bound to ({@value #ANY_SCOPE} for an administrative token);
     *     may be empty, and is copied
     * @return the tokens
     * @throws InvalidInputException if a token is too short or has a space, {@code =} or comma, or a scope is invalid
     */
    public static Tokens of(Map<String, String> tokenToScope) {
        tokenToScope.forEach(Tokens::check);
        return new Tokens(tokenToScope);
    }

    /**
     * Parses the text form.
     *
     * @param text the text form: {@code TOKEN=SCOPE} entries, one per line or separated by commas
     * @param source what the text is, for messages
     * @return the tokens, at least one
     * @throws InvalidInputException naming the line if one is malformed, a token repeats, or there is none
     */
    public static Tokens parse(String text, String source) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            for (String part : lines.get(i).split(",")) {
                String line = part.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq < 0) {
                    throw new InvalidInputException(source + " line " + (i + 1) + ": expected TOKEN=SCOPE");
                }
                String token = line.substring(0, eq).strip();
                String scope = line.substring(eq + 1).strip();
                try {
                    check(token, scope);
                } catch (InvalidInputException e) {
                    throw new InvalidInputException(source + " line " + (i + 1) + ": " + e.getMessage(), e);
                }
                if (out.put(token, scope) != null) {
                    throw new InvalidInputException(source + " line " + (i + 1) + ": the token is given twice");
                }
            }
        }
        if (out.isEmpty()) {
            throw new InvalidInputException(source + " holds no token");
        }
        return new Tokens(out);
    }

    /**
     * Reads the text form from a file.
     *
     * @param file the file, in UTF-8
     * @return the tokens, at least one
     * @throws InvalidInputException if the file cannot be read or is malformed
     */
    public static Tokens read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new InvalidInputException("the tokens file " + file + " does not exist", e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new InvalidInputException("the tokens file " + file + " may not be read (permission denied)", e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read the tokens file " + file + ": " + IoErrors.describe(e), e);
        }
    }

    /**
     * The tokens of {@value #ENV}, or {@link #none()} when it is unset or blank.
     *
     * @param env the environment variables, such as {@link System#getenv()}
     * @return the tokens, empty when the variable is unset or blank
     * @throws InvalidInputException if it is malformed
     */
    public static Tokens fromEnvironment(Map<String, String> env) {
        String text = env.get(ENV);
        return text == null || text.isBlank() ? none() : parse(text, ENV);
    }

    /**
     * These tokens and {@code other}'s; a token in both keeps this one's scope.
     *
     * @param other the tokens to add
     * @return new tokens; this and {@code other} are unchanged
     */
    public Tokens and(Tokens other) {
        Map<String, String> out = new LinkedHashMap<>(other.scopes);
        out.putAll(scopes);
        return new Tokens(out);
    }

    /**
     * Whether there are no tokens.
     *
     * @return true when there are none
     */
    public boolean isEmpty() {
        return scopes.isEmpty();
    }

    /**
     * How many tokens there are.
     *
     * @return the number of tokens, 0 or more
     */
    public int size() {
        return scopes.size();
    }

    /**
     * The scope a presented token is bound to, compared in constant time per token; empty when it is not one of
     * these.
     *
     * @param token the presented token, or null when the request carries none
     * @return the token's scope ({@value #ANY_SCOPE} for an administrative token); empty when {@code token} is null
     *     or not one of these
     */
    public Optional<String> scopeOf(@Nullable String token) {
        return matching(scopes, token);
    }

    /**
     * The value the session browser keeps in its cookie for a token: HMAC-SHA256 of a fixed text keyed by the token,
     * in base64url. It is not the token: cookies are sent to every port of a host, so another service of the host
     * would receive whatever the cookie holds; this value opens the browser's pages of the token's scope (which only
     * read), not the JSON API, and the token cannot be found from it. The same on every server that has the token (a
     * cookie works across replicas and restarts) and dropped with it.
     *
     * @param token a token
     * @return its browser cookie value, 43 characters
     */
    public static String browserCookieOf(String token) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                    mac.doFinal("parley session browser cookie, version 1".getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256, which every Java runtime has, is missing", e);
        }
    }

    /**
     * The scope of a presented browser cookie ({@link #browserCookieOf}), compared in constant time per token; empty
     * when it is no token's.
     *
     * @param cookie the cookie's value, or null when the request carries none
     * @return the scope of the token whose cookie it is; empty when {@code cookie} is null or no token's
     */
    public Optional<String> scopeOfBrowserCookie(@Nullable String cookie) {
        return matching(cookieScopes, cookie);
    }

    private static Optional<String> matching(Map<String, String> values, @Nullable String presented) {
        if (presented == null) {
            return Optional.empty();
        }
        byte[] bytes = presented.getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (MessageDigest.isEqual(bytes, e.getKey().getBytes(StandardCharsets.UTF_8))) {
                found = e.getValue();
            }
        }
        return Optional.ofNullable(found);
    }

    private static void check(String token, String scope) {
        if (token.length() < MIN_LENGTH || token.chars().anyMatch(c -> Character.isWhitespace(c) || c == '='
                || c == ',')) {
            throw new InvalidInputException("a token must be at least " + MIN_LENGTH
                    + " characters without spaces, '=' or ','");
        }
        if (!scope.equals(ANY_SCOPE)) {
            Scopes.require(scope);
        }
    }

    @Override
    public String toString() {
        return "Tokens[" + scopes.size() + "]";
    }
}
