package dev.parley.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.StatementCounter;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What an append sends and reads on PostgreSQL: two round trips — its statements sent at once, then the commit — with
 * every case that is not the usual one (a retry, a first append, a conflict, a failed condition) still answered as the
 * contract says; and index reads that do not grow with the session, also before the database has statistics. The
 * statements are counted by wrapping the pool's connections: each {@code execute} is one round trip with pgjdbc.
 */
class AppendPathTest {
    static HikariDataSource pool;
    static final StatementCounter COUNTER = new StatementCounter();

    @BeforeAll
    static void database() {
        pool = TestDatabases.pool(TestDatabases.newEmbeddedDatabase());
    }

    @AfterAll
    static void close() {
        pool.close();
    }

    static final Instant T = Instant.parse("2026-12-02T10:00:00Z");
    static final Usage USAGE = new Usage(10, 20, 0, 0, 0, null);

    static NewEntry entry(String id, String parent) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T,
                Message.assistant(List.of(new ContentBlock.Text(id))));
    }

    @Test
    void append_ofNewEntriesToAStoredSession_executesOneStatementTextBeforeItsCommit() {
        try (PostgresStore store = PostgresStore.open(counting(pool), StoreOptions.defaults())) {
            MessageLog log = store.log();
            SessionId s = new SessionId("trips");
            log.append(s, AgentId.MAIN, List.of(entry("e1", null)), USAGE); // the session's first append

            COUNTER.reset();
            log.append(s, AgentId.MAIN, List.of(entry("e2", "e1")), USAGE);
            assertThat(COUNTER.executed).as("statements executed by a usual append").hasValue(1);

            COUNTER.reset();
            log.appendIfLast(s, AgentId.MAIN, new EntryId("e2"), List.of(entry("e3", "e2"), entry("e4", "e3")),
                    Usage.ZERO);
            assertThat(COUNTER.executed).as("statements executed by a usual conditional append").hasValue(1);

            assertThat(log.load(s, null)).extracting(e -> e.id().value()).containsExactly("e1", "e2", "e3", "e4");
            SessionInfo info = store.catalog().orElseThrow().find(s).orElseThrow();
            assertThat(info.entryCount()).isEqualTo(4);
            assertThat(log.loadUsage(s, AgentId.MAIN)).isEqualTo(USAGE.plus(USAGE));
        }
    }

    @Test
    void append_casesThatAreNotTheUsualOne_answerAsTheContractSaysAndLeaveTheCountsRight() {
        try (PostgresStore store = PostgresStore.open(counting(pool), StoreOptions.defaults())) {
            MessageLog log = store.log();
            SessionId s = new SessionId("unusual");
            store.catalog().orElseThrow().create(new NewSession(s, null, null, Map.of()));
            AppendResult first = log.append(s, AgentId.MAIN, List.of(entry("a1", null)), USAGE);

            // a retry: recognised, nothing written again, usage not added twice
            AppendResult retry = log.append(s, AgentId.MAIN, List.of(entry("a1", null)), USAGE);
            assertThat(retry.entries()).isEqualTo(first.entries());
            assertThat(retry.written()).isZero();
            // a missing parent, and a condition that does not hold: refused, nothing stored
            assertThatThrownBy(() -> log.append(s, AgentId.MAIN, List.of(entry("a2", "nowhere")), USAGE))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("nowhere");
            assertThatThrownBy(() -> log.appendIfLast(s, AgentId.MAIN, new EntryId("stale"),
                    List.of(entry("a2", "a1")), USAGE)).isInstanceOf(LastEntryMovedException.class);

            assertThat(log.load(s, null)).extracting(e -> e.id().value()).containsExactly("a1");
            assertThat(store.catalog().orElseThrow().find(s).orElseThrow().entryCount()).isEqualTo(1);
            assertThat(log.loadUsage(s, AgentId.MAIN)).isEqualTo(USAGE);
        }
    }

    @Test
    void append_toAGrowingSessionOfADatabaseNeverAnalyzed_readsAFewIndexRowsPerAppend() throws Exception {
        int appends = 1_500;
        long rowsRead = indexRowsReadOnANewDatabase(log -> {
            SessionId s = new SessionId("growing");
            EntryId last = null;
            for (int i = 0; i < appends; i++) {
                EntryId id = new EntryId("e" + i);
                log.appendIfLast(s, AgentId.MAIN, last, List.of(entry(id.value(), last == null ? null : last.value())),
                        Usage.ZERO);
                last = id;
            }
        }, appends);
        // Each append reads its parent and the agent's last entry: a row or two each, not the session's rows.
        assertThat(rowsRead).as("index rows read by %d appends", appends).isLessThan(5L * appends);
    }

    @Test
    void append_ofBatchesThatNameManyIdsToADatabaseNeverAnalyzed_readsAFewIndexRowsPerEntry() throws Exception {
        int batches = 250;
        int size = 6; // more than an append sends at once, and 7 ids: the set-membership lookup, not the seeks
        long rowsRead = indexRowsReadOnANewDatabase(log -> {
            SessionId s = new SessionId("batches");
            String parent = null;
            for (int b = 0; b < batches; b++) {
                List<NewEntry> batch = new java.util.ArrayList<>();
                for (int i = 0; i < size; i++) {
                    String id = "b" + b + "-" + i;
                    batch.add(entry(id, parent));
                    parent = id;
                }
                log.append(s, AgentId.MAIN, batch, Usage.ZERO);
            }
        }, batches);
        assertThat(rowsRead).as("index rows read by %d batches of %d", batches, size)
                .isLessThan(5L * batches * size);
    }

    /**
     * Runs {@code appends} on a store over a new database whose entries table is never analyzed, and answers the rows
     * its indexes were read for, from the server's statistics (flushed as the pool's backends exit), once they count at
     * least {@code minScans} scans.
     */
    static long indexRowsReadOnANewDatabase(java.util.function.Consumer<MessageLog> appends, int minScans)
            throws Exception {
        String url = TestDatabases.newEmbeddedDatabase(); // no statistics: PostgreSQL estimates a session at one row
        try (PostgresStore store = (PostgresStore) dev.parley.core.store.Stores.open("postgres:" + url);
             Connection c = java.sql.DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE parley_log_entries SET (autovacuum_enabled = off)"); // it stays never analyzed
            appends.accept(store.log());
        } // the pool's backends exit, and with them their statistics are flushed
        long scans = 0;
        long rowsRead = 0;
        try (Connection c = java.sql.DriverManager.getConnection(url)) {
            for (int wait = 0; wait < 200 && scans < minScans; wait++) {
                try (Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT"
                        + " sum(idx_scan), sum(idx_tup_read), pg_stat_clear_snapshot() FROM pg_stat_user_indexes"
                        + " WHERE relname = 'parley_log_entries'")) {
                    rs.next();
                    scans = rs.getLong(1);
                    rowsRead = rs.getLong(2);
                }
                Thread.sleep(50);
            }
        }
        assertThat(scans).as("index scans of the entries").isGreaterThanOrEqualTo(minScans);
        return rowsRead;
    }

    /** {@code pool}, its connections' statements counted by {@link #COUNTER}. */
    static DataSource counting(DataSource pool) {
        return COUNTER.wrap(DataSource.class, pool);
    }
}
