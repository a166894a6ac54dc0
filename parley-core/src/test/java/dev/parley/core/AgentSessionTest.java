package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.conversation.AgentSession;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two handles on one conversation (issue 14, break 6: concurrent {@code parley chat} forked a session silently). */
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
}
