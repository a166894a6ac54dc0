package dev.parley.core.store;

import dev.parley.core.IdGenerator;
import java.time.Clock;
import java.util.Objects;

/**
 * Settings every store takes: the clock that stamps sessions and the generator of new ids. Inject fixed ones in
 * tests and the conformance kit for deterministic results.
 *
 * @param clock the clock for catalog times ({@code createdAt}, {@code updatedAt})
 * @param ids the generator of new ids
 */
public record StoreOptions(Clock clock, IdGenerator ids) {
    public StoreOptions {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(ids, "ids");
    }

    /** The system UTC clock and UUIDv7 ids. */
    public static StoreOptions defaults() {
        return new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
    }
}
