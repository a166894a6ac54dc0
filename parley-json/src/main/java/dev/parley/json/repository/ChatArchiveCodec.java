package dev.parley.json.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.json.Json;
import dev.parley.json.StrictObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The archive manifest as JSON (Heddle's {@code ChatArchivePersistenceCodec}):
 * {@code {"version":1,"sessionId":…,"currentSummaryPath":…,"archives":[…]}}, parsed strictly, and the codec's pure
 * operations under Heddle's names ({@link #emptyManifest}, {@link #appendArchive}).
 */
public final class ChatArchiveCodec {
    private ChatArchiveCodec() {}

    /**
     * Heddle's {@code emptyManifest}: the manifest of a session without archives ({@link ChatArchiveManifest#empty}).
     *
     * @param sessionId the session
     * @return a manifest with no archives and no current summary
     * @throws InvalidInputException if {@code sessionId} is not a valid id
     */
    public static ChatArchiveManifest emptyManifest(String sessionId) {
        return ChatArchiveManifest.empty(sessionId);
    }

    /**
     * Heddle's {@code appendArchive}: the manifest with one more archive, which becomes the current summary
     * ({@link ChatArchiveManifest#withArchive}).
     *
     * @param manifest the manifest; not changed
     * @param archive the archive to add, with its locators
     * @return a new manifest with {@code archive} last and its summary locator as the current summary
     * @throws InvalidInputException if the archive id is already listed
     */
    public static ChatArchiveManifest appendArchive(ChatArchiveManifest manifest, ArchiveRecord archive) {
        return manifest.withArchive(archive);
    }

    /**
     * The manifest as JSON.
     *
     * @param m the manifest
     * @return a new object: {@code version}, {@code sessionId}, {@code currentSummaryPath} when there is one, and
     *     {@code archives} in append order
     */
    public static ObjectNode encodeManifest(ChatArchiveManifest m) {
        ObjectNode o = Json.object();
        o.put("version", ChatArchiveManifest.VERSION);
        o.put("sessionId", m.sessionId());
        if (m.currentSummaryPath() != null) {
            o.put("currentSummaryPath", m.currentSummaryPath());
        }
        ArrayNode archives = o.putArray("archives");
        m.archives().forEach(a -> archives.add(ChatSessionCodec.encodeArchive(a)));
        return o;
    }

    /**
     * The manifest as pretty JSON text with a trailing newline.
     *
     * @param m the manifest
     * @return {@link #encodeManifest}'s object as indented text, ending in a newline
     */
    public static String serializeManifest(ChatArchiveManifest m) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(encodeManifest(m)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses a manifest strictly.
     *
     * @param node the manifest's JSON
     * @param expectedSessionId the session the manifest must belong to
     * @param location where the manifest is stored, for error messages
     * @return the manifest
     * @throws StorageCorruptionException naming {@code location} if it is not a valid manifest of that session
     */
    public static ChatArchiveManifest parseManifest(JsonNode node, String expectedSessionId, String location) {
        try {
            StrictObject o = StrictObject.of(node, location)
                    .allowOnly(Set.of("version", "sessionId", "currentSummaryPath", "archives"));
            if (o.longValue("version") != ChatArchiveManifest.VERSION) {
                throw o.fail("unsupported manifest version " + o.required("version"));
            }
            String sessionId = o.string("sessionId");
            if (!sessionId.equals(expectedSessionId)) {
                throw o.fail("the manifest belongs to session " + sessionId + ", not " + expectedSessionId);
            }
            ArrayNode array = o.array("archives");
            List<ArchiveRecord> archives = new ArrayList<>();
            ChatArchiveManifest check = ChatArchiveManifest.empty(sessionId);
            for (int i = 0; i < array.size(); i++) {
                ArchiveRecord a = ChatSessionCodec.parseArchive(StrictObject.of(array.get(i), location + " archives[" + i + "]"));
                check = check.withArchive(a);
                archives.add(a);
            }
            return new ChatArchiveManifest(sessionId, o.optionalString("currentSummaryPath"), archives);
        } catch (CorruptRecordException | InvalidInputException e) {
            throw new StorageCorruptionException(location, e.getMessage(), e, true);
        }
    }

    /**
     * Parses manifest text strictly.
     *
     * @param text the manifest's JSON text
     * @param expectedSessionId the session the manifest must belong to
     * @param location where the manifest is stored, for error messages
     * @return the manifest
     * @throws StorageCorruptionException naming {@code location} if the text is not JSON, or not a valid manifest of
     *     that session
     */
    public static ChatArchiveManifest parseManifest(String text, String expectedSessionId, String location) {
        try {
            return parseManifest(Json.parse(text), expectedSessionId, location);
        } catch (JsonProcessingException e) {
            throw new StorageCorruptionException(location, Json.unreadable(e), e, true);
        }
    }
}
