package dev.parley.core.conversation;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Message;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What {@link AgentSession#loadConversation} returns: panto's {@code LoadedSession{conversation, dangling_user}},
 * with what a resuming agent also needs.
 *
 * @param session the session
 * @param items the conversation: the linear path from the root (or the latest compaction) to the leaf, as
 *     messages, <em>without</em> the dangling user prompt
 * @param danglingUser the trailing user message that has no reply (a crash or quit right after submission), or
 *     null; it is never part of {@code items}, so a resumed agent cannot re-send it by accident
 * @param danglingUserEntry the entry holding {@code danglingUser}, or null
 * @param leaf the entry the conversation ends at (the dangling prompt's entry when there is one), or null for an
 *     empty log
 * @param path the ids of every entry on the path from the root to {@code leaf}, in order (including entries that
 *     contribute no message: compactions, labels, model changes)
 * @param repairs the changes the load made to be provider-valid, in order; empty when the orphan policy is
 *     {@link OrphanPolicy#KEEP} and {@link ConversationOptions#repairTurns()} is false (as in
 *     {@link ConversationOptions#AS_WRITTEN})
 * @param activeModel the model in force at the leaf: the last model change on the path, or the model stamped on a
 *     later message that is not a tool result; null when none names one
 */
public record LoadedConversation(SessionId session, List<ConversationItem> items, @Nullable Message danglingUser,
                                 @Nullable EntryId danglingUserEntry, @Nullable EntryId leaf, List<EntryId> path,
                                 List<Repair> repairs, @Nullable ModelRef activeModel) {
    /**
     * Copies {@code items}, {@code path} and {@code repairs} into unmodifiable lists. Does not check that the values
     * agree with each other (that {@code leaf} ends {@code path}, say).
     *
     * @param session the session
     * @param items the conversation, without the dangling user prompt; copied
     * @param danglingUser the trailing user message that has no reply, or null
     * @param danglingUserEntry the entry holding {@code danglingUser}, or null
     * @param leaf the entry the conversation ends at, or null for an empty log
     * @param path the ids of every entry on the path from the root to {@code leaf}, in order; copied
     * @param repairs the changes the load made to be provider-valid, in order; copied
     * @param activeModel the model in force at the leaf, or null
     * @throws NullPointerException if {@code session}, {@code items}, {@code path} or {@code repairs} is null, or one
     *     of the lists holds a null
     */
    public LoadedConversation {
        Objects.requireNonNull(session, "session");
        items = List.copyOf(items);
        path = List.copyOf(path);
        repairs = List.copyOf(repairs);
    }

    /**
     * An empty conversation of the session.
     *
     * @param session the session
     * @return a conversation with no items, no dangling prompt, no leaf, an empty path, no repairs and no model
     */
    public static LoadedConversation empty(SessionId session) {
        return new LoadedConversation(session, List.of(), null, null, null, List.of(), List.of(), null);
    }

    /**
     * The conversation's messages, in order.
     *
     * @return the message of each item, in an unmodifiable list; empty for an empty conversation
     */
    public List<Message> messages() {
        return items.stream().map(ConversationItem::message).toList();
    }

    /**
     * The dangling user prompt, if any.
     *
     * @return {@link #danglingUser()}, or empty when it is null
     */
    public Optional<Message> dangling() {
        return Optional.ofNullable(danglingUser);
    }

    /**
     * The entry a new message continues from: the conversation's last entry, which is the dangling prompt's parent
     * when there is a dangling prompt (so an edited prompt becomes its sibling), or null for an empty log.
     *
     * @return the entry id, or null (an empty log, or a dangling prompt that is a root)
     */
    public @Nullable EntryId continueFrom() {
        if (danglingUserEntry == null) {
            return leaf;
        }
        int at = path.indexOf(danglingUserEntry);
        return at > 0 ? path.get(at - 1) : null;
    }
}
