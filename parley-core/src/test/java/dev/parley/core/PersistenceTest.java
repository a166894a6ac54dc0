package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.log.FlushResult;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.Persistence;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.MemoryStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class PersistenceTest {
    static final AgentId A = new AgentId("agent");

    /** A backend that counts every call: an ephemeral agent must never reach it. */
    static final class CountingLog implements MessageLog {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
            calls.incrementAndGet();
            return new AppendResult(List.of(), 0);
        }

        @Override
        public List<Entry> load(SessionId session, @Nullable AgentId agent) {
            calls.incrementAndGet();
            return List.of();
        }

        @Override
        public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
            calls.incrementAndGet();
            return Optional.empty();
        }

        @Override
        public void truncateAfter(SessionId session, EntryId entry) {
            calls.incrementAndGet();
        }

        @Override
        public Usage loadUsage(SessionId session, AgentId agent) {
            calls.incrementAndGet();
            return Usage.ZERO;
        }

        @Override
        public void close() {}
    }

    @Test
    void ephemeralAgent_neverReachesTheBackend() {
        CountingLog log = new CountingLog();
        Persistence p = new Persistence(log, IdGenerator.uuidV7());
        assertThat(p.persistMessage(null, A, Message.user("x"))).isEmpty();
        assertThat(p.persistMessages(null, A, List.of(Message.user("x")))).isEmpty();
        p.persistUsage(null, A, Usage.of(1, 2));
        assertThat(p.loadMessages(null, A)).isEmpty();
        assertThat(p.flushUnpersisted(null, A, List.of(NewEntry.of(new EntryId("q"), null, null,
                Message.user("queued"))))).isEqualTo(FlushResult.NOOP);
        assertThat(log.calls).hasValue(0);
        assertThatThrownBy(() -> p.truncateAfter(null, new EntryId("e"))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void persistMessages_chainsParentsAndReturnsSeqs() {
        MessageLog log = MemoryStore.open().log();
        Persistence p = new Persistence(log, IdGenerator.uuidV7());
        SessionId s = new SessionId("s1");
        Entry first = p.persistMessage(s, A, Message.user("one")).orElseThrow();
        List<Entry> next = p.persistMessages(s, A, List.of(Message.user("two"), Message.user("three")));
        assertThat(first.parentId()).isNull();
        assertThat(next.get(0).parentId()).isEqualTo(first.id());
        assertThat(next.get(1).parentId()).isEqualTo(next.get(0).id());
        assertThat(p.flushUnpersisted(s, A, List.of())).isEqualTo(FlushResult.NOOP);
        assertThat(p.flushUnpersisted(s, A, List.of(NewEntry.of(new EntryId("four"), next.get(1).id(), null,
                Message.user("four"))))).isEqualTo(FlushResult.FLUSHED);
        assertThat(p.loadMessages(s, A)).extracting(e -> e.message().text()).containsExactly("one", "two", "three", "four");
        assertThat(p.loadSessionMessages(s)).hasSize(4);
    }

    /** Regression: flushing messages that were already stored wrote them a second time (4 became 6) and said FLUSHED. */
    @Test
    void flushUnpersisted_alreadyStoredMessages_writesNothingAndAnswersNoop() {
        MemoryStore store = MemoryStore.open();
        Persistence p = new Persistence(store.log(), IdGenerator.uuidV7());
        SessionId s = new SessionId("s2");
        List<Entry> stored = p.persistMessages(s, A, List.of(Message.user("one"), Message.user("two"),
                Message.user("three"), Message.user("four")));
        List<NewEntry> again = List.of(stored.get(2).toNewEntry(), stored.get(3).toNewEntry());

        assertThat(p.flushUnpersisted(s, A, again)).isEqualTo(FlushResult.NOOP);
        assertThat(p.loadMessages(s, A)).hasSize(4);

        NewEntry queued = NewEntry.of(new EntryId("five"), stored.get(3).id(), null, Message.user("five"));
        assertThat(p.flushUnpersisted(s, A, List.of(stored.get(3).toNewEntry(), queued))).isEqualTo(FlushResult.FLUSHED);
        assertThat(p.loadMessages(s, A)).extracting(e -> e.message().text())
                .containsExactly("one", "two", "three", "four", "five");
    }

    @Test
    void uuidV7_isTimeOrderedAndVersioned() {
        java.util.Random r = new java.util.Random(1);
        java.util.UUID a = IdGenerator.uuidV7(1_000, r);
        java.util.UUID b = IdGenerator.uuidV7(2_000, r);
        assertThat(a.version()).isEqualTo(7);
        assertThat(a.variant()).isEqualTo(2);
        assertThat(a.toString()).isLessThan(b.toString());
    }
}
