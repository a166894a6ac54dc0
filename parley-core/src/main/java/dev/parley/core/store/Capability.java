package dev.parley.core.store;

/**
 * What a {@link Store} offers beyond the message log every store has. Read from {@link Store#capabilities()}; the
 * conformance kit runs the scenarios of every capability a store declares and reports the others as not applicable.
 */
public enum Capability {
    /** The store keeps what is appended: loads return it. Every store but {@code null:}. */
    PERSISTENT,
    /** Acknowledged writes survive a crash of the process (fsync, {@code synchronous=FULL}, a committed transaction). */
    DURABLE,
    /** Several processes may open the store at once and see each other's acknowledged writes. */
    MULTI_PROCESS,
    /** The session catalog ({@link Store#catalog()}). */
    CATALOG,
    /** Revisioned session records ({@link Store#sessions()}). */
    SESSION_RECORDS,
    /** Archives of compacted transcripts ({@link Store#archives()}). */
    ARCHIVES
}
