package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import dev.parley.core.Times;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Who may write a session's turns, and with which fencing token (Heddle's {@code ChatSessionLease}).
 *
 * @param ownerKind {@code tui}, {@code daemon} or {@code ask}
 * @param hostId the owner's host, or null; owners are (host, owner) pairs — never process ids
 * @param ownerId the owner within its host
 * @param fencingToken the token writes under this lease carry, at least 0
 * @param acquiredAt when the lease was acquired
 * @param lastSeenAt when the owner last refreshed it
 * @param clientLabel a label for display, or null
 */
public record Lease(String ownerKind, @Nullable String hostId, String ownerId, long fencingToken, Instant acquiredAt,
                    Instant lastSeenAt, @Nullable String clientLabel) implements Serializable {
    static final Set<String> OWNER_KINDS = Set.of("tui", "daemon", "ask");

    /**
     * Checks the parts; both instants are cut to the millisecond.
     *
     * @param ownerKind {@code tui}, {@code daemon} or {@code ask}
     * @param hostId the owner's host, or null
     * @param ownerId the owner within its host
     * @param fencingToken the token writes under this lease carry, at least 0
     * @param acquiredAt when the lease was acquired
     * @param lastSeenAt when the owner last refreshed it
     * @param clientLabel a label for display, or null
     * @throws InvalidInputException if {@code ownerKind} is not {@code tui}, {@code daemon} or {@code ask}; if
     *     {@code fencingToken} is negative; or if an instant lies outside the years 0000 to 9999 ({@link Times})
     * @throws NullPointerException if {@code ownerKind}, {@code ownerId}, {@code acquiredAt} or {@code lastSeenAt} is
     *     null
     */
    public Lease {
        if (!OWNER_KINDS.contains(ownerKind)) {
            throw new InvalidInputException("unknown lease owner kind '" + ownerKind + "' (one of "
                    + String.join(", ", new java.util.TreeSet<>(OWNER_KINDS)) + ")");
        }
        Objects.requireNonNull(ownerId, "ownerId");
        if (fencingToken < 0) {
            throw new InvalidInputException("fencingToken must not be negative");
        }
        acquiredAt = Times.millis(Objects.requireNonNull(acquiredAt, "acquiredAt"));
        lastSeenAt = Times.millis(Objects.requireNonNull(lastSeenAt, "lastSeenAt"));
    }
}
