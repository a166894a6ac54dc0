package dev.parley.remote;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.StoreUri;
import dev.parley.core.store.Stores;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The resilience settings of a {@code remote:} store, all in its URI, each with a default and a unit:
 * <pre>remote:http://HOST:PORT[?parley.timeout=5000&amp;parley.token=T&amp;parley.fallback=URI&amp;…]</pre>
 *
 * <table>
 *   <caption>parameters</caption>
 *   <tr><th>parameter</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code parley.timeout}</td><td>5000 (ms)</td><td>every call's limit, connecting included (Planck's
 *       {@code persistence_timeout})</td></tr>
 *   <tr><td>{@code parley.token}</td><td>{@value #TOKEN_ENV}</td><td>the bearer token</td></tr>
 *   <tr><td>{@code parley.fallback}</td><td>{@link Stores#defaultUri()}</td><td>the local store calls fall back to
 *       (percent-encode it)</td></tr>
 *   <tr><td>{@code parley.journal}</td><td>{@code $PARLEY_HOME/remote-journal/<hash of the URL>.jsonl}</td><td>the
 *       replay journal of writes that fell back</td></tr>
 *   <tr><td>{@code parley.breaker.failures}</td><td>50 (%)</td><td>the failure rate that opens the breaker</td></tr>
 *   <tr><td>{@code parley.breaker.window}</td><td>10 (calls)</td><td>the calls the rate is computed over (and the
 *       fewest before it is)</td></tr>
 *   <tr><td>{@code parley.breaker.open}</td><td>5000 (ms)</td><td>how long an open breaker sends every call to the
 *       fallback without trying the server</td></tr>
 *   <tr><td>{@code parley.replay}</td><td>1000 (ms)</td><td>how often pending writes are replayed in the
 *       background</td></tr>
 *   <tr><td>{@code parley.maxBody}</td><td>{@value #DEFAULT_MAX_BODY_BYTES} (bytes)</td><td>the largest request body
 *       the server accepts ({@code parley serve --max-body-bytes}, the same default): a larger write does not fall
 *       back while the server is down, since the server would refuse its replay</td></tr>
 * </table>
 *
 * @param server the server's base URI ({@code http://…} or {@code https://…})
 * @param timeout every call's limit
 * @param token the bearer token, or null
 * @param fallbackUri the local store's URI
 * @param journal the replay journal's file
 * @param breakerFailureRatePercent the failure rate, in percent, that opens the breaker
 * @param breakerWindowCalls the calls the failure rate is computed over
 * @param breakerOpen how long the breaker stays open
 * @param replayInterval how often the background replay runs
 * @param maxBodyBytes the largest request body the server accepts, in bytes, at least 1
 */
public record RemoteSettings(URI server, Duration timeout, @Nullable String token, String fallbackUri, Path journal,
                             int breakerFailureRatePercent, int breakerWindowCalls, Duration breakerOpen,
                             Duration replayInterval, long maxBodyBytes) {
    /** The environment variable the bearer token is read from when the URI gives none. */
    public static final String TOKEN_ENV = "PARLEY_REMOTE_TOKEN";
    /** The default timeout, as Planck's {@code persistence_timeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(5000);
    /** The default largest request body, 16 MiB: the server's default ({@code parley serve --max-body-bytes}). */
    public static final long DEFAULT_MAX_BODY_BYTES = 16L * 1024 * 1024;

    static final String TIMEOUT = "parley.timeout";
    static final String TOKEN = "parley.token";
    static final String FALLBACK = "parley.fallback";
    static final String JOURNAL = "parley.journal";
    static final String BREAKER_FAILURES = "parley.breaker.failures";
    static final String BREAKER_WINDOW = "parley.breaker.window";
    static final String BREAKER_OPEN = "parley.breaker.open";
    static final String REPLAY = "parley.replay";
    static final String MAX_BODY = "parley.maxBody";

    /** The Parley parameters a {@code remote:} URI accepts besides {@code parley.scope}. */
    public static final Set<String> PARAMETERS = Set.of(TIMEOUT, TOKEN, FALLBACK, JOURNAL, BREAKER_FAILURES,
            BREAKER_WINDOW, BREAKER_OPEN, REPLAY, MAX_BODY);

    /**
     * Checks every part, so that settings out of range fail here, not later inside the HTTP client or the breaker.
     * The ranges, in the units of the URI's parameters:
     * <ul>
     *   <li>{@code server}: an {@code http} or {@code https} URI with a host and without a query;</li>
     *   <li>{@code timeout} ({@code parley.timeout}): 1 to 600,000 ms;</li>
     *   <li>{@code breakerFailureRatePercent} ({@code parley.breaker.failures}): 1 to 100;</li>
     *   <li>{@code breakerWindowCalls} ({@code parley.breaker.window}): 1 to 10,000;</li>
     *   <li>{@code breakerOpen} ({@code parley.breaker.open}): 1 to 3,600,000 ms;</li>
     *   <li>{@code replayInterval} ({@code parley.replay}): 10 to 3,600,000 ms;</li>
     *   <li>{@code maxBodyBytes} ({@code parley.maxBody}): at least 1.</li>
     * </ul>
     *
     * @param server the server's base URI ({@code http://…} or {@code https://…})
     * @param timeout every call's limit
     * @param token the bearer token, or null
     * @param fallbackUri the local store's URI
     * @param journal the replay journal's file
     * @param breakerFailureRatePercent the failure rate, in percent, that opens the breaker
     * @param breakerWindowCalls the calls the failure rate is computed over
     * @param breakerOpen how long the breaker stays open
     * @param replayInterval how often the background replay runs
     * @param maxBodyBytes the largest request body the server accepts, in bytes
     * @throws NullPointerException if {@code server}, {@code timeout}, {@code fallbackUri}, {@code journal},
     *     {@code breakerOpen} or {@code replayInterval} is null
     * @throws InvalidInputException if a part is out of its range, naming the URI parameter it comes from, or
     *     {@code fallbackUri} names a {@code remote:} store
     */
    public RemoteSettings {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(fallbackUri, "fallbackUri");
        Objects.requireNonNull(journal, "journal");
        Objects.requireNonNull(breakerOpen, "breakerOpen");
        Objects.requireNonNull(replayInterval, "replayInterval");
        if (server.getScheme() == null || !(server.getScheme().equals("http") || server.getScheme().equals("https"))
                || server.getHost() == null || server.getRawQuery() != null) {
            throw new InvalidInputException("remote: needs an http(s) URL like remote:http://127.0.0.1:8420, not '"
                    + server + "'");
        }
        if (fallbackUri.regionMatches(true, 0, "remote:", 0, "remote:".length())) {
            throw new InvalidInputException("the fallback of a remote: store must be a local store, not " + fallbackUri);
        }
        TIMEOUT_RANGE.check(timeout);
        BREAKER_FAILURES_RANGE.check(breakerFailureRatePercent);
        BREAKER_WINDOW_RANGE.check(breakerWindowCalls);
        BREAKER_OPEN_RANGE.check(breakerOpen);
        REPLAY_RANGE.check(replayInterval);
        MAX_BODY_RANGE.check(maxBodyBytes);
    }

    /**
     * Settings with the default request body limit, {@link #DEFAULT_MAX_BODY_BYTES}.
     *
     * @param server the server's base URI ({@code http://…} or {@code https://…})
     * @param timeout every call's limit
     * @param token the bearer token, or null
     * @param fallbackUri the local store's URI
     * @param journal the replay journal's file
     * @param breakerFailureRatePercent the failure rate, in percent, that opens the breaker
     * @param breakerWindowCalls the calls the failure rate is computed over
     * @param breakerOpen how long the breaker stays open
     * @param replayInterval how often the background replay runs
     * @throws NullPointerException if {@code server}, {@code timeout}, {@code fallbackUri}, {@code journal},
     *     {@code breakerOpen} or {@code replayInterval} is null
     * @throws InvalidInputException if a part is out of the range the canonical constructor states, or
     *     {@code fallbackUri} names a {@code remote:} store
     */
    public RemoteSettings(URI server, Duration timeout, @Nullable String token, String fallbackUri, Path journal,
                          int breakerFailureRatePercent, int breakerWindowCalls, Duration breakerOpen,
                          Duration replayInterval) {
        this(server, timeout, token, fallbackUri, journal, breakerFailureRatePercent, breakerWindowCalls, breakerOpen,
                replayInterval, DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * The settings a parsed {@code remote:} URI gives: each number an integer in the range the constructor states.
     *
     * @param uri the parsed {@code remote:} URI; its location is the server's URL
     * @param env the environment ({@value #TOKEN_ENV})
     * @return the settings, with the default of each parameter the URI does not give
     * @throws InvalidInputException if the location is not an http(s) URL with a host and without a query, a number
     *     is not an integer or is out of its range, or {@code parley.fallback} names a {@code remote:} store
     */
    public static RemoteSettings from(StoreUri uri, Map<String, String> env) {
        String location = uri.location();
        URI server;
        try {
            server = URI.create(location.endsWith("/") ? location.substring(0, location.length() - 1) : location);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("remote: needs an http URL, not '" + location + "'", e);
        }
        String token = uri.parameter(TOKEN);
        if (token == null) {
            String fromEnv = env.get(TOKEN_ENV);
            token = fromEnv == null || fromEnv.isBlank() ? null : fromEnv.strip();
        }
        String fallback = uri.parameter(FALLBACK);
        String journal = uri.parameter(JOURNAL);
        return new RemoteSettings(server,
                Duration.ofMillis(TIMEOUT_RANGE.parse(uri, DEFAULT_TIMEOUT.toMillis())),
                token, fallback != null ? fallback : Stores.defaultUri(),
                journal != null ? Path.of(journal) : Stores.home().resolve("remote-journal")
                        .resolve(hash(server.toString()) + ".jsonl"),
                (int) BREAKER_FAILURES_RANGE.parse(uri, 50),
                (int) BREAKER_WINDOW_RANGE.parse(uri, 10),
                Duration.ofMillis(BREAKER_OPEN_RANGE.parse(uri, 5000)),
                Duration.ofMillis(REPLAY_RANGE.parse(uri, 1000)),
                MAX_BODY_RANGE.parse(uri, DEFAULT_MAX_BODY_BYTES));
    }

    /** A URI parameter's range, checked where settings are made and where a URI is parsed (with what was typed). */
    private record Range(String name, long min, long max, String unit) {
        /** The parameter's integer in range, or {@code otherwise} when the URI has none. */
        long parse(StoreUri uri, long otherwise) {
            String v = uri.parameter(name);
            if (v == null) {
                return otherwise;
            }
            long n;
            try {
                n = Long.parseLong(v.strip());
            } catch (NumberFormatException e) {
                throw new InvalidInputException(name + " must be an integer, not '" + v + "'", e);
            }
            return check(n);
        }

        long check(long n) {
            if (n < min || n > max) {
                throw new InvalidInputException(name + " must be from " + min + " to " + max + unit + ", got " + n);
            }
            return n;
        }

        /** A duration in milliseconds within the range; one out of it is named in milliseconds when whole, else ISO. */
        void check(Duration d) {
            if (d.compareTo(Duration.ofMillis(min)) < 0 || d.compareTo(Duration.ofMillis(max)) > 0) {
                boolean wholeMillis = d.toNanosPart() % 1_000_000 == 0
                        && d.getSeconds() > -1_000_000_000_000L && d.getSeconds() < 1_000_000_000_000L;
                throw new InvalidInputException(name + " must be from " + min + " to " + max + unit + ", got "
                        + (wholeMillis ? Long.toString(d.toMillis()) : d.toString()));
            }
        }
    }

    private static final Range TIMEOUT_RANGE = new Range(TIMEOUT, 1, 600_000, " ms");
    private static final Range BREAKER_FAILURES_RANGE = new Range(BREAKER_FAILURES, 1, 100, " %");
    private static final Range BREAKER_WINDOW_RANGE = new Range(BREAKER_WINDOW, 1, 10_000, " calls");
    private static final Range BREAKER_OPEN_RANGE = new Range(BREAKER_OPEN, 1, 3_600_000, " ms");
    private static final Range REPLAY_RANGE = new Range(REPLAY, 10, 3_600_000, " ms");
    private static final Range MAX_BODY_RANGE = new Range(MAX_BODY, 1, Long.MAX_VALUE, " bytes");

    private static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
