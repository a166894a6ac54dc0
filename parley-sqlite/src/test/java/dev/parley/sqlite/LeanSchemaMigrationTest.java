package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schemas v4 and v5 (the lean message log): a v3 file is migrated with every entry, seq and the seq counter kept, and the indexes an append needs stay. */
class LeanSchemaMigrationTest {
    static final AgentId AGENT = new AgentId("main");
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");

    @TempDir
    Path dir;

    /** A v3 file written through the store's own SQL of that version: three entries, then a truncated fourth. */
    static List<Entry> writeV3File(Path file) throws SQLException {
        String url = "jdbc:sqlite:" + file;
        SqliteSchema.PLAN.configure(SqliteStoreTest.dataSource(url)).target("3").load().migrate();
        List<Entry> entries = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("INSERT INTO parley_log_sessions (scope_id, id, created_at, updated_at, entry_count,"
                    + " message_count) VALUES ('default', 'old', 1, 2, 3, 3)");
            EntryId parent = null;
            for (int seq = 1; seq <= 3; seq++) {
                EntryId id = new EntryId("e" + seq);
                Entry e = new Entry(seq, id, parent, AGENT, T, Message.user("line " + seq), null);
                try (var insert = c.prepareStatement("INSERT INTO parley_log_entries (seq, scope_id, session_id,"
                        + " entry_id, parent_id, agent_id, kind, body) VALUES (?, 'default', 'old', ?, ?, 'main',"
                        + " 'message', ?)")) {
                    insert.setLong(1, seq);
                    insert.setString(2, id.value());
                    insert.setString(3, parent == null ? null : parent.value());
                    insert.setString(4, dev.parley.json.EntryCodec.encodeRow(e));
                    insert.executeUpdate();
                }
                entries.add(e);
                parent = id;
            }
            // A fourth entry was appended and truncated away: its seq (4) must never be handed out again.
            st.execute("UPDATE sqlite_sequence SET seq = 4 WHERE name = 'parley_log_entries'");
        }
        return entries;
    }

    @Test
    void open_v3File_migratesToTheCurrentVersionKeepingEntriesSeqsAndTheSeqCounter() throws Exception {
        Path file = dir.resolve("v3.db");
        List<Entry> before = writeV3File(file);

        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            MessageLog log = store.log();
            SessionId old = new SessionId("old");
            assertThat(log.load(old, null)).isEqualTo(before);
            assertThat(log.load(old, AGENT)).isEqualTo(before);
            assertThat(log.lastEntry(old, AGENT)).contains(before.get(2));
            Entry next = log.appendIfLast(old, AGENT, new EntryId("e3"), List.of(NewEntry.of(new EntryId("e5"),
                    new EntryId("e3"), T, Message.user("after the upgrade"))), dev.parley.core.model.Usage.ZERO)
                    .entries().get(0);
            assertThat(next.seq()).isEqualTo(5);
            log.truncateAfter(old, new EntryId("e1"));
            assertThat(log.load(old, null)).extracting(Entry::id).containsExactly(new EntryId("e1"));
        }
        assertThat(SqliteSchema.inspect(file, "sqlite:" + file)).isEqualTo(SqliteSchema.CURRENT_VERSION);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            List<String> indexes = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'index'"
                    + " AND tbl_name = 'parley_log_entries' AND sql IS NOT NULL")) {
                while (rs.next()) {
                    indexes.add(rs.getString(1));
                }
            }
            assertThat(indexes).containsExactlyInAnyOrder("parley_log_entries_by_session", "parley_log_entries_by_agent");
            List<String> references = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("PRAGMA foreign_key_list(parley_log_entries)")) {
                while (rs.next()) {
                    references.add(rs.getString("table"));
                }
            }
            assertThat(references).containsOnly("parley_log_sessions");
        }
    }

    @Test
    void agentsNewestEntry_isFoundThroughTheAgentIndex_notByWalkingTheSession() throws Exception {
        // The check of appendIfLast reads the agent's newest entry under the write lock. Without the agent index
        // SQLite walks the session's rows newest first until one of that agent's: an orchestrator appending after its
        // workers' 100,000 entries would pay for all of them on every append.
        Path file = dir.resolve("fresh.db");
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            store.log().append(new SessionId("s"), AGENT, List.of(NewEntry.of(new EntryId("a"), null, T,
                    Message.user("hello"))));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("EXPLAIN QUERY PLAN SELECT entry_id FROM parley_log_entries"
                     + " WHERE scope_id = 'default' AND session_id = 's' AND agent_id = 'main'"
                     + " ORDER BY seq DESC LIMIT 1")) {
            List<String> plan = new ArrayList<>();
            while (rs.next()) {
                plan.add(rs.getString("detail"));
            }
            assertThat(plan).containsExactly(
                    "SEARCH parley_log_entries USING INDEX parley_log_entries_by_agent"
                            + " (scope_id=? AND session_id=? AND agent_id=?)");
        }
    }
}
