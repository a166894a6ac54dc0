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

    /**
     * A new, unique, valid id (see {@link Ids}).
     *
     * @return the id, never null
     */
    String newId();

    /**
     * A new session id.
     *
     * @return a session id made of {@link #newId()}
     */
    default SessionId newSessionId() {
        return new SessionId(newId());
    }

    /**
     * A new entry id.
     *
     * @return an entry id made of {@link #newId()}
     */
    default EntryId newEntryId() {
        return new EntryId(newId());
    }

    /**
     * Time-ordered UUIDs, version 7 (RFC 9562): 48 bits of Unix milliseconds from {@code clock}, then random bits.
     * An id minted in a later millisecond of the clock sorts after (as text) one of an earlier millisecond, which
     * keeps file listings and B-tree inserts in time order. Ids minted in the same millisecond are in random order:
     * the bits after the time (including {@code rand_a}) are random, not a counter.
     *
     * @param clock the clock whose {@link Clock#millis()} each id's time bits are read from, at each call
     * @param random the source of the random bits; shared by every id the generator makes
     * @return a generator whose {@link #newId()} returns the UUID's text form (lowercase hex, 36 characters)
     */
    static IdGenerator uuidV7(Clock clock, Random random) {
        return () -> uuidV7(clock.millis(), random).toString();
    }

    /**
     * {@link #uuidV7(Clock, Random)} with the system UTC clock and a {@link SecureRandom}.
     *
     * @return a new generator; each call makes its own {@link SecureRandom}
     */
    static IdGenerator uuidV7() {
        return uuidV7(Clock.systemUTC(), new SecureRandom());
    }

    /**
     * The UUIDv7 for the given Unix time in milliseconds, with random bits drawn from {@code random}.
     *
     * @param unixMillis the time, in milliseconds since the Unix epoch; only its low 48 bits are used
     * @param random the source of the 74 random bits
     * @return the UUID, version 7 and variant 2 (IETF)
     */
    static UUID uuidV7(long unixMillis, Random random) {
        long randA = random.nextInt(1 << 12);
        long msb = (unixMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | randA;
        long lsb = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }
}
