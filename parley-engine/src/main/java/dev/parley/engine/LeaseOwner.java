package dev.parley.engine;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who holds, or wants, a session's lease. An owner is the pair (host, owner id): the same owner id on two hosts is
 * two owners, and process ids are never evidence of liveness (Heddle issue #277).
 *
 * @param kind {@code tui}, {@code daemon} or {@code ask}; this record does not check it, but
 *     {@link SessionService#acquireLease} refuses any other kind with an
 *     {@link dev.parley.core.InvalidInputException} and writes nothing
 * @param hostId the host, or null
 * @param ownerId the owner within the host
 * @param clientLabel a label for display, or null
 */
public record LeaseOwner(String kind, @Nullable String hostId, String ownerId, @Nullable String clientLabel) {
    /**
     * Checks the parts; {@code kind} is not checked against the known kinds here.
     *
     * @param kind {@code tui}, {@code daemon} or {@code ask}
     * @param hostId the host, or null
     * @param ownerId the owner within the host
     * @param clientLabel a label for display, or null
     * @throws NullPointerException if {@code kind} or {@code ownerId} is null
     */
    public LeaseOwner {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(ownerId, "ownerId");
    }
}
