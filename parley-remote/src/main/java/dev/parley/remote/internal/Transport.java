package dev.parley.remote.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.parley.core.ErrorCode;
import dev.parley.core.InvalidInputException;
import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import dev.parley.json.wire.Problems;
import dev.parley.json.wire.Wire;
import dev.parley.remote.RemoteSettings;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.jspecify.annotations.Nullable;

/**
 * Calls the server: one JDK {@link HttpClient}, a timeout on every call, and a resilience4j circuit breaker that
 * counts outages (never answers) and, once open, fails calls at once with an {@link Outage} instead of waiting.
 * Thread-safe.
 */
public final class Transport {
    /** The header a request names its scope with. */
    public static final String SCOPE_HEADER = "Parley-Scope";

    private final RemoteSettings settings;
    private final HttpClient client;
    private final CircuitBreaker breaker;
    private volatile boolean closed;

    public Transport(RemoteSettings settings) {
        this.settings = settings;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(settings.timeout()).build();
        int window = settings.breakerWindowCalls();
        this.breaker = CircuitBreaker.of("parley-remote " + settings.server(), CircuitBreakerConfig.custom()
                .failureRateThreshold(settings.breakerFailureRatePercent())
                .slidingWindowSize(window)
                .minimumNumberOfCalls(Math.min(window, Math.max(1, window / 2)))
                .waitDurationInOpenState(settings.breakerOpen())
                .permittedNumberOfCallsInHalfOpenState(1)
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .recordException(t -> t instanceof Outage)
                .build());
    }

    /** The breaker's state: CLOSED, OPEN, HALF_OPEN… */
    public String breakerState() {
        return breaker.getState().name();
    }

    /** Lets the next call through an open breaker (an explicit sync is a deliberate probe of the server). */
    public void probe() {
        if (breaker.getState() == CircuitBreaker.State.OPEN) {
            breaker.transitionToHalfOpenState();
        }
    }

    HttpClient client() {
        return client;
    }

    /** Refuses every request from now on: the store is closed. */
    public void close() {
        closed = true;
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** @throws StoreClosed if the store is closed */
    void requireOpen() {
        if (closed) {
            throw new StoreClosed("the remote store " + settings.server() + " is closed");
        }
    }

    RemoteSettings settings() {
        return settings;
    }

    /** A request builder for a target, with the token and the scope. */
    HttpRequest.Builder builder(String target, @Nullable String scope) {
        requireOpen();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(settings.server() + target))
                .timeout(settings.timeout());
        if (settings.token() != null) {
            b.header("Authorization", "Bearer " + settings.token());
        }
        if (scope != null) {
            b.header(SCOPE_HEADER, scope);
        }
        return b;
    }

    /**
     * Sends a request.
     *
     * @param scope the scope to name, or null for the token's (or the server's default)
     * @return the answer's JSON, {@link NullNode} for an answer without a body
     * @throws Outage if the server did not answer (see {@link Outage}); the breaker counts it
     * @throws Misconfigured if the server refused the caller's credentials (HTTP 401 or 403), or TLS failed in a way no
     *     retry mends ({@link #tlsMisconfiguration}); not counted by the breaker
     * @throws ParleyException the error the server answered with, of the type it raised
     * @throws UnavailableException if what answered is not a Parley server: an error without a problem document, or a
     *     success whose body is not JSON
     * @throws StoreClosed if the store is closed ({@link #close()}); nothing was sent
     */
    public JsonNode send(Request request, @Nullable String scope) {
        requireOpen();
        if (!breaker.tryAcquirePermission()) {
            throw new Outage("the circuit breaker is open (the server failed recently; it is tried again after "
                    + settings.breakerOpen().toMillis() + " ms)");
        }
        long start = System.nanoTime();
        HttpResponse<String> response;
        try {
            HttpRequest.BodyPublisher body = request.body() == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(Wire.write(request.body()), StandardCharsets.UTF_8);
            HttpRequest.Builder b = builder(request.target(), scope).method(request.method(), body);
            if (request.body() != null) {
                b.header("Content-Type", "application/json");
            }
            response = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            Misconfigured misconfigured = misconfigured(request.toString(), e);
            if (misconfigured != null) {
                breaker.releasePermission();
                throw misconfigured;
            }
            Outage outage = new Outage(request + " to " + settings.server() + " failed: " + describe(e), e);
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, outage);
            throw outage;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            breaker.releasePermission();
            throw new Outage(request + " was interrupted", e);
        }
        int status = response.statusCode();
        JsonNode json = parse(response.body());
        Optional<ErrorCode> code = json == null ? Optional.empty() : Problems.errorCode(json);
        if (status >= 500 && (code.isEmpty() || code.get() == ErrorCode.UNAVAILABLE)) {
            Outage outage = new Outage(request + " to " + settings.server() + " answered HTTP " + status
                    + (json == null ? "" : ": " + json.path("detail").asText("")));
            breaker.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, outage);
            throw outage;
        }
        breaker.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        if (status == 401 || status == 403) {
            throw new Misconfigured(request + " was refused with HTTP " + status
                    + (json == null ? "" : ": " + json.path("detail").asText("")) + credentialsHint(status), null);
        }
        if (status >= 400) {
            if (json != null && code.isPresent()) {
                throw Problems.toException(json, request.toString());
            }
            if (json == null || !json.has("detail")) {
                // Not a problem document: something other than a Parley server answered (a wrong URL, a proxy).
                throw notParley(request, "HTTP " + status + " without a problem document", null);
            }
            if (status == 404 && Problems.NO_SUCH_ROUTE.equals(json.path("code").asText())) {
                throw new NoSuchRoute(request + " is not routed by " + settings.server() + " (a server of an earlier"
                        + " Parley?): " + json.path("detail").asText(""));
            }
            throw new InvalidInputException(request + " was refused with HTTP " + status + ": "
                    + json.path("detail").asText(""));
        }
        if (response.body().isEmpty()) {
            return NullNode.getInstance();
        }
        if (json == null) {
            throw notParley(request, "HTTP " + status + " with something that is not JSON", null);
        }
        return json;
    }

    /**
     * The error for an answer that is not a Parley server's (a wrong URL, a proxy's page, another version's answer):
     * unavailable, naming the request, how it was answered, and the address to check.
     */
    UnavailableException notParley(Request request, String answered, @Nullable Throwable cause) {
        return new UnavailableException(request + " to " + settings.server() + " answered " + answered + ": is "
                + settings.server() + " a Parley server (parley serve)?", cause);
    }

    private static @Nullable JsonNode parse(String body) {
        if (body == null || body.isEmpty()) {
            return null;
        }
        try {
            return Wire.parse(body, "the answer");
        } catch (ParleyException e) {
            return null;
        }
    }

    /**
     * The error for a failure of {@code what} (a request, a stream) that is this client's configuration, not an
     * outage: a TLS failure of {@link #tlsMisconfiguration}; null for any other failure.
     */
    @Nullable Misconfigured misconfigured(String what, IOException e) {
        String check = e instanceof SSLException tls ? tlsMisconfiguration(tls) : null;
        return check == null ? null : new Misconfigured(what + " to " + settings.server() + " failed in TLS: "
                + describe(e) + "; " + check + ". A store does not fall back on this: it is its configuration, not an"
                + " outage", e);
    }

    /** The TLS alerts a server sends when it refuses this client as configured: any retry would meet them again. */
    private static final Set<String> REFUSING_ALERTS = Set.of("bad_certificate", "unsupported_certificate",
            "certificate_revoked", "certificate_expired", "certificate_unknown", "unknown_ca", "access_denied",
            "handshake_failure", "protocol_version", "insufficient_security", "certificate_required",
            "no_application_protocol");

    /**
     * What to check when a TLS failure is the configuration's, which a retry would meet again; null when it is not
     * (a handshake that broke off, "Remote host terminated the handshake": a server that died during it, an outage
     * like any broken connection). The configuration's, from the JDK's exceptions:
     * <ul>
     *   <li>what answered does not speak TLS ("unrecognized SSL message": a plain HTTP server that answers the
     *       handshake with an HTTP error, as {@code parley serve} does; one that waits instead is a timeout);</li>
     *   <li>this JVM does not accept the server's certificate (a {@link CertificateException} among the causes:
     *       untrusted, expired, issued for another host);</li>
     *   <li>the server refused the handshake with a fatal alert of {@link #REFUSING_ALERTS} (it requires a client
     *       certificate, or a TLS version or cipher this client does not offer), or the two have no protocol in
     *       common.</li>
     * </ul>
     */
    static @Nullable String tlsMisconfiguration(SSLException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateException) {
                return "this JVM does not accept the server's certificate (untrusted, expired, or issued for another"
                        + " host): give the JVM a trust store that holds its issuer (javax.net.ssl.trustStore)";
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof SSLException && m.contains("unrecognized ssl message")) {
                return "what answers at this address does not speak TLS (parley serve speaks plain HTTP): use http:";
            }
            if (t instanceof SSLException && (m.startsWith("received fatal alert: ")
                    && REFUSING_ALERTS.contains(m.substring("received fatal alert: ".length()).strip())
                    || m.contains("no appropriate protocol"))) {
                return "the server refused the TLS handshake (it may require a client certificate, or a TLS version"
                        + " or cipher this JVM does not offer)";
            }
        }
        return null;
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : " " + m);
    }

    /** How to give the server what it asked for: where a token comes from, when this client sent none. */
    private String credentialsHint(int status) {
        if (settings.token() == null) {
            return "; this client sent no token: give one with parley.token=TOKEN in the store URI or in the"
                    + " environment variable " + RemoteSettings.TOKEN_ENV;
        }
        return status == 401 ? "; the server does not know the token this client sent (parley.token or "
                + RemoteSettings.TOKEN_ENV + ")" : "";
    }
}
