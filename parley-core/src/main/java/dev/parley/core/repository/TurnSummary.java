package dev.parley.core.repository;

import dev.parley.core.RawJson;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A summary of one completed turn of a session record.
 *
 * @param id the turn id
 * @param prompt the prompt that started it
 * @param outcome how it ended
 * @param summary a short summary
 * @param steps the number of steps it took
 * @param traceFile where its trace is
 * @param events its events, copied
 * @param presentation opaque presentation data, or null
 * @param agent the agent that ran it (opaque JSON), or null
 * @param agentSnapshot a snapshot of that agent (opaque JSON), or null
 */
public record TurnSummary(String id, String prompt, String outcome, String summary, long steps, String traceFile,
                          List<String> events, @Nullable RawJson presentation, @Nullable RawJson agent,
                          @Nullable RawJson agentSnapshot) {
    /**
     * Copies {@code events} into an unmodifiable list. {@code steps} is not checked.
     *
     * @param id the turn id
     * @param prompt the prompt that started it
     * @param outcome how it ended
     * @param summary a short summary
     * @param steps the number of steps it took; not checked
     * @param traceFile where its trace is
     * @param events its events, copied
     * @param presentation opaque presentation data, or null
     * @param agent the agent that ran it (opaque JSON), or null
     * @param agentSnapshot a snapshot of that agent (opaque JSON), or null
     * @throws NullPointerException if {@code id}, {@code prompt}, {@code outcome}, {@code summary},
     *     {@code traceFile} or {@code events} is null, or {@code events} holds a null
     */
    public TurnSummary {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(traceFile, "traceFile");
        events = List.copyOf(events);
    }
}
