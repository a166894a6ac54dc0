package dev.parley.core;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The one rule for every time Parley stores — an entry's timestamp, a message's creation time, a session's, a
 * record's, a lease's — applied at the boundary and identical on every backend: kept to the millisecond, within the
 * years 0000 to 9999. Catalogs order by fixed-width ISO-8601 text, every store holds that range (an epoch-millisecond
 * {@code long}, PostgreSQL's {@code timestamptz}) and every transcript format writes it.
 */
public final class Times {
    /** The earliest time Parley stores. */
    public static final Instant MIN = Instant.parse("0000-01-01T00:00:00Z");
    /** The latest time Parley stores. */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999Z");

    private Times() {}

    /**
     * The instant to the millisecond.
     *
     * @param i the instant; a finer part than milliseconds is dropped
     * @return {@code i} truncated to the millisecond
     * @throws InvalidInputException if it is outside {@link #MIN} to {@link #MAX}
     */
    public static Instant millis(Instant i) {
        Instant t = i.truncatedTo(ChronoUnit.MILLIS);
        if (t.isBefore(MIN) || t.isAfter(MAX)) {
            throw new InvalidInputException("instant " + i + " is outside the years 0000 to 9999 that Parley stores");
        }
        return t;
    }
}
