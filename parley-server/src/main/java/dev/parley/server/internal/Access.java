package dev.parley.server.internal;

import dev.parley.core.store.Scopes;
import dev.parley.json.wire.Problems;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs before every {@code /v1} handler: refuses a body over the limit (413), finds the caller's scope from the
 * bearer token (401 without a valid one when tokens are configured; 403 when the request names a scope its token is
 * not bound to) and leaves it on the request for {@link Api#store}.
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

    void check(Context ctx) {
        long length = ctx.req().getContentLengthLong();
        if (length > maxBodyBytes) {
            throw new HttpResponseException(413, "the request body is " + length + " bytes; the limit is "
                    + maxBodyBytes + " bytes", Map.of());
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

    /** The problem code of a status the server answers without a Parley error. */
    static String codeOf(int status) {
        return switch (status) {
            case 400 -> "BAD_REQUEST";
            case 401 -> "UNAUTHORIZED";
            case 403 -> "FORBIDDEN";
            case 404 -> "NO_SUCH_ROUTE";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 413 -> "PAYLOAD_TOO_LARGE";
            default -> status >= 500 ? "INTERNAL" : "HTTP_" + status;
        };
    }

    static String mediaType() {
        return Problems.MEDIA_TYPE;
    }
}
