package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.StoreOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema v5: seqs are never reused although no counter row is rewritten per insert — the floor kept by the delete
 * trigger takes the counter's place wherever the newest entries leave.
 */
class SeqFloorTest {
    static final AgentId AGENT = new AgentId("main");
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");

    @TempDir
    Path dir;

    static SqliteStore open(Path file) {
        return SqliteStore.open(file, StoreOptions.defaults());
    }

    static long append(MessageLog log, String session, String id) {
        return log.append(new SessionId(session), AGENT, List.of(NewEntry.of(new EntryId(id), null, T,
                Message.user(id)))).get(0).seq();
    }

    @Test
    void append_afterTheNewestEntriesWereTruncated_takesASeqAboveThem() {
        try (SqliteStore store = open(dir.resolve("t.db"))) {
            MessageLog log = store.log();
            append(log, "s", "a");
            append(log, "s", "b");
            long newest = append(log, "s", "c");
            log.truncateAfter(new SessionId("s"), new EntryId("a"));
            assertThat(append(log, "s", "d")).isGreaterThan(newest);
        }
        try (SqliteStore store = open(dir.resolve("t.db"))) { // and reopened
            assertThat(append(store.log(), "s", "e")).isEqualTo(5);
        }
    }

    @Test
    void append_afterTheSessionHoldingTheNewestEntriesWasDeleted_takesASeqAboveThem() {
        try (SqliteStore store = open(dir.resolve("d.db"))) {
            MessageLog log = store.log();
            append(log, "kept", "a");
            append(log, "gone", "b");
            long newest = append(log, "gone", "c");
            store.catalog().orElseThrow().delete(new SessionId("gone")); // its entries leave by the cascade
            assertThat(append(log, "kept", "d")).isGreaterThan(newest);
        }
    }

    @Test
    void insertOfAWriterOfAnEarlierSchema_isRefusedRatherThanReuseASeq() throws Exception {
        Path file = dir.resolve("old.db");
        try (SqliteStore store = open(file)) {
            append(store.log(), "s", "a");
            append(store.log(), "s", "b");
            store.log().truncateAfter(new SessionId("s"), new EntryId("a")); // seq 2 is gone, and must stay unused
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            // what a v4 writer sends: no seq, which SQLite would make max(seq) + 1 = 2
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO parley_log_entries (scope_id, session_id,"
                    + " entry_id, parent_id, agent_id, kind, body) VALUES ('default', 's', 'c', NULL, 'main',"
                    + " 'message', '{}')")).isInstanceOf(SQLException.class).hasMessageContaining("seq must be above");
        }
        try (SqliteStore store = open(file)) {
            assertThat(append(store.log(), "s", "c")).isEqualTo(3);
        }
    }

    @Test
    void append_rewritesNoCounterRow() throws Exception {
        Path file = dir.resolve("c.db");
        try (SqliteStore store = open(file)) {
            append(store.log(), "s", "a");
            append(store.log(), "s", "b");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT sql FROM sqlite_master WHERE name = 'parley_log_entries'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).doesNotContainIgnoringCase("AUTOINCREMENT");
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_sequence"
                    + " WHERE name LIKE 'parley_log_entries%'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }
}
