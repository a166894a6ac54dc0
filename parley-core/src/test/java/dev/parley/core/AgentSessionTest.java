package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.ForwardingMessageLog;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Two handles on one conversation (issue 14, break 6: concurrent {@code parley chat} forked a session silently), and
 * what a handle's leaf is after a call that changed the log.
 */
class AgentSessionTest {

    @Test
    void appendMessages_twoHandlesAtTheSameTip_continueOneLineInsteadOfForking() {
        try (Store store = Stores.open("memory:")) {
            SessionId s = new SessionId("chat");
            AgentSession first = new AgentSession(store.log(), s, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC());
            first.appendMessages(List.of(Message.user("hello")));
            AgentSession a = new AgentSession(store.log(), s, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC());
            AgentSession b = new AgentSession(store.log(), s, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC());

            a.appendMessages(List.of(Message.user("from a")));
            b.appendMessages(List.of(Message.user("from b")));   // b still holds "hello" as its leaf

            List<Entry> all = store.log().load(s, null);
            assertThat(all).hasSize(3);
            assertThat(all.get(1).parentId()).isEqualTo(all.get(0).id());
            assertThat(all.get(2).parentId()).as("b continues after a's entry, not beside it").isEqualTo(all.get(1).id());
            assertThat(b.leaf()).isEqualTo(all.get(2).id());
        }
    }

    /**
     * truncateAfter read the agent's newest entry after truncating, so a read that failed there reported the call failed
     * although the log had truncated and the leaf had moved.
     */
    @Test
    void truncateAfter_aReadFailingAfterTheTruncation_doesNotFailTheCall_andTheNextAppendContinuesFromTheEntry() {
        try (Store store = Stores.open("memory:")) {
            SessionId s = new SessionId("rewind");
            AtomicBoolean failReads = new AtomicBoolean();
            MessageLog log = new ForwardingMessageLog(store.log()) {
                @Override
                public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
                    if (failReads.get()) {
                        throw new UnavailableException("the log stopped answering after the truncation", null);
                    }
                    return super.lastEntry(session, agent);
                }
            };
            AgentSession chat = new AgentSession(log, s, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC());
            List<Entry> written = chat.appendMessages(List.of(Message.user("one"), Message.text(Role.ASSISTANT, "two"),
                    Message.user("three")));
            EntryId kept = written.get(1).id();

            failReads.set(true);
            chat.truncateAfter(kept);

            assertThat(chat.leaf()).isEqualTo(kept);
            assertThat(store.log().load(s, null)).extracting(Entry::id).containsExactly(written.get(0).id(), kept);
            failReads.set(false);
            List<Entry> next = chat.appendMessages(List.of(Message.user("three, again")));
            assertThat(next.get(0).parentId()).isEqualTo(kept);
            assertThat(store.log().load(s, null)).hasSize(3);
        }
    }

    /**
     * After a truncation the handle took null for "the agent's newest entry is not known yet", which also means "the
     * agent has none": with the leaf then moved to null, the next append counted as at the tip and was chained after
     * the agent's newest entry instead of starting a new root (found by a review of the fix above).
     */
    @Test
    void truncateAfter_thenMoveLeafToNull_theNextAppendStartsANewRoot() {
        try (Store store = Stores.open("memory:")) {
            SessionId s = new SessionId("rewind-then-restart");
            AgentSession chat = new AgentSession(store.log(), s, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC());
            List<Entry> written = chat.appendMessages(List.of(Message.user("one"), Message.text(Role.ASSISTANT, "two"),
                    Message.user("three")));
            chat.truncateAfter(written.get(1).id());
            chat.moveLeaf(null);

            List<Entry> restart = chat.appendMessages(List.of(Message.user("start over")));

            assertThat(restart.get(0).parentId()).isNull();
            assertThat(chat.leaf()).isEqualTo(restart.get(0).id());
        }
    }
}
