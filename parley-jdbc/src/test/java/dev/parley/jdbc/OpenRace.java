package dev.parley.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * First opens of a new store racing each other (issue 14, break 2: "Unable to baseline schema history table"), for
 * the SQLite and PostgreSQL backends' open tests: six threads, released at once by one latch, each open the same new
 * store and append one entry; every open must succeed, and the six entries must be read back.
 */
public final class OpenRace {
    /** How many first opens race each other in a round. */
    public static final int OPENS = 6;

    private OpenRace() {}

    /**
     * Runs {@code rounds} rounds of the race, each on a store of its own.
     *
     * @param newStore the URI of a new store that no one has opened yet, for the given round
     */
    public static void firstOpensOnNewStores(int rounds, IntFunction<String> newStore) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(OPENS);
        try {
            for (int round = 0; round < rounds; round++) {
                String uri = newStore.apply(round);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> opens = new ArrayList<>();
                for (int i = 0; i < OPENS; i++) {
                    String id = "e" + i;
                    opens.add(pool.submit(() -> {
                        go.await();
                        try (Store store = Stores.open(uri)) {
                            store.log().append(new SessionId("s"), AgentId.MAIN, List.of(NewEntry.of(new EntryId(id),
                                    null, null, Message.user("hello"))));
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : opens) {
                    f.get();
                }
                try (Store store = Stores.open(uri)) {
                    assertThat(store.log().load(new SessionId("s"), null)).as("round %d: %s", round, uri)
                            .hasSize(OPENS);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
