package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed {@code remote:} store refuses its calls, as every store does (the {@code Store} contract), without asking
 * the server. Found by a Javadoc audit: its log, catalog and status still reached the server after close.
 */
class RemoteClosedTest {
    static final SessionId SESSION = new SessionId("s1");

    @TempDir
    Path dir;

    @Test
    void closedRemoteStore_refusesEveryCall_andSendsNothing() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             RemoteLastSeqTest.Proxy proxy = new RemoteLastSeqTest.Proxy(served.url(), false)) {
            RemoteStore store = (RemoteStore) Stores.open(TestServers.remote(proxy.url(), dir, ""));
            Store view = store.withScope("other");
            store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(IdGenerator.uuidV7().newEntryId(), null,
                    Instant.now(), Message.user("before close"))), Usage.ZERO);
            store.close();
            int askedBeforeClose = proxy.paths.size();

            assertThatThrownBy(() -> store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(
                    IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("after close"))), Usage.ZERO))
                    .isInstanceOf(UnavailableException.class).hasMessageContaining("closed");
            assertThatThrownBy(() -> store.log().load(SESSION, AgentId.MAIN)).isInstanceOf(UnavailableException.class);
            assertThatThrownBy(() -> store.catalog().orElseThrow().list(null, 10))
                    .isInstanceOf(UnavailableException.class);
            assertThatThrownBy(() -> view.log().load(SESSION, AgentId.MAIN)).isInstanceOf(UnavailableException.class);
            assertThatThrownBy(store::status).isInstanceOf(UnavailableException.class);
            assertThatThrownBy(() -> store.follow(SESSION, 0, e -> true)).isInstanceOf(UnavailableException.class);

            assertThat(proxy.paths).hasSize(askedBeforeClose);
            assertThat(store.stats().fallbacks()).isZero();
            assertThat(served.store().log().load(SESSION, AgentId.MAIN)).singleElement()
                    .satisfies(e -> assertThat(e.message().text()).isEqualTo("before close"));
        }
    }

    /**
     * Found by a review: with writes pending in the journal, a call on the closed store first replayed them, each
     * replay met "closed", and each was filed as refused by the server — a conflict, never replayed again. They stay
     * pending, and the next store replays them.
     */
    @Test
    void closedRemoteStoreWithPendingWrites_keepsThemPending_forTheNextOpen() {
        String remote;
        RemoteStore store;
        try (TestServers.Served first = TestServers.serve("sqlite:" + dir.resolve("first.db"))) {
            remote = TestServers.remote(first.url(), dir, "&parley.timeout=1000");
            store = (RemoteStore) Stores.open(remote);
        }
        store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(IdGenerator.uuidV7().newEntryId(), null,
                Instant.now(), Message.user("fell back"))), Usage.ZERO);
        assertThat(store.stats().pending()).isEqualTo(1);
        store.close();

        assertThatThrownBy(() -> store.log().load(SESSION, AgentId.MAIN)).isInstanceOf(UnavailableException.class);
        assertThatThrownBy(store::sync).isInstanceOf(UnavailableException.class);

        try (TestServers.Served second = TestServers.serve("sqlite:" + dir.resolve("second.db"));
             RemoteStore again = (RemoteStore) Stores.open(TestServers.remote(second.url(), dir, ""))) {
            SyncReport report = again.sync();
            assertThat(report.replayed()).isEqualTo(1);
            assertThat(report.conflicts()).isZero();
            assertThat(again.status().conflicts()).isZero();
            assertThat(second.store().log().load(SESSION, AgentId.MAIN)).singleElement()
                    .satisfies(e -> assertThat(e.message().text()).isEqualTo("fell back"));
        }
    }
}
