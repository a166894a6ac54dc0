package dev.parley.core.store;

import dev.parley.core.IdGenerator;
import java.time.Clock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Settings every store takes: the clock that stamps sessions, the generator of new ids, and the scope to bind when
 * the URI binds none. Inject fixed ones in tests and the conformance kit for deterministic results.
 *
 * @param clock the clock for catalog times ({@code createdAt}, {@code updatedAt})
 * @param ids the generator of new ids
 * @param scope the scope to bind, or null for the URI's {@code parley.scope} or else {@value Store#DEFAULT_SCOPE};
 *     naming a scope different from the one the URI binds is an error at open
 */
public record StoreOptions(Clock clock, IdGenerator ids, @Nullable String scope) {
    /**
     * Checks the scope when one is given ({@link Scopes#require}).
     *
     * @param clock the clock for catalog times
     * @param ids the generator of new ids
     * @param scope the scope to bind, or null
     * @throws NullPointerException if {@code clock} or {@code ids} is null
     * @throws dev.parley.core.InvalidInputException if {@code scope} is not null and not a valid scope (empty, longer
     *     than {@link Scopes#MAX_LENGTH} characters, or holding a NUL or an unpaired surrogate)
     */
    public StoreOptions {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(ids, "ids");
        if (scope != null) {
            Scopes.require(scope);
        }
    }

    /**
     * The given clock and ids, with no scope of its own.
     *
     * @param clock the clock for catalog times
     * @param ids the generator of new ids
     * @throws NullPointerException if {@code clock} or {@code ids} is null
     */
    public StoreOptions(Clock clock, IdGenerator ids) {
        this(clock, ids, null);
    }

    /**
     * The system UTC clock and UUIDv7 ids.
     *
     * @return options with {@link java.time.Clock#systemUTC()}, {@link IdGenerator#uuidV7()} and no scope
     */
    public static StoreOptions defaults() {
        return new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7(), null);
    }

    /**
     * These options with {@code scope} to bind.
     *
     * @param scope the scope to bind
     * @return new options with the same clock and ids
     * @throws dev.parley.core.InvalidInputException if {@code scope} is not a valid scope ({@link Scopes#require})
     */
    public StoreOptions withScope(String scope) {
        return new StoreOptions(clock, ids, Scopes.require(scope));
    }
}
