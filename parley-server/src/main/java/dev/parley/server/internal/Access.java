package dev.parley.server.internal;

import dev.parley.core.store.Scopes;
import dev.parley.json.wire.Problems;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs before every {@code /v1} handler: refuses a body over the limit (413) or not of JSON (415), finds the caller's
 * scope from the bearer token (401 without a valid one when tokens are configured; 403 when the request names a scope
 * its token is not bound to) and leaves it on the request for {@link Api#store}. Without tokens (a server on loopback),
 * {@link #checkLoopback} runs before every route: only requests addressed to loopback and not sent by another site's
 * page are answered.
 */
public final class Access {
    /** The header a request may name its scope with (honoured without tokens, or for an administrative token). */
    public static final String SCOPE_HEADER = "Parley-Scope";

    private final Function<String, Optional<String>> tokens;
    private final boolean open;
    private final String anyScope;
    private final long maxBodyBytes;

    /**
     * @param tokens the scope of a presented token, empty when the token is unknown
     * @param open whether no tokens are configured (every request is accepted)
     * @param anyScope the scope value of an administrative token
     * @param maxBodyBytes the body limit, in bytes
     */
    public Access(Function<String, Optional<String>> tokens, boolean open, String anyScope, long maxBodyBytes) {
        this.tokens = tokens;
        this.open = open;
        this.anyScope = anyScope;
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * Without tokens, any program of this machine may call the server, but a web page must not: a page of another
     * site can send "simple" requests to loopback (a form's POST, which needs no permission from the server), and a
     * name of its own that it resolves to 127.0.0.1 (DNS rebinding) makes the answers readable to it. So a request
     * whose {@code Host} is not a loopback name or address, or whose {@code Origin} is another site's, is refused
     * (403). With tokens, a page cannot attach the bearer token, and nothing is checked here.
     */
    void checkLoopback(Context ctx) {
        if (!open) {
            return;
        }
        String host = ctx.header("Host");
        if (host == null || !isLoopbackName(hostOf(host))) {
            throw new HttpResponseException(403, "the request is addressed to '" + host + "', not to a loopback"
                    + " address: a server without tokens answers only requests to 127.0.0.1, [::1] or localhost (a"
                    + " guard against DNS rebinding); configure tokens to serve other names", Map.of());
        }
        String origin = ctx.header("Origin");
        if (origin != null && !isLoopbackOrigin(origin)) {
            throw new HttpResponseException(403, "the request comes from a page of " + origin + ": a server without"
                    + " tokens answers only programs of this machine and its own pages (a guard against cross-site"
                    + " requests)", Map.of());
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

    /** A loopback name or address as written, never resolved: localhost, a name under it, 127.x.y.z or ::1. */
    private static boolean isLoopbackName(String host) {
        String h = host.toLowerCase(java.util.Locale.ROOT);
        return h.equals("localhost") || h.endsWith(".localhost") || h.equals("::1")
                || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static boolean isLoopbackOrigin(String origin) {
        try {
            java.net.URI uri = new java.net.URI(origin);
            String host = uri.getHost();
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && host != null
                    && isLoopbackName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (java.net.URISyntaxException e) {
            return false; // "null" (a sandboxed page, a file) and anything unreadable
        }
    }

    void check(Context ctx) {
        long length = ctx.req().getContentLengthLong();
        if (length > maxBodyBytes) {
            throw new HttpResponseException(413, "the request body is " + length + " bytes; the limit is "
                    + maxBodyBytes + " bytes", Map.of());
        }
        String type = ctx.header("Content-Type");
        if ((length > 0 || ctx.header("Transfer-Encoding") != null) && !isJson(type)) {
            throw new HttpResponseException(415, "the request body must be JSON (Content-Type: application/json),"
                    + " not " + (type == null ? "without a Content-Type" : type), Map.of());
        }
        String named = ctx.header(SCOPE_HEADER);
        if (named != null) {
            Scopes.require(named);
        }
        String scope;
        if (open) {
            scope = named;
        } else {
            String auth = ctx.header("Authorization");
            String token = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).strip() : null;
            String bound = tokens.apply(token).orElse(null);
            if (bound == null) {
                ctx.header("WWW-Authenticate", "Bearer realm=\"parley\"");
                throw new HttpResponseException(401, token == null ? "a bearer token is required"
                        : "the bearer token is not valid", Map.of());
            }
            if (bound.equals(anyScope)) {
                scope = named;
            } else if (named != null && !named.equals(bound)) {
                throw new HttpResponseException(403, "the token is bound to another scope than '" + named + "' (the"
                        + " Parley-Scope header, which the conformance kit sends, needs a token of the scope '*')",
                        Map.of());
            } else {
                scope = bound;
            }
        }
        if (scope != null) {
            ctx.attribute(Api.SCOPE_ATTRIBUTE, scope);
        }
    }

    /** application/json, or a JSON type ({@code +json}), with or without parameters. */
    private static boolean isJson(@org.jspecify.annotations.Nullable String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String media = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip()
                .toLowerCase(java.util.Locale.ROOT);
        return media.equals("application/json") || (media.startsWith("application/") && media.endsWith("+json"));
    }

    /** The problem code of a status the server answers without a Parley error. */
    static String codeOf(int status) {
        return switch (status) {
            case 400 -> "BAD_REQUEST";
            case 401 -> "UNAUTHORIZED";
            case 403 -> "FORBIDDEN";
            case 404 -> "NO_SUCH_ROUTE";
            case 405 -> "METHOD_NOT_ALLOWED";
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
