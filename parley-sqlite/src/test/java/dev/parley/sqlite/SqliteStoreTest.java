package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.Capability;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import dev.parley.jdbc.internal.ScriptMigration;
import dev.parley.json.EntryCodec;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.repository.ArchiveLocators;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** What the SQLite store adds to the kit: its file, its schema versions, v2 files, scopes in one file. */
class SqliteStoreTest {
    @TempDir
    Path dir;

    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");
    static final AgentId AGENT = new AgentId("main");

    // ---- files written by the previous version (schema v2: no scope in the log, ISO times in the records) ----

    /** A v2 file as the previous Parley left it: migrated to v2 by Flyway, rows written with its SQL. */
    static void writeV2File(Path file, List<Entry> entries, ChatSession record, ArchiveRecord archive,
                            List<ChatMessage> archived) throws SQLException {
        String url = "jdbc:sqlite:" + file;
        SqliteSchema.PLAN.configure(dataSource(url)).target("2").load().migrate();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("INSERT INTO sessions (id, created_at, updated_at, title, origin, metadata, entry_count,"
                    + " message_count) VALUES ('old-session', " + T.toEpochMilli() + ", " + (T.toEpochMilli() + 5)
                    + ", 'old ' || char(0) || ' title', 'import:planck', '{\"k\":[1,2.50]}', 3, 3)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO entries (seq, session_id, entry_id,"
                    + " parent_id, agent_id, kind, body) VALUES (?, 'old-session', ?, ?, ?, 'message', ?)")) {
                for (Entry e : entries) {
                    insert.setLong(1, e.seq());
                    insert.setString(2, e.id().value());
                    insert.setString(3, e.parentId() == null ? null : e.parentId().value());
                    insert.setString(4, e.agentId().value());
                    insert.setString(5, EntryCodec.encodeRow(e));
                    insert.executeUpdate();
                }
            }
            // Seqs 4 and 5 were handed out, then truncated away: they must not be handed out again.
            st.execute("UPDATE sqlite_sequence SET seq = 5 WHERE name = 'entries'");
            st.execute("INSERT INTO agent_usage (session_id, agent_id, input, output, cache_read, cache_write,"
                    + " reasoning, cost_usd) VALUES ('old-session', 'main', 10, 20, 3, 4, 5, '0.0123')");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO chat_sessions (scope_id, id, revision,"
                    + " pinned, updated_at, workspace_id, archived, record) VALUES ('tenant', ?, 7, 1, ?, ?, 0, ?)")) {
                insert.setString(1, record.id());
                insert.setString(2, Instants.format(record.updatedAt()));
                insert.setString(3, record.workspaceId());
                insert.setString(4, Json.write(ChatSessionCodec.encode(record)));
                insert.executeUpdate();
            }
            ChatArchiveManifest manifest = ChatArchiveManifest.empty(record.id()).withArchive(archive);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO chat_archive_heads (scope_id, session_id,"
                    + " manifest) VALUES ('tenant', ?, ?)")) {
                insert.setString(1, record.id());
                insert.setString(2, Json.write(ChatArchiveCodec.encodeManifest(manifest)));
                insert.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO chat_archives (scope_id, session_id,"
                    + " archive_id, messages, summary) VALUES ('tenant', ?, ?, ?, 'what happened')")) {
                insert.setString(1, record.id());
                insert.setString(2, archive.id());
                insert.setString(3, ChatSessionCodec.archivedMessagesJsonl(archived));
                insert.executeUpdate();
            }
        }
    }

    @Test
    void open_v2FileOfThePreviousVersion_readsBackEverythingInTheDefaultScope() throws Exception {
        Path file = dir.resolve("v2.db");
        List<Entry> entries = new ArrayList<>();
        EntryId parent = null;
        for (int i = 1; i <= 3; i++) {
            EntryId id = new EntryId("e" + i);
            entries.add(new Entry(i, id, parent, AGENT, T.plusSeconds(i), Message.user("line " + i + " \u0000 😀"),
                    null));
            parent = id;
        }
        ChatSession record = ChatSession.builder("record-1", T).name("kept").workspaceId("ws").pinned(true)
                .history(List.of(ChatMessage.of("user", "hello"))).build();
        ArchiveRecord archive = ArchiveLocators.place(SqliteDialect.LOCATOR_PREFIX, record.id(),
                ArchiveRecord.draft("a1", "first", 2, T, null));
        List<ChatMessage> archived = List.of(ChatMessage.of("user", "one\ntwo"), ChatMessage.of("assistant", "three"));
        writeV2File(file, entries, record, archive, archived);

        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            SessionId s = new SessionId("old-session");
            assertThat(store.log().load(s, null)).isEqualTo(entries);
            SessionInfo info = store.catalog().orElseThrow().find(s).orElseThrow();
            assertThat(info).isEqualTo(new SessionInfo(s, T, T.plusMillis(5), "old \u0000 title", "import:planck", 3,
                    3, Map.of("k", new RawJson("[1,2.50]"))));
            assertThat(store.log().loadUsage(s, AGENT)).isEqualTo(new Usage(10, 20, 3, 4, 5, new BigDecimal("0.0123")));
            Entry next = store.log().append(s, AGENT, List.of(NewEntry.of(new EntryId("e4"), new EntryId("e3"), T,
                    Message.user("after the upgrade")))).get(0);
            assertThat(next.seq()).as("seqs handed out before the upgrade are not reused").isEqualTo(6);

            Store tenant = store.withScope("tenant");
            assertThat(tenant.sessions().orElseThrow().read(record.id()).orElseThrow().session()).isEqualTo(record);
            assertThat(tenant.sessions().orElseThrow().list(new CatalogQuery(null, 10, "ws", null)).items())
                    .extracting(CatalogEntry::id, CatalogEntry::revision, CatalogEntry::updatedAt)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(record.id(), 7L, T));
            assertThat(tenant.archives().orElseThrow().loadManifest(record.id()).archives()).containsExactly(archive);
            assertThat(tenant.archives().orElseThrow().readSummary(archive.summaryPath())).contains("what happened");
            assertThat(store.sessions().orElseThrow().read(record.id())).as("another scope").isEmpty();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT messages FROM parley_chat_archives")) {
                rs.next();
                assertThat(Json.parse(rs.getString(1))).isEqualTo(ChatSessionCodec.encodeArchivedMessages(archived));
            }
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                    + " ('sessions', 'entries', 'agent_usage', 'chat_sessions', 'chat_archive_heads', 'chat_archives')")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the v2 tables are gone").isZero();
            }
        }
    }

    // ---- schema versions and foreign files ----

    @Test
    void open_fileOfANewerParley_isRefusedAndLeftAlone() throws Exception {
        Path file = dir.resolve("newer.db");
        SqliteStore.open(file, StoreOptions.defaults()).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("INSERT INTO parley_schema_history (installed_rank, version, description, type, script,"
                    + " installed_by, execution_time, success) VALUES (100, '99', 'from the future', 'SQL', 'V99',"
                    + " 'test', 0, 1)");
        }
        assertThatThrownBy(() -> Stores.open("sqlite:" + file)).isInstanceOf(UnsupportedException.class)
                .hasMessageContaining("schema version 99");
        org.sqlite.SQLiteDataSource dataSource = new org.sqlite.SQLiteDataSource();
        dataSource.setUrl("jdbc:sqlite:" + file);
        assertThat(SqliteSchema.installedVersion(dataSource, "test")).isEqualTo(99);
    }

    @Test
    void open_databaseOfAnotherApplication_isRefusedUntouched() throws Exception {
        Path file = dir.resolve("foreign.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
        }
        assertThatThrownBy(() -> Stores.open("sqlite:" + file)).isInstanceOf(UnsupportedException.class)
                .hasMessageContaining("another application").hasMessageContaining("invoices");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT group_concat(name) FROM sqlite_master WHERE type = 'table'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("invoices");
        }
    }

    @Test
    void open_directory_isInvalidInputNamingTheJsonlStore() {
        assertThatThrownBy(() -> Stores.open("sqlite:" + dir)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("jsonl:");
    }

    static DataSource dataSource(String url) {
        SQLiteDataSource ds = new SQLiteDataSource();
        ds.setUrl(url);
        return ds;
    }

    @Test
    void currentVersion_isTheNewestMigrationFlywayFinds() {
        MigrationInfo[] found = SqliteSchema.PLAN.configure(dataSource("jdbc:sqlite:" + dir.resolve("versions.db")))
                .load().info().all();
        assertThat(found).isNotEmpty();
        assertThat(found[found.length - 1].getVersion().getVersion())
                .isEqualTo(Integer.toString(SqliteSchema.CURRENT_VERSION));
    }

    /**
     * v3 was the SQL file {@code V3__scoped_tables.sql} (Flyway's checksum 198996442) before the tables were shared:
     * its script migration is recorded exactly as that file was, so a file migrated by either Parley validates under
     * both; and the shared text is pinned, since a database that ran it would fail validation after any edit.
     */
    @Test
    void v3_isRecordedAsTheFormerSqlFile_andItsTextIsPinned() throws Exception {
        ScriptMigration v3 = SqliteSchema.PLAN.scripts().get(0);
        assertThat(v3.getVersion().getVersion()).isEqualTo("3");
        assertThat(v3.contentChecksum()).as("the released text of v3: never edit it, add a migration")
                .isEqualTo(V3_TEXT_CHECKSUM);
        Path file = dir.resolve("fresh.db");
        Stores.open("sqlite:" + file).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version, description, type, checksum FROM parley_schema_history"
                     + " WHERE version = '3'")) {
            assertThat(rs.next()).isTrue();
            assertThat(List.of(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)))
                    .containsExactly("3", "scoped tables", "SQL", 198_996_442);
        }
    }

    static final int V3_TEXT_CHECKSUM = -774_116_237;

    /** A file at v3 whose history row of v3 was written by the former SQL file (its script name) and has checksum. */
    static String v3FileWithHistoryOfTheFormerFile(Path file, int checksum) throws SQLException {
        String url = "jdbc:sqlite:" + file;
        SqliteSchema.PLAN.configure(dataSource(url)).target("3").load().migrate();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("UPDATE parley_schema_history SET script = 'V3__scoped_tables.sql', checksum = " + checksum
                    + " WHERE version = '3'");
        }
        return url;
    }

    /**
     * A build tree from before the shared tables keeps the former {@code V3__scoped_tables.sql} in its compiled
     * resources (an incremental build does not delete it; this module's test resources hold such a copy): a new file
     * still migrates, instead of failing with "more than one migration with version 3".
     */
    @Test
    void open_withTheFormerV3FileLeftInTheBuildTree_migrates() throws Exception {
        assertThat(getClass().getClassLoader().getResource("dev/parley/sqlite/migration/V3__scoped_tables.sql"))
                .as("the stale copy is on the class path").isNotNull();
        Path file = dir.resolve("after-an-incremental-build.db");
        Stores.open("sqlite:" + file).close();
        assertThat(SqliteSchema.inspect(file, "test")).isEqualTo(SqliteSchema.CURRENT_VERSION);
    }

    @Test
    void open_v3FileMigratedByTheFormerSqlFile_isMigratedToTheCurrentVersion() throws Exception {
        Path file = dir.resolve("former-v3.db");
        v3FileWithHistoryOfTheFormerFile(file, 198_996_442);
        try (Store store = Stores.open("sqlite:" + file)) {
            store.log().append(new SessionId("s"), AGENT, List.of(NewEntry.of(new EntryId("e1"), null, T,
                    Message.user("after the upgrade"))));
        }
        assertThat(SqliteSchema.inspect(file, "test")).isEqualTo(SqliteSchema.CURRENT_VERSION);
    }

    @Test
    void open_v3FileWhoseHistoryHasAnotherChecksum_failsValidationAndKeepsItsHistory() throws Exception {
        Path file = dir.resolve("edited-v3.db");
        String url = v3FileWithHistoryOfTheFormerFile(file, 12345);
        assertThatThrownBy(() -> Stores.open("sqlite:" + file)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("checksum mismatch").hasMessageContaining("version 3");
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT checksum FROM parley_schema_history WHERE version = '3'")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(12345);
        }
    }

    // ---- the store root ----

    @Test
    void open_declaresEveryCapabilityAndWalWithFullSync() throws Exception {
        Path file = dir.resolve("caps.db");
        try (Store store = Stores.open("sqlite:" + file)) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(Capability.values());
            assertThat(store.scope()).isEqualTo(Store.DEFAULT_SCOPE);
            assertThat(((SqliteStore) store).file()).isEqualTo(file.toAbsolutePath());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
        }
    }

    @Test
    void deleteScope_removesEveryRowOfTheScopeAndNothingElse() throws Exception {
        Path file = dir.resolve("scopes.db");
        SessionId s = new SessionId("s1");
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults().withScope("a"))) {
            for (Store scoped : List.of(store, store.withScope("b"))) {
                scoped.catalog().orElseThrow().create(NewSession.of(new SessionId("empty")));
                scoped.log().append(s, AGENT, List.of(NewEntry.of(new EntryId("e1"), null, T, Message.user("x"))),
                        Usage.of(1, 2));
                scoped.sessions().orElseThrow().create(ChatSession.builder("r1", T).build());
                scoped.archives().orElseThrow().append(new dev.parley.core.repository.ArchiveAppend("r1",
                        ArchiveRecord.draft("a1", null, 1, T, null), List.of(ChatMessage.of("user", "x")), "sum"));
            }
            store.withScope("b").deleteScope();
            assertThat(rowsPerScope(file)).isEqualTo(Map.of("a", 7L));
            assertThat(store.log().load(s, null)).hasSize(1);
            assertThat(store.withScope("b").log().load(s, null)).isEmpty();
        }
    }

    /** Rows of every Parley table, counted per scope. */
    static Map<String, Long> rowsPerScope(Path file) throws SQLException {
        Map<String, Long> counts = new java.util.TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            for (String table : List.of("parley_log_sessions", "parley_log_entries", "parley_log_usage",
                    "parley_chat_sessions", "parley_chat_archive_heads", "parley_chat_archives")) {
                try (ResultSet rs = st.executeQuery("SELECT scope_id, count(*) FROM " + table + " GROUP BY scope_id")) {
                    while (rs.next()) {
                        counts.merge(rs.getString(1), rs.getLong(2), Long::sum);
                    }
                }
            }
        }
        return counts;
    }

    @Test
    void withScope_onAUriThatPinsTheScope_isRefused() {
        try (Store store = Stores.open("sqlite:" + dir.resolve("pinned.db") + "?parley.scope=tenant-7")) {
            assertThat(store.scope()).isEqualTo("tenant-7");
            assertThatThrownBy(() -> store.withScope("other")).isInstanceOf(InvalidInputException.class);
        }
    }

    @Test
    void closedStore_failsEveryViewWithUnavailable() {
        SqliteStore store = SqliteStore.open(dir.resolve("closed.db"), StoreOptions.defaults());
        Store view = store.withScope("other");
        store.close();
        store.close();
        assertThatThrownBy(() -> view.log().load(new SessionId("s"), null)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void append_sameBatchFromTwoConnections_storesItOnce() throws Exception {
        Path file = dir.resolve("retry.db");
        SessionId s = new SessionId("s1");
        List<NewEntry> batch = List.of(NewEntry.of(new EntryId("e1"), null, T, Message.user("one")),
                NewEntry.of(new EntryId("e2"), new EntryId("e1"), T, Message.user("two")));
        try (SqliteStore first = SqliteStore.open(file, StoreOptions.defaults());
             SqliteStore second = SqliteStore.open(file, StoreOptions.defaults())) {
            var a = first.log().append(s, AGENT, batch, Usage.of(5, 5));
            var b = second.log().append(s, AGENT, batch, Usage.of(5, 5));
            assertThat(a.written()).isEqualTo(2);
            assertThat(b.written()).isZero();
            assertThat(b.entries()).isEqualTo(a.entries());
            assertThat(first.log().loadUsage(s, AGENT)).as("the retry's usage is not counted").isEqualTo(Usage.of(5, 5));
        }
    }
}
