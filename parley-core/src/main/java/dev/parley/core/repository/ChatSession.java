package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.Times;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A revisioned session record: Heddle's {@code ChatSession} aggregate. The record is
 * written whole, under compare-and-swap on its revision; the catalog fields are listed without the large ones.
 *
 * <p>Immutable; lists are copied. Instants have millisecond precision. Use {@link #builder(String, Instant)} or
 * {@link #toBuilder()}.
 *
 * <p>A record reads back exactly as it was written, down to which optional keys it has: every nullable component is
 * null exactly when the record has no such key. For the optional list {@code archives} (and a message's
 * {@code toolCalls}) null and empty are different records: {@code "archives": []} is kept as an empty list, and an
 * absent key as null, so that the record Heddle's suite wrote is the record it reads.
 *
 * @param id the session id: any non-empty text of at most {@value #MAX_ID_LENGTH} characters without NUL (escaped
 *     wherever it becomes a file name)
 * @param name the display name
 * @param retention {@code reusable} or {@code one_off}, or null
 * @param workspaceId the workspace the session belongs to, or null
 * @param pinned whether the session is pinned (pinned sessions list first)
 * @param archivedAt when the session was archived (a soft flag), or null
 * @param history the model-facing transcript
 * @param messages the UI-facing projection of the transcript
 * @param turns summaries of the latest turns
 * @param createdAt when the session was created
 * @param updatedAt when the session was last changed; the catalog's activity order
 * @param model the model in use, or null
 * @param reasoningEffort {@code none}, {@code low}, {@code medium}, {@code high}, {@code ultrahigh} or {@code max}, or
 *     null
 * @param driftEnabled drift detection setting, or null
 * @param lastContinuePrompt the last continuation prompt, or null
 * @param context context and compaction statistics (opaque JSON, validated by the codec), or null
 * @param archives the archive records of compacted history (a copy of the archive manifest's list), copied; null
 *     when the record has no {@code archives} key, which is not the same as an empty list. Use
 *     {@link #archivesOrEmpty()} to iterate
 * @param leaseEpoch the last fencing token ever issued, kept after release, or null
 * @param lease the current lease, or null
 * @param queuedPrompts prompts waiting for the next turn, oldest first
 */
public record ChatSession(String id, String name, @Nullable String retention, @Nullable String workspaceId,
                          boolean pinned, @Nullable Instant archivedAt, List<ChatMessage> history,
                          List<ConversationLine> messages, List<TurnSummary> turns, Instant createdAt, Instant updatedAt,
                          @Nullable String model, @Nullable String reasoningEffort, @Nullable Boolean driftEnabled,
                          @Nullable String lastContinuePrompt, @Nullable RawJson context,
                          @Nullable List<ArchiveRecord> archives, @Nullable Long leaseEpoch, @Nullable Lease lease,
                          List<QueuedPrompt> queuedPrompts) {
    /** The longest session id accepted, in characters. */
    public static final int MAX_ID_LENGTH = 512;

    /**
     * Checks the id ({@link #requireId}), copies the lists into unmodifiable ones, and truncates the instants to
     * milliseconds. {@code retention} and {@code reasoningEffort} are not checked against their lists of values here.
     *
     * @param id the session id
     * @param name the display name
     * @param retention the retention, or null
     * @param workspaceId the workspace, or null
     * @param pinned whether the session is pinned
     * @param archivedAt when the session was archived, or null
     * @param history the model-facing transcript, copied
     * @param messages the UI-facing lines, copied
     * @param turns the turn summaries, copied
     * @param createdAt when the session was created
     * @param updatedAt when the session was last changed
     * @param model the model in use, or null
     * @param reasoningEffort the reasoning effort, or null
     * @param driftEnabled the drift detection setting, or null
     * @param lastContinuePrompt the last continuation prompt, or null
     * @param context context and compaction statistics (opaque JSON), or null
     * @param archives the archive records, copied; null for no {@code archives} key
     * @param leaseEpoch the last fencing token ever issued, at least 0, or null
     * @param lease the current lease, or null
     * @param queuedPrompts the queued prompts, oldest first, copied
     * @throws InvalidInputException if {@code id} is invalid, an instant is outside the years 0000 to 9999
     *     ({@link Times}), or {@code leaseEpoch} is negative
     * @throws NullPointerException if {@code name}, {@code createdAt}, {@code updatedAt}, {@code history},
     *     {@code messages}, {@code turns} or {@code queuedPrompts} is null, or a list holds a null
     */
    public ChatSession {
        requireId(id, "session id");
        Objects.requireNonNull(name, "name");
        history = List.copyOf(history);
        messages = List.copyOf(messages);
        turns = List.copyOf(turns);
        archives = archives == null ? null : List.copyOf(archives);
        queuedPrompts = List.copyOf(queuedPrompts);
        createdAt = Times.millis(Objects.requireNonNull(createdAt, "createdAt"));
        updatedAt = Times.millis(Objects.requireNonNull(updatedAt, "updatedAt"));
        archivedAt = archivedAt == null ? null : Times.millis(archivedAt);
        if (leaseEpoch != null && leaseEpoch < 0) {
            throw new InvalidInputException("leaseEpoch must not be negative");
        }
    }

    /**
     * Checks an id of the repository contract (session, archive): 1 to {@value #MAX_ID_LENGTH} characters, no NUL, no
     * unpaired surrogate (which UTF-8 cannot carry: two such ids would become one stored id).
     *
     * @param id the id to check; null is refused
     * @param what what the id identifies ("session id", "archive id"…), for the message
     * @return the id
     * @throws InvalidInputException if it is not
     */
    public static String requireId(String id, String what) {
        if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH || id.indexOf('\0') >= 0
                || hasUnpairedSurrogate(id)) {
            throw new InvalidInputException("invalid " + what + ": it must be 1 to " + MAX_ID_LENGTH
                    + " characters without NUL or unpaired surrogates");
        }
        return id;
    }

    /**
     * Whether the text holds a surrogate that is not half of a pair.
     *
     * @param s the text
     * @return true if it holds a lone high or low surrogate
     */
    public static boolean hasUnpairedSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the session is archived.
     *
     * @return true if {@link #archivedAt()} is set
     */
    public boolean archived() {
        return archivedAt != null;
    }

    /**
     * The archive records, or an empty list when there are none or no {@code archives} key. Never null.
     *
     * @return {@link #archives()}, or an empty list when it is null
     */
    public List<ArchiveRecord> archivesOrEmpty() {
        return archives == null ? List.of() : archives;
    }

    /**
     * A builder for a new session: empty transcript, lines, turns and queue, not pinned, no {@code archives} key and
     * no other optional field, created and updated at {@code now}.
     *
     * @param id the session id; checked by {@link Builder#build()}
     * @param now the creation and last-change time
     * @return the builder
     */
    public static Builder builder(String id, Instant now) {
        return new Builder(id, now);
    }

    /**
     * A builder initialised with every field of this session.
     *
     * @return a new builder; building from it does not change this session
     */
    public Builder toBuilder() {
        Builder b = new Builder(id, createdAt);
        b.name = name;
        b.retention = retention;
        b.workspaceId = workspaceId;
        b.pinned = pinned;
        b.archivedAt = archivedAt;
        b.history = history;
        b.messages = messages;
        b.turns = turns;
        b.updatedAt = updatedAt;
        b.model = model;
        b.reasoningEffort = reasoningEffort;
        b.driftEnabled = driftEnabled;
        b.lastContinuePrompt = lastContinuePrompt;
        b.context = context;
        b.archives = archives;
        b.leaseEpoch = leaseEpoch;
        b.lease = lease;
        b.queuedPrompts = queuedPrompts;
        return b;
    }

    /** Builds {@link ChatSession}s. Not thread-safe. */
    public static final class Builder {
        private final String id;
        private final Instant createdAt;
        private String name = "Session";
        private @Nullable String retention;
        private @Nullable String workspaceId;
        private boolean pinned;
        private @Nullable Instant archivedAt;
        private List<ChatMessage> history = List.of();
        private List<ConversationLine> messages = List.of();
        private List<TurnSummary> turns = List.of();
        private Instant updatedAt;
        private @Nullable String model;
        private @Nullable String reasoningEffort;
        private @Nullable Boolean driftEnabled;
        private @Nullable String lastContinuePrompt;
        private @Nullable RawJson context;
        private @Nullable List<ArchiveRecord> archives;
        private @Nullable Long leaseEpoch;
        private @Nullable Lease lease;
        private List<QueuedPrompt> queuedPrompts = List.of();

        private Builder(String id, Instant now) {
            this.id = id;
            this.createdAt = now;
            this.updatedAt = now;
        }

        /**
         * Sets the display name; {@code Session} unless set. Must not be null by {@link #build()}.
         *
         * @param v the name
         * @return this builder
         */
        public Builder name(String v) { this.name = v; return this; }
        /**
         * Sets the retention ({@code reusable} or {@code one_off}; not checked), or null for no key.
         *
         * @param v the retention, or null
         * @return this builder
         */
        public Builder retention(@Nullable String v) { this.retention = v; return this; }
        /**
         * Sets the workspace the session belongs to, or null for no key.
         *
         * @param v the workspace id, or null
         * @return this builder
         */
        public Builder workspaceId(@Nullable String v) { this.workspaceId = v; return this; }
        /**
         * Sets whether the session is pinned; false unless set.
         *
         * @param v whether the session is pinned
         * @return this builder
         */
        public Builder pinned(boolean v) { this.pinned = v; return this; }
        /**
         * Sets when the session was archived, or null for not archived.
         *
         * @param v the archive time, or null
         * @return this builder
         */
        public Builder archivedAt(@Nullable Instant v) { this.archivedAt = v; return this; }
        /**
         * Sets the model-facing transcript; copied by {@link #build()}, which refuses null.
         *
         * @param v the transcript
         * @return this builder
         */
        public Builder history(List<ChatMessage> v) { this.history = v; return this; }
        /**
         * Sets the UI lines; copied by {@link #build()}, which refuses null.
         *
         * @param v the UI lines
         * @return this builder
         */
        public Builder messages(List<ConversationLine> v) { this.messages = v; return this; }
        /**
         * Sets the turn summaries; copied by {@link #build()}, which refuses null.
         *
         * @param v the turn summaries
         * @return this builder
         */
        public Builder turns(List<TurnSummary> v) { this.turns = v; return this; }
        /**
         * Sets the last-change time; the builder's {@code now} unless set. Must not be null by {@link #build()}.
         *
         * @param v the last-change time
         * @return this builder
         */
        public Builder updatedAt(Instant v) { this.updatedAt = v; return this; }
        /**
         * Sets the model in use, or null for no key.
         *
         * @param v the model, or null
         * @return this builder
         */
        public Builder model(@Nullable String v) { this.model = v; return this; }
        /**
         * Sets the reasoning effort ({@code none} to {@code max}; not checked), or null for no key.
         *
         * @param v the reasoning effort, or null
         * @return this builder
         */
        public Builder reasoningEffort(@Nullable String v) { this.reasoningEffort = v; return this; }
        /**
         * Sets the drift detection setting, or null for no key.
         *
         * @param v the drift detection setting, or null
         * @return this builder
         */
        public Builder driftEnabled(@Nullable Boolean v) { this.driftEnabled = v; return this; }
        /**
         * Sets the last continuation prompt, or null for no key.
         *
         * @param v the last continuation prompt, or null
         * @return this builder
         */
        public Builder lastContinuePrompt(@Nullable String v) { this.lastContinuePrompt = v; return this; }
        /**
         * Sets the context and compaction statistics (opaque JSON), or null for no key.
         *
         * @param v the context (opaque JSON), or null
         * @return this builder
         */
        public Builder context(@Nullable RawJson v) { this.context = v; return this; }
        /**
         * The archive records; null for no {@code archives} key, an empty list for {@code "archives": []}.
         *
         * @param v the archive records, or null
         * @return this builder
         */
        public Builder archives(@Nullable List<ArchiveRecord> v) { this.archives = v; return this; }
        /**
         * Sets the last fencing token issued, or null for no key; {@link #build()} refuses a negative one.
         *
         * @param v the last fencing token issued, or null
         * @return this builder
         */
        public Builder leaseEpoch(@Nullable Long v) { this.leaseEpoch = v; return this; }
        /**
         * Sets the current lease, or null for none.
         *
         * @param v the lease, or null
         * @return this builder
         */
        public Builder lease(@Nullable Lease v) { this.lease = v; return this; }
        /**
         * Sets the queued prompts, oldest first; copied by {@link #build()}, which refuses null.
         *
         * @param v the queued prompts, oldest first
         * @return this builder
         */
        public Builder queuedPrompts(List<QueuedPrompt> v) { this.queuedPrompts = v; return this; }

        /**
         * @return a new session
         * @throws InvalidInputException if a field is invalid
         */
        public ChatSession build() {
            return new ChatSession(id, name, retention, workspaceId, pinned, archivedAt, history, messages, turns,
                    createdAt, updatedAt, model, reasoningEffort, driftEnabled, lastContinuePrompt, context, archives,
                    leaseEpoch, lease, queuedPrompts);
        }
    }
}
