package dev.parley.core;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Random;
import java.util.UUID;

/**
 * Makes new ids. Injected wherever ids are minted (stores, agents, importers) so that tests and the conformance
 * kit can be deterministic.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IdGenerator {

    /** A new, unique, valid id (see {@link Ids}). */
    String newId();

    /** A new session id. */
    default SessionId newSessionId() {
        return new SessionId(newId());
    }

    /** A new entry id. */
    default EntryId newEntryId() {
        return new EntryId(newId());
    }

    /**
     * Time-ordered UUIDs, version 7 (RFC 9562): 48 bits of Unix milliseconds from {@code clock}, then random bits.
     * An id minted in a later millisecond of the clock sorts after (as text) one of an earlier millisecond, which
     * keeps file listings and B-tree inserts in time order. Ids minted in the same millisecond are in random order:
     * the bits after the time (including {@code rand_a}) are random, not a counter.
     */
    static IdGenerator uuidV7(Clock clock, Random random) {
        return () -> uuidV7(clock.millis(), random).toString();
    }

    /** {@link #uuidV7(Clock, Random)} with the system UTC clock and a {@link SecureRandom}. */
    static IdGenerator uuidV7() {
        return uuidV7(Clock.systemUTC(), new SecureRandom());
    }

    /** The UUIDv7 for the given Unix time in milliseconds, with random bits drawn from {@code random}. */
    static UUID uuidV7(long unixMillis, Random random) {
        long randA = random.nextInt(1 << 12);
        long msb = (unixMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | randA;
        long lsb = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
