package dev.parley.remote;

import java.time.Duration;

/**
 * What {@code parley remote status} reports ({@link RemoteStore#status()}).
 *
 * @param server the server's base URI
 * @param reachable whether the server answered a health call just now
 * @param breaker the circuit breaker's state
 * @param pending writes that fell back and wait to be replayed
 * @param conflicts writes the server refused at replay, kept in the conflicts file
 * @param timeout the limit of every call
 * @param journal the replay journal's file
 * @param fallback the fallback store's URI (secrets masked)
 */
public record RemoteStatus(String server, boolean reachable, String breaker, int pending, int conflicts,
                           Duration timeout, String journal, String fallback) {}
