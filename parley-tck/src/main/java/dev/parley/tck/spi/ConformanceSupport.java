package dev.parley.tck.spi;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import dev.parley.tck.CapabilityMissing;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a backend contributes to the conformance kit beyond its public contract: damaging a stored record, so the
 * corruption scenarios can check that a read fails loudly. A backend registers one implementation per URI scheme
 * under {@code META-INF/services/dev.parley.tck.spi.ConformanceSupport}, in a package that is not its API, and
 * depends on {@code parley-tck} optionally; the kit finds it by the store's scheme ({@link
 * dev.parley.tck.StoreHarness}). A backend without one gets its corruption scenarios (ML-08, CS-7, AR-6) reported skipped, with the reason.
 *
 * <p>Each method damages what the given store (bound to the scope under test) holds, after the kit has closed every
 * other instance of that scope. Test support only: it deliberately writes records that cannot be decoded.
 */
public interface ConformanceSupport {

    /**
     * The URI scheme this support serves ({@code sqlite}, {@code jsonl}…).
     *
     * @return the scheme, without the colon
     */
    String scheme();

    /**
     * Replaces the stored form of one log entry with one that cannot be decoded, keeping it addressable.
     *
     * @param store the store, bound to the scope under test
     * @param session the session holding the entry
     * @param entry the entry to damage
     * @throws CapabilityMissing if the backend has no stored form to damage
     */
    default void corruptEntry(Store store, SessionId session, EntryId entry) {
        throw new CapabilityMissing("corruptEntry for " + scheme() + ":");
    }

    /**
     * Replaces a session record's stored form with one that cannot be decoded, keeping it addressable.
     *
     * @param store the store, bound to the scope under test
     * @param sessionId the id of the record to damage
     * @throws CapabilityMissing if the backend has no stored form to damage
     */
    default void corruptSessionRecord(Store store, String sessionId) {
        throw new CapabilityMissing("corruptSessionRecord for " + scheme() + ":");
    }

    /**
     * Replaces an archive manifest's stored form with one that cannot be decoded.
     *
     * @param store the store, bound to the scope under test
     * @param sessionId the session whose manifest to damage
     * @throws CapabilityMissing if the backend has no stored form to damage
     */
    default void corruptManifest(Store store, String sessionId) {
        throw new CapabilityMissing("corruptManifest for " + scheme() + ":");
    }

    /**
     * The URI of a new, empty store of this backend inside {@code dir}, for the crash campaign's rounds that kill
     * writers during a store's first open ({@link dev.parley.tck.process.CrashCampaign}); everything it creates must
     * stay inside {@code dir}, which the campaign deletes. Empty (the default) when the backend cannot make one there:
     * the campaign then kills first opens only when the store under test is new.
     *
     * @param dir a directory for the new store; it need not exist yet
     * @return the new store's URI, or empty
     */
    default Optional<String> freshStore(Path dir) {
        return Optional.empty();
    }
}
