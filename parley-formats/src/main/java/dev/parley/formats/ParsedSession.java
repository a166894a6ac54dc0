package dev.parley.formats;

import dev.parley.core.RawJson;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One session read from sources: its agents, and what identifies the source.
 *
 * @param format the source format
 * @param sourceSessionId the source's own session id (kept as the Parley id when it is valid and free), or null
 * @param origin how a later import recognises this source ({@code format:id}, or {@code format:sha256:…})
 * @param title a title for the catalog, or null
 * @param metadata session-level source fields kept verbatim (a trajectory's task and reward, a request's model)
 * @param agents the agents, main first
 * @param source for a conversation of a multi-conversation file: the file, else null
 * @param index for a conversation of a multi-conversation file: its 0-based position, else null
 * @param createdAt when the session was created where it was exported from (a Parley export says), or null: a
 *     session the import creates is created then
 */
public record ParsedSession(Format format, @Nullable String sourceSessionId, String origin, @Nullable String title,
                            Map<String, RawJson> metadata, List<ParsedAgent> agents, @Nullable Path source,
                            @Nullable Integer index, @Nullable Instant createdAt) {
    /**
     * Checks the parts and copies {@code metadata} (keeping its order) and {@code agents}.
     *
     * @param format the source format
     * @param sourceSessionId the source's own session id, or null
     * @param origin how a later import recognises this source
     * @param title a title for the catalog, or null
     * @param metadata session-level source fields kept verbatim; copied
     * @param agents the agents, main first; copied
     * @param source for a conversation of a multi-conversation file: the file, else null
     * @param index for a conversation of a multi-conversation file: its 0-based position, else null
     * @param createdAt when the session was created where it was exported from, or null
     * @throws NullPointerException if {@code format}, {@code origin}, {@code metadata} or {@code agents} is null,
     *     {@code agents} holds a null, or {@code metadata} a null key or value
     */
    public ParsedSession {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(origin, "origin");
        metadata = RawJson.copyOf(metadata, "metadata");
        agents = List.copyOf(agents);
    }

    /**
     * A session of a source that does not say when it was created ({@code createdAt} null).
     *
     * @param format the source format
     * @param sourceSessionId the source's own session id, or null
     * @param origin how a later import recognises this source
     * @param title a title for the catalog, or null
     * @param metadata session-level source fields kept verbatim; copied
     * @param agents the agents, main first; copied
     * @param source for a conversation of a multi-conversation file: the file, else null
     * @param index for a conversation of a multi-conversation file: its 0-based position, else null
     * @throws NullPointerException if {@code format}, {@code origin}, {@code metadata} or {@code agents} is null,
     *     {@code agents} holds a null, or {@code metadata} a null key or value
     */
    public ParsedSession(Format format, @Nullable String sourceSessionId, String origin, @Nullable String title,
                         Map<String, RawJson> metadata, List<ParsedAgent> agents, @Nullable Path source,
                         @Nullable Integer index) {
        this(format, sourceSessionId, origin, title, metadata, agents, source, index, null);
    }

    /**
     * The number of entries over all agents.
     *
     * @return the sum of the agents' entry counts
     */
    public long entryCount() {
        return agents.stream().mapToLong(a -> a.entries().size()).sum();
    }

    /**
     * The number of messages over all agents.
     *
     * @return the sum of the agents' {@link ParsedAgent#messageCount()}
     */
    public long messageCount() {
        return agents.stream().mapToLong(ParsedAgent::messageCount).sum();
    }
}
