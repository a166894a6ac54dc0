package dev.parley.formats;

import dev.parley.core.AgentId;
import dev.parley.core.SessionId;
import java.util.Objects;

/**
 * What an exporter knows beyond the entries, used only for entries that did not come from the target format
 * (imported entries are reproduced from the model and their residual alone).
 *
 * @param session the Parley session
 * @param sourceSessionId the session id to write into records that carry one (the source's id for imported sessions)
 * @param agent the agent being exported
 */
public record ExportContext(SessionId session, String sourceSessionId, AgentId agent) {
    /**
     * Checks the parts.
     *
     * @param session the Parley session
     * @param sourceSessionId the session id to write into records that carry one
     * @param agent the agent being exported
     * @throws NullPointerException if {@code session}, {@code sourceSessionId} or {@code agent} is null
     */
    public ExportContext {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(sourceSessionId, "sourceSessionId");
        Objects.requireNonNull(agent, "agent");
    }
}
