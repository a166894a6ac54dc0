package dev.parley.remote;

/**
 * A remote store's counters since it was opened ({@link RemoteStore#stats()}).
 *
 * @param calls calls of the message log and catalog and of the records and archives
 * @param fallbacks calls carried out on the fallback store
 * @param replays writes that fell back and were replayed to the server
 * @param conflicts replayed writes the server refused (reported, not merged)
 * @param pending writes in the journal waiting to be replayed (from any process sharing the journal)
 * @param breaker the circuit breaker's state: {@code CLOSED}, {@code OPEN} or {@code HALF_OPEN}
 */
public record RemoteStats(long calls, long fallbacks, long replays, long conflicts, int pending, String breaker) {}
