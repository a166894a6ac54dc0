package dev.parley.server;

import dev.parley.core.InvalidInputException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ParleyServer} listens. Every setting has a default and a unit.
 *
 * @param bind the address to listen on; {@value #DEFAULT_BIND} (loopback) by default. A non-loopback address needs
 *     tokens: the server refuses to listen there without them
 * @param port the TCP port; 0 picks a free one ({@link ParleyServer#port()} tells which)
 * @param tokens the bearer tokens and the scope each is bound to; {@link Tokens#none()} for none (then a request
 *     addressed by a loopback name and sent by no web page of another origin is answered, in the scope its
 *     {@code Parley-Scope} header names or the store's; any other gets 403)
 * @param maxBodyBytes the largest request body accepted, in bytes; a larger one gets 413 with a problem document
 * @param eventPollInterval how often a live event stream looks for entries appended by another process (appends
 *     through this server wake it at once)
 */
public record ServerConfig(String bind, int port, Tokens tokens, long maxBodyBytes, Duration eventPollInterval) {
    /** The default address: loopback only. */
    public static final String DEFAULT_BIND = "127.0.0.1";
    /** The default port. */
    public static final int DEFAULT_PORT = 8420;
    /** The default request body limit: 16 MiB. */
    public static final long DEFAULT_MAX_BODY_BYTES = 16L * 1024 * 1024;
    /** The default poll interval of event streams: 250 ms. */
    public static final Duration DEFAULT_EVENT_POLL_INTERVAL = Duration.ofMillis(250);

    /**
     * Checks every setting.
     *
     * @param bind the address to listen on
     * @param port the TCP port, 0 to 65535
     * @param tokens the bearer tokens; {@link Tokens#none()} for none
     * @param maxBodyBytes the largest request body accepted, in bytes, at least 1
     * @param eventPollInterval how often a live event stream polls; positive
     * @throws NullPointerException if {@code bind}, {@code tokens} or {@code eventPollInterval} is null
     * @throws InvalidInputException if the port or a limit is out of range, the address is blank or cannot be
     *     resolved, or it is not a loopback address and there are no tokens
     */
    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(eventPollInterval, "eventPollInterval");
        if (bind.isBlank()) {
            throw new InvalidInputException("the address to listen on is blank: name one, such as " + DEFAULT_BIND);
        }
        if (port < 0 || port > 65535) {
            throw new InvalidInputException("port must be 0 to 65535, got " + port);
        }
        if (maxBodyBytes < 1) {
            throw new InvalidInputException("the request body limit must be at least 1 byte, got " + maxBodyBytes);
        }
        if (eventPollInterval.isNegative() || eventPollInterval.isZero()) {
            throw new InvalidInputException("the event poll interval must be positive, got " + eventPollInterval);
        }
        if (!isLoopback(bind) && tokens.isEmpty()) {
            throw new InvalidInputException("refusing to listen on " + bind + " without tokens: a non-loopback address"
                    + " needs bearer tokens (--tokens FILE or " + Tokens.ENV + ")");
        }
    }

    /**
     * Loopback, port {@value #DEFAULT_PORT}, no tokens, the default limits.
     *
     * @return the default configuration
     */
    public static ServerConfig defaults() {
        return new ServerConfig(DEFAULT_BIND, DEFAULT_PORT, Tokens.none(), DEFAULT_MAX_BODY_BYTES,
                DEFAULT_EVENT_POLL_INTERVAL);
    }

    /**
     * This configuration on another address.
     *
     * @param bind the address to listen on
     * @return a new configuration; this one is unchanged
     * @throws InvalidInputException if the address is blank or cannot be resolved, or it is not a loopback address
     *     and there are no tokens
     */
    public ServerConfig withBind(String bind) {
        return new ServerConfig(bind, port, tokens, maxBodyBytes, eventPollInterval);
    }

    /**
     * This configuration on another port (0: a free one).
     *
     * @param port the TCP port, 0 to 65535
     * @return a new configuration; this one is unchanged
     * @throws InvalidInputException if the port is out of range
     */
    public ServerConfig withPort(int port) {
        return new ServerConfig(bind, port, tokens, maxBodyBytes, eventPollInterval);
    }

    /**
     * This configuration with tokens.
     *
     * @param tokens the tokens, replacing this configuration's
     * @return a new configuration; this one is unchanged
     * @throws InvalidInputException if {@code tokens} is empty and the address is not a loopback address
     */
    public ServerConfig withTokens(Tokens tokens) {
        return new ServerConfig(bind, port, tokens, maxBodyBytes, eventPollInterval);
    }

    /**
     * This configuration with another request body limit, in bytes.
     *
     * @param maxBodyBytes the largest request body accepted, in bytes, at least 1
     * @return a new configuration; this one is unchanged
     * @throws InvalidInputException if {@code maxBodyBytes} is less than 1
     */
    public ServerConfig withMaxBodyBytes(long maxBodyBytes) {
        return new ServerConfig(bind, port, tokens, maxBodyBytes, eventPollInterval);
    }

    private static boolean isLoopback(String bind) {
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new InvalidInputException("cannot resolve the address " + bind, e);
        }
    }
}
