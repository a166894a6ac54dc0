package dev.parley.core.repository;

import java.util.List;
import java.util.Optional;

/**
 * The append-only archive of compacted history (Heddle's {@code ChatArchiveRepository}): the
 * exact messages a compaction removed and the rolling summaries, per session.
 *
 * <p>Bound to a scope at construction, like {@link ChatSessionRepository}.
 *
 * <h2>Rules (the conformance kit's archive scenarios check them)</h2>
 * <ul>
 *   <li>{@link #append} writes the content first and the manifest last, atomically: a committed manifest never
 *       references missing content (a failed append may leave unreferenced content, never a dangling
 *       reference).</li>
 *   <li>Archives keep append order; the newest archive's summary is the current one.</li>
 *   <li>Concurrent appends to one session both commit; neither is lost.</li>
 *   <li>A duplicate archive id is rejected and changes nothing.</li>
 *   <li>A manifest that cannot be decoded makes {@link #loadManifest} fail.</li>
 * </ul>
 * Thread-safe.
 */
public interface ChatArchiveRepository {

    /**
     * The session's manifest; the {@linkplain ChatArchiveManifest#empty empty manifest} if it has none.
     *
     * @param sessionId the session
     * @return the manifest, never null
     * @throws StorageCorruptionException if the stored manifest cannot be decoded
     * @throws dev.parley.core.InvalidInputException if the session id is invalid: not 1 to
     *     {@value ChatSession#MAX_ID_LENGTH} characters, or holding a NUL or an unpaired surrogate
     *     ({@link ChatSession#requireId})
     */
    ChatArchiveManifest loadManifest(String sessionId);

    /**
     * The summary a locator names, or empty if there is none (in this scope).
     *
     * @param summaryLocator the locator, as {@link ArchiveRecord#summaryPath()} gives it
     * @return the summary text, or empty
     */
    Optional<String> readSummary(String summaryLocator);

    /**
     * The messages an archive holds, exactly as they were appended, by the archive's messages locator
     * ({@link ArchiveRecord#path()}); empty if there is no such archive (in this scope). Beyond Heddle's archive
     * port, which reads summaries only: it lets a second engine rebuild a compacted session's whole history.
     *
     * @param messagesLocator the locator, as {@link ArchiveRecord#path()} gives it
     * @return the messages, in order, or empty
     * @throws StorageCorruptionException if the stored messages cannot be decoded
     */
    Optional<List<ChatMessage>> readMessages(String messagesLocator);

    /**
     * Appends an archive: content, then manifest, atomically.
     *
     * @param request the session, the archive record without locators, the messages and the summary
     * @return the archive record with the locators the repository assigned, and the manifest as committed
     * @throws dev.parley.core.InvalidInputException if the archive id already exists in the session; nothing changed
     */
    ArchiveAppend.Result append(ArchiveAppend request);
}
