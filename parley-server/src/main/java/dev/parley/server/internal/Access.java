package dev.parley.server.internal;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.Scopes;
import dev.parley.json.wire.Problems;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Runs before every {@code /v1} handler: finds the caller's scope from the bearer token (401 without a valid one when
 * tokens are configured; 403 when the request names a scope its token is not bound to), refuses a body over the limit
 * (413), not of JSON or encoded (415), and leaves the scope on the request for {@link Api#store}. Without tokens (a server on
 * loopback), {@link #checkLoopback} runs before every route: only requests addressed to this server by a loopback name
 * and not sent by a page of another origin are answered.
 */
public final class Access {
    /** The header a request may name its scope with (honoured without tokens, or for an administrative token). */
    public static final String SCOPE_HEADER = "Parley-Scope";

    private final Function<String, Optional<String>> tokens;
    private final boolean open;
    private final String anyScope;
    private final long maxBodyBytes;
    private final String bind;

    /**
     * @param tokens the scope of a presented token, empty when the token is unknown
     * @param open whether no tokens are configured (then only loopback requests from no other origin are answered,
     *     each in the scope it names)
     * @param anyScope the scope value of an administrative token
     * @param maxBodyBytes the body limit, in bytes
     * @param bind the name or address the server listens on as configured, which a request may be addressed to
     */
    public Access(Function<String, Optional<String>> tokens, boolean open, String anyScope, long maxBodyBytes,
                  String bind) {
        this.tokens = tokens;
        this.open = open;
        this.anyScope = anyScope;
        this.maxBodyBytes = maxBodyBytes;
        this.bind = withoutRootDot(bind.toLowerCase(Locale.ROOT));
    }

    /**
     * Without tokens, any program of this machine may call the server, but a web page must not: a page of another
     * site can send "simple" requests to loopback (a form's POST, which needs no permission from the server), and a
     * name of its own that it resolves to 127.0.0.1 (DNS rebinding) makes the answers readable to it. So a request
     * is refused (403) when its {@code Host} is neither a loopback name ({@code localhost}, a name under it, with or
     * without the root's dot), a loopback address literal (127.0.0.0/8; {@code ::1} in any spelling, or
     * {@code ::ffff:127.x.y.z}) nor the name the server was told to listen on (trusted as the operator's own: name
     * one whose address only you control, such as an {@code /etc/hosts} entry), or when it carries an
     * {@code Origin} other than the {@code Host} it is addressed to (a page of this server, the session browser's).
     * Nothing is resolved through DNS. With tokens, a page cannot attach the bearer token, and nothing is checked here.
     */
    void checkLoopback(Context ctx) {
        if (!open) {
            return;
        }
        String host = ctx.header("Host");
        if (host == null || !isLoopbackName(hostOf(host))) {
            throw new HttpResponseException(403, "the request is addressed to '" + host + "', not to a loopback"
                    + " name: a server without tokens answers only requests to localhost, a loopback address or the"
                    + " name it listens on (a guard against DNS rebinding); configure tokens to serve other names",
                    Map.of());
        }
        String origin = ctx.header("Origin");
        if (origin != null && !isOrigin(origin, host)) {
            throw new HttpResponseException(403, "the request comes from a page of " + origin + ": a server without"
                    + " tokens answers only programs of this machine and the pages it serves itself (a guard against"
                    + " cross-site requests)", Map.of());
        }
    }

    /** The host of a {@code Host} header: without its port, an IPv6 address without its brackets. */
    private static String hostOf(String authority) {
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            return end < 0 ? authority : authority.substring(1, end);
        }
        int colon = authority.indexOf(':');
        return colon < 0 ? authority : authority.substring(0, colon);
    }

    /**
     * A loopback name or address as written, never resolved through DNS: localhost or a name under it (with or
     * without the root's dot), the configured bind name, or an IPv4 or IPv6 literal of a loopback address.
     */
    private boolean isLoopbackName(String host) {
        String h = withoutRootDot(host.toLowerCase(Locale.ROOT));
        return !h.isEmpty() && (h.equals("localhost") || h.endsWith(".localhost") || h.equals(bind)
                || isLoopbackLiteral(h));
    }

    private static String withoutRootDot(String name) {
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    /**
     * Whether {@code host} is an address literal of loopback: four decimal parts of 0 to 255 starting with 127, or an
     * IPv6 literal, which {@link InetAddress#getByName} parses in brackets and, since it is in brackets, never looks up.
     */
    private static boolean isLoopbackLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            try {
                return InetAddress.getByName("[" + host + "]").isLoopbackAddress();
            } catch (UnknownHostException e) {
                return false; // not an IPv6 literal
            }
        }
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals("127")) {
            return false;
        }
        for (String part : parts) {
            if (!part.matches("\\d{1,3}") || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code origin} names the same host and port as the {@code Host} the request is addressed to: a page
     * this server served (a port forwarded elsewhere still matches, since the browser sends both as it sees them).
     * Both are read the same way ({@link #hostOf}, {@link #portOf}), so the two cannot name different hosts.
     */
    private static boolean isOrigin(String origin, String host) {
        URI uri;
        try {
            uri = new URI(origin);
        } catch (URISyntaxException e) {
            return false; // "null" (a sandboxed page, a file) and anything unreadable
        }
        String scheme = uri.getScheme();
        String originHost = uri.getHost();
        if (originHost == null || uri.getRawUserInfo() != null
                || !("http".equals(scheme) || "https".equals(scheme))) {
            return false;
        }
        int defaultPort = "https".equals(scheme) ? 443 : 80;
        int originPort = uri.getPort() >= 0 ? uri.getPort() : defaultPort;
        return originPort == portOf(host, defaultPort)
                && normalized(originHost.startsWith("[") ? originHost.substring(1, originHost.length() - 1)
                        : originHost).equals(normalized(hostOf(host)));
    }

    /**
     * Whether a browser sent the request from a page of another site (a login or a token handed over in a link that
     * another site's page sends would put the reader's browser in a scope of that site's choosing: login CSRF).
     * A browser that sends {@code Sec-Fetch-Site} is judged by it alone: another site unless it is
     * {@code same-origin} (a page of this server) or {@code none} (the address bar, a bookmark, a link opened from
     * another program). It is the browser's own verdict, so a reverse proxy that rewrites {@code Host} does not
     * change it. A browser that does not send it is judged by its {@code Origin}, against the {@code X-Forwarded-Host}
     * a proxy sets, else the {@code Host}; a page cannot add either header to a form it submits. A request with
     * neither {@code Sec-Fetch-Site} nor {@code Origin} (a program, an old browser) is not from another site.
     */
    public static boolean fromAnotherSite(Context ctx) {
        String site = ctx.header("Sec-Fetch-Site");
        if (site != null) {
            return !site.equals("same-origin") && !site.equals("none");
        }
        String origin = ctx.header("Origin");
        if (origin == null) {
            return false;
        }
        String forwarded = ctx.header("X-Forwarded-Host");
        String host = forwarded != null ? forwarded.split(",", 2)[0].strip() : ctx.header("Host");
        return host == null || !isOrigin(origin, host);
    }

    /** The port of a {@code Host} header, or {@code otherwise} when it names none; -1 when it is not a number. */
    private static int portOf(String authority, int otherwise) {
        int close = authority.lastIndexOf(']');
        int colon = authority.indexOf(':', close < 0 ? 0 : close);
        if (colon < 0) {
            return otherwise;
        }
        String port = authority.substring(colon + 1);
        return port.matches("[0-9]{1,5}") ? Integer.parseInt(port) : -1;
    }

    private static String normalized(String host) {
        return withoutRootDot(host.toLowerCase(Locale.ROOT));
    }

    void check(Context ctx) {
        String scope = scopeOf(ctx);
        long length = ctx.req().getContentLengthLong();
        if (length > maxBodyBytes) {
            throw new HttpResponseException(413, "the request body is " + length + " bytes; the limit is "
                    + maxBodyBytes + " bytes", Map.of());
        }
        String type = ctx.header("Content-Type");
        if ((length > 0 || ctx.header("Transfer-Encoding") != null) && !isJson(type)) {
            throw new HttpResponseException(415, "the request body must be JSON (Content-Type: application/json or"
                    + " another application/*+json type), not "
                    + (type == null ? "without a Content-Type" : type), Map.of());
        }
        String coding = ctx.header("Content-Encoding");
        if (coding != null && !coding.strip().equalsIgnoreCase("identity")) {
            // A compressed body would be read as JSON text and refused as not JSON; an uncompressed one under a
            // coding label would be read as if the label were not there.
            throw new HttpResponseException(415, "the request body must not be encoded (Content-Encoding: "
                    + coding + "); send it uncompressed", Map.of());
        }
        if (scope != null) {
            ctx.attribute(Api.SCOPE_ATTRIBUTE, scope);
        }
    }

    /** The caller's scope: its token's, or the one it names where it may; null for the store's own. */
    private @Nullable String scopeOf(Context ctx) {
        List<String> given = Collections.list(ctx.req().getHeaders(SCOPE_HEADER));
        String named = given.isEmpty() ? null : given.get(0);
        if (open) {
            requireOneScope(given);
            return named == null ? null : Scopes.require(named);
        }
        String auth = ctx.header("Authorization");
        String token = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).strip() : null;
        String bound = tokens.apply(token).orElse(null);
        if (bound == null) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"parley\"");
            throw new HttpResponseException(401, token == null ? "a bearer token is required"
                    : "the bearer token is not valid", Map.of());
        }
        requireOneScope(given); // after the token: a caller without one learns nothing but that it needs one
        if (bound.equals(anyScope)) {
            return named == null ? null : Scopes.require(named);
        }
        if (named != null && !named.equals(bound)) {
            throw new HttpResponseException(403, "the token is bound to another scope than '" + named + "' (the"
                    + " Parley-Scope header, which the conformance kit sends, needs a token of the scope '*')",
                    Map.of());
        }
        return bound;
    }

    /** A request names at most one scope: a second header would be ignored by whoever reads the first. */
    private static void requireOneScope(List<String> given) {
        if (given.size() > 1) {
            throw new InvalidInputException("the " + SCOPE_HEADER + " header is given " + given.size()
                    + " times; a request names at most one scope");
        }
    }

    /** application/json, or a JSON type ({@code +json}), with or without parameters. */
    private static boolean isJson(@Nullable String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String media = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip()
                .toLowerCase(Locale.ROOT);
        return media.equals("application/json") || (media.startsWith("application/") && media.endsWith("+json"));
    }

    /** The problem code of a status the server answers without a Parley error. */
    static String codeOf(int status) {
        return switch (status) {
            case 400 -> "BAD_REQUEST";
            case 401 -> "UNAUTHORIZED";
            case 403 -> "FORBIDDEN";
            case 404 -> Problems.NO_SUCH_ROUTE;
            case 405 -> "METHOD_NOT_ALLOWED";
            case 406 -> "NOT_ACCEPTABLE";
            case 413 -> "PAYLOAD_TOO_LARGE";
            case 414 -> "URI_TOO_LONG";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            case 431 -> "HEADERS_TOO_LARGE";
            default -> status >= 500 ? "INTERNAL" : "HTTP_" + status;
        };
    }

    static String mediaType() {
        return Problems.MEDIA_TYPE;
    }
}
