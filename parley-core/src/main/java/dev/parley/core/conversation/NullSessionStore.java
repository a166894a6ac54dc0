package dev.parley.core.conversation;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * panto's {@code NullStore}: for embedders who opt out of persistence. Appends are accepted and forgotten, the
 * conversation is always empty with no dangling prompt, the active model is unknown, the session id is fixed.
 * Thread-safe (stateless).
 */
public final class NullSessionStore implements SessionStore {
    /** The fixed id the null store reports. */
    public static final SessionId NULL_SESSION = new SessionId("null");

    private final SessionId session;

    /** A null store reporting {@link #NULL_SESSION}. */
    public NullSessionStore() {
        this(NULL_SESSION);
    }

    /** A null store reporting the given id. */
    public NullSessionStore(SessionId session) {
        this.session = Objects.requireNonNull(session, "session");
    }

    /** Returns an empty list: nothing is stored, so there are no stored entries to return. */
    @Override
    public List<Entry> appendMessages(List<Message> messages) {
        return List.of();
    }

    /** Returns an empty list: nothing is stored. */
    @Override
    public List<Entry> appendEntries(List<? extends EntryPayload> payloads) {
        return List.of();
    }

    @Override
    public LoadedConversation loadConversation(ConversationOptions options) {
        return LoadedConversation.empty(session);
    }

    @Override
    public SessionId sessionId() {
        return session;
    }

    @Override
    public Optional<ModelRef> activeModel() {
        return Optional.empty();
    }

    @Override
    public @Nullable EntryId leaf() {
        return null;
    }

    /** Does nothing: nothing is stored. */
    @Override
    public void recordUsage(dev.parley.core.model.Usage usage) {
        // nothing stored
    }

    /** Does nothing: there is nothing stored to remove. */
    @Override
    public void truncateAfter(EntryId entry) {
        // nothing stored
    }

    /** Accepts only null: the null store has no entries to continue from. */
    @Override
    public void moveLeaf(@Nullable EntryId entry) {
        if (entry != null) {
            throw new dev.parley.core.NotFoundException("the null store has no entry " + entry);
        }
    }
}
