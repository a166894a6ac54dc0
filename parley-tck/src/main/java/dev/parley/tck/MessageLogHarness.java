package dev.parley.tck;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;

/**
 * What the message-log scenarios need from a backend. {@link StoreHarness} implements it for any store; implement it
 * yourself only for a store the kit must reach another way. Run {@link MessageLogScenarios#all()} through
 * {@link ConformanceRunner}, or through {@code dev.parley.tck.junit.MessageLogConformance} of
 * {@code parley-tck-junit}.
 */
public interface MessageLogHarness {

    /**
     * Opens a new store over the same storage, bound to {@code scope}. Two calls with the same scope must see the
     * same data (a file, a database…): the kit checks that a fresh instance reopens everything an earlier one wrote.
     * Different scopes must not see each other's data. The kit closes the stores it opens.
     *
     * @param scope the scope to bind: the scenario's own, or another the scenario made for isolation checks
     * @return a new store instance bound to {@code scope}
     */
    Store open(String scope);

    /**
     * Removes everything stored in {@code scope}. Called after every scenario, also when it failed.
     *
     * @param scope the scope to empty
     */
    void cleanupScope(String scope);

    /**
     * Damages the stored form of one entry (after every instance of the scope is closed) so that reading it must
     * fail with a {@link dev.parley.core.CorruptRecordException}.
     *
     * @param scope the scope the session is in
     * @param session the session holding the entry
     * @param entry the entry to damage
     * @throws CapabilityMissing if the backend has no stored form to damage (the memory store)
     */
    default void corruptEntry(String scope, SessionId session, EntryId entry) {
        throw new CapabilityMissing("corruptEntry");
    }
}
