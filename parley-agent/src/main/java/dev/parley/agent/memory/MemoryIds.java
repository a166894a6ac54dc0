package dev.parley.agent.memory;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.repository.ChatSession;
import dev.parley.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * The rule that turns a framework's memory (conversation) id into a Parley session id. Both frameworks take any
 * string (LangChain4j any object, by its {@code toString()}); Parley ids are 1 to 128 characters of
 * {@code [A-Za-z0-9._-]} starting with a letter, digit or {@code _} ({@link Ids}). So:
 * <ul>
 *   <li>a memory id that is a valid Parley id is the session id, unchanged ({@code "default"}, a UUID,
 *       {@code "user-42"});</li>
 *   <li>any other non-empty memory id ({@code "alice@example.com"}, {@code "chat 7"}, a 200-character key) becomes
 *       {@code mem-} followed by the first 32 hex digits of the SHA-256 of its UTF-8 bytes — stable across processes
 *       and versions;</li>
 *   <li>the original memory id is always kept in the session's catalog metadata (key {@value #METADATA_KEY}), which is
 *       how {@link MemoryLog#memoryIds()} lists the original ids and how a hashed id that collides with a literal one
 *       is detected (an {@link InvalidInputException}, never a shared session).</li>
 * </ul>
 */
public final class MemoryIds {
    /** The catalog metadata key under which a memory session records its framework and original memory id. */
    public static final String METADATA_KEY = "parley.memory";

    /**
     * What a session's catalog metadata ({@value #METADATA_KEY}) says of the memory stored in it.
     *
     * @param id the memory id, or null when the metadata names none
     * @param framework the framework whose memory it is ({@code langchain4j}, {@code spring-ai}), or null when the
     *     metadata names none
     */
    public record Owner(@Nullable String id, @Nullable String framework) {}
    /** The prefix of hashed session ids. */
    public static final String HASHED_PREFIX = "mem-";

    private MemoryIds() {}

    /**
     * The session id of a memory id.
     *
     * @param memoryId the framework's memory id
     * @return {@code memoryId} itself when it is a valid Parley id, else {@value #HASHED_PREFIX} and the first 32 hex
     *     digits of its SHA-256
     * @throws InvalidInputException if {@code memoryId} is null or empty, or holds a surrogate that is not half of a
     *     pair (which has no UTF-8 encoding: such ids would share a hash with the id that has {@code ?} there)
     */
    public static SessionId sessionId(String memoryId) {
        if (memoryId == null || memoryId.isEmpty()) {
            throw new InvalidInputException("memory id is missing or empty");
        }
        if (ChatSession.hasUnpairedSurrogate(memoryId)) {
            throw new InvalidInputException("memory id holds an unpaired surrogate, which is not text");
        }
        if (Ids.isValid(memoryId)) {
            return new SessionId(memoryId);
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(memoryId.getBytes(StandardCharsets.UTF_8));
            return new SessionId(HASHED_PREFIX + HexFormat.of().formatHex(digest).substring(0, 32));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * What the catalog metadata of {@code info} says of the memory stored in its session.
     *
     * @param info a session of the catalog
     * @return the memory's id and framework as the metadata names them; null for a session made by other means (an
     *     agent, an import), whose metadata has no {@value #METADATA_KEY}
     */
    public static @Nullable Owner ownerOf(SessionInfo info) {
        RawJson meta = info.metadata().get(METADATA_KEY);
        if (meta == null) {
            return null;
        }
        JsonNode node = Json.tree(meta);
        return new Owner(node.path("id").asText(null), node.path("framework").asText(null));
    }
}
