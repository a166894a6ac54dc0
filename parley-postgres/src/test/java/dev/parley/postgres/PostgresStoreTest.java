package dev.parley.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.NewSession;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreUri;
import dev.parley.core.store.Stores;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What PostgreSQL adds to the kit: text it refuses, schema versions, the store URI, a dead server. */
class PostgresStoreTest {
    static String url;
    static HikariDataSource pool;

    @BeforeAll
    static void database() {
        url = TestDatabases.newEmbeddedDatabase();
        pool = TestDatabases.pool(url);
    }

    @AfterAll
    static void close() {
        pool.close();
    }

    static final String NASTY = "a\u0000b \uE000 c\uE0000 \uE000\uE000 \u0000\u0000 😀";

    @Test
    void store_textPostgresCannotHold_roundTripsExactly() {
        Instant t = Instant.parse("2026-02-01T10:00:00.123Z");
        try (Store store = Stores.open("postgres:" + url)) {
            SessionId s = new SessionId("nul-session");
            store.catalog().orElseThrow().create(new NewSession(s, NASTY, NASTY, Map.of()));
            store.log().append(s, AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, t, Message.user(NASTY)),
                    NewEntry.of(new EntryId("e2"), new EntryId("e1"), t, Message.user("lone \ud800 surrogate"))));

            assertThat(store.log().load(s, null)).extracting(e -> ((Message) e.payload()).text())
                    .containsExactly(NASTY, "lone \ud800 surrogate");
            assertThat(store.catalog().orElseThrow().find(s).orElseThrow().title()).isEqualTo(NASTY);
            assertThat(store.catalog().orElseThrow().findByOrigin(NASTY)).hasSize(1);

            Store scoped = store.withScope("s");
            ChatSessionRepository records = scoped.sessions().orElseThrow();
            ChatArchiveRepository archives = scoped.archives().orElseThrow();
            ChatSession record = ChatSession.builder("r1", t).name(NASTY).workspaceId(NASTY)
                    .history(List.of(ChatMessage.of("user", NASTY))).build();
            records.create(record);
            records.create(ChatSession.builder("r2", t).name("other").workspaceId("a\uE000b").build());
            assertThat(records.read("r1").orElseThrow().session()).isEqualTo(record);
            assertThat(records.list(new CatalogQuery(null, 10, NASTY, null)).items())
                    .extracting(e -> e.id()).containsExactly("r1");
            ArchiveAppend.Result archived = archives.append(new ArchiveAppend("r1",
                    ArchiveRecord.draft("a1", NASTY, 1, t, null), List.of(ChatMessage.of("user", NASTY)), NASTY));
            assertThat(archives.readSummary(archived.archive().summaryPath())).contains(NASTY);
            // Ids PostgreSQL cannot hold are refused up front, as on every backend, not failed as "unavailable".
            assertThatThrownBy(() -> records.read("a\u0000b")).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> records.delete("a\u0000b", 1)).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> store.withScope("\uD800")).isInstanceOf(InvalidInputException.class);
        }
    }

    @Test
    void pgText_escape_isInjective() {
        Random random = new Random(20261129);
        char[] alphabet = {'a', '\u0000', '\uE000', '0', 'x'};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(8); n > 0; n--) {
                s.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String escaped = PgText.escape(s.toString());
            assertThat(escaped).doesNotContain("\u0000");
            assertThat(PgText.unescape(escaped)).as("seed 20261129, case %d", i).isEqualTo(s.toString());
        }
        assertThatThrownBy(() -> PgText.unescape("stray \uE000x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void schema_newerThanTheCode_isRefused_andAnOlderOneNamesTheFix() throws Exception {
        String newer = TestDatabases.newEmbeddedDatabase();
        try (HikariDataSource ds = TestDatabases.pool(newer)) {
            PostgresSchema.migrate(ds);
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("INSERT INTO parley_schema_history (installed_rank, version, description, type, script,"
                        + " installed_by, execution_time, success) VALUES (100, '99', 'from the future', 'SQL', 'V99',"
                        + " 'test', 0, true)");
            }
            assertThatThrownBy(() -> PostgresStore.builder(ds).build()).isInstanceOf(UnsupportedException.class)
                    .hasMessageContaining("schema version 99");
            assertThatThrownBy(() -> PostgresStore.builder(ds).migrate(false).build())
                    .isInstanceOf(UnsupportedException.class);
        }
        String pointRelease = TestDatabases.newEmbeddedDatabase();
        try (HikariDataSource ds = TestDatabases.pool(pointRelease)) {
            PostgresSchema.migrate(ds);
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                st.execute("INSERT INTO parley_schema_history (installed_rank, version, description, type, script,"
                        + " installed_by, execution_time, success) VALUES (100, '" + PostgresSchema.CURRENT_VERSION + ".1',"
                        + " 'a point release', 'SQL', 'V" + PostgresSchema.CURRENT_VERSION + "_1', 'test', 0, true)");
            }
            assertThatThrownBy(() -> PostgresStore.builder(ds).build()).isInstanceOf(UnsupportedException.class);
        }
        String empty = TestDatabases.newEmbeddedDatabase();
        try (HikariDataSource ds = TestDatabases.pool(empty)) {
            assertThatThrownBy(() -> PostgresStore.builder(ds).migrate(false).build())
                    .isInstanceOf(UnavailableException.class).hasMessageContaining("run the migrations");
            assertThat(PostgresSchema.installedVersion(ds)).isZero();
            PostgresStore.builder(ds).build().close();
            assertThat(PostgresSchema.installedVersion(ds)).isEqualTo(PostgresSchema.CURRENT_VERSION);
            PostgresStore.builder(ds).migrate(false).build().close();
        }
    }

    @Test
    void currentVersion_isTheNewestMigrationFlywayFinds() {
        String fresh = TestDatabases.newEmbeddedDatabase();
        try (HikariDataSource ds = TestDatabases.pool(fresh)) {
            MigrationInfo[] found = PostgresSchema.PLAN.configure(ds).load().info().all();
            assertThat(found).isNotEmpty();
            assertThat(found[found.length - 1].getVersion().getVersion())
                    .isEqualTo(Integer.toString(PostgresSchema.CURRENT_VERSION));
        }
    }

    /**
     * v1 and v2 were the SQL files {@code V1__message_log.sql} and {@code V2__session_records.sql} (Flyway's
     * checksums -1296330626 and 886231828) before the tables were shared: their script migrations are recorded exactly
     * as those files were, so a database migrated by either Parley validates under both; and the shared text is
     * pinned, since a database that ran it would fail validation after any edit.
     */
    @Test
    void v1AndV2_areRecordedAsTheFormerSqlFiles_andTheirTextIsPinned() throws Exception {
        assertThat(PostgresSchema.PLAN.scripts()).extracting(m -> m.getVersion().getVersion(), m -> m.getType().name(),
                m -> m.getChecksum(), m -> m.contentChecksum()).as("the released text: never edit it, add a migration")
                .containsExactly(org.assertj.core.groups.Tuple.tuple("1", "SQL", -1_296_330_626, V1_TEXT_CHECKSUM),
                        org.assertj.core.groups.Tuple.tuple("2", "SQL", 886_231_828, V2_TEXT_CHECKSUM));
        String former = TestDatabases.newEmbeddedDatabase();
        try (HikariDataSource ds = TestDatabases.pool(former)) {
            PostgresSchema.PLAN.configure(ds).target("2").load().migrate();
            try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
                // the history as the former files left it
                st.execute("UPDATE parley_schema_history SET script = 'V1__message_log.sql' WHERE version = '1'");
                st.execute("UPDATE parley_schema_history SET script = 'V2__session_records.sql' WHERE version = '2'");
            }
            PostgresStore.builder(ds).build().close();
            assertThat(PostgresSchema.installedVersion(ds)).isEqualTo(PostgresSchema.CURRENT_VERSION);
            try (Connection c = ds.getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT version, description, type, checksum FROM parley_schema_history"
                         + " WHERE version IS NOT NULL ORDER BY installed_rank")) {
                List<String> history = new java.util.ArrayList<>();
                while (rs.next()) {
                    history.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getInt(4));
                }
                assertThat(history).hasSize(3).startsWith("1 message log SQL -1296330626",
                        "2 session records SQL 886231828");
            }
        }
    }

    static final int V1_TEXT_CHECKSUM = -1_707_280_788;
    static final int V2_TEXT_CHECKSUM = -2_095_090_734;

    static PostgresStoreProvider.Parsed parse(String uri, Map<String, String> env) {
        PostgresStoreProvider provider = new PostgresStoreProvider();
        return PostgresStoreProvider.parse(StoreUri.parse(uri).requireKnown(provider.parameters()), env);
    }

    @Test
    void uri_carriesMigrationAndPool_andKeepsThePasswordOutOfMessages() {
        PostgresStoreProvider.Parsed p = parse("postgres:jdbc:postgresql://h:5/db?user=u&password=s3cret"
                + "&parley.scope=tenant-7&parley.migrate=false&parley.pool=3&sslmode=require", Map.of());
        assertThat(p.jdbcUrl()).isEqualTo("jdbc:postgresql://h:5/db?user=u&password=s3cret&sslmode=require");
        assertThat(p.migrate()).isFalse();
        assertThat(p.pool()).isEqualTo(3);
        assertThat(p.user()).isNull();
        assertThat(PostgresStoreProvider.redact(p.jdbcUrl())).doesNotContain("s3cret");

        PostgresStoreProvider.Parsed env = parse("postgres:jdbc:postgresql://h/db",
                Map.of("PGUSER", "libpq-user", "PARLEY_POSTGRES_PASSWORD", "pw"));
        assertThat(env.user()).isEqualTo("libpq-user");
        assertThat(env.password()).isEqualTo("pw");

        assertThatThrownBy(() -> parse("postgres:jdbc:postgresql://h/db?parley.scop=x", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("parley.scop");
        assertThatThrownBy(() -> parse("postgres:postgresql://h/db", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("JDBC URL");
        assertThatThrownBy(() -> parse("postgres:jdbc:postgresql://h/db?parley.pool=0", Map.of()))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> parse("postgres:jdbc:postgresql://h/db?user=u&password=50%zzs3cret", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("password")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret").doesNotContain("zz"));
        assertThatThrownBy(() -> parse("postgres:jdbc:postgresql://h:notaport/db?password=pw", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("not a JDBC URL")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("=pw"));
        assertThat(PostgresStoreProvider.redact("jdbc:postgresql://u:s3cret@h/db")).doesNotContain("s3cret");
    }

    @Test
    void open_deadServer_isATypedRetriableErrorThatNamesIt() {
        assertThatThrownBy(() -> Stores.open("postgres:jdbc:postgresql://127.0.0.1:1/none?user=x&password=secret"))
                .isInstanceOf(UnavailableException.class)
                .hasMessageContaining("127.0.0.1:1")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }

    @Test
    void scopes_inOneDatabase_areIsolatedAndAPinnedOneCannotBeLeft() {
        try (Store a = Stores.open("postgres:" + url + "&parley.scope=tenant-a");
             Store b = Stores.open("postgres:" + url + "&parley.scope=tenant-b")) {
            SessionId s = new SessionId("same-id");
            a.log().append(s, AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, null, Message.user("for a"))));
            assertThat(b.log().load(s, null)).isEmpty();
            assertThat(b.catalog().orElseThrow().find(s)).isEmpty();
            b.log().append(s, AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, null, Message.user("for b"))));
            assertThat(a.log().load(s, null)).extracting(e -> ((Message) e.payload()).text()).containsExactly("for a");
            assertThatThrownBy(() -> a.withScope("tenant-b")).isInstanceOf(InvalidInputException.class);
        }
        try (PostgresStore pinned = PostgresStore.builder(pool).scope("tenant-c").build()) {
            assertThatThrownBy(() -> pinned.withScope("tenant-a")).isInstanceOf(InvalidInputException.class);
        }
        try (PostgresStore host = PostgresStore.open(pool, StoreOptions.defaults())) {
            Store view = host.withScope("tenant-a");
            assertThat(view.log().load(new SessionId("same-id"), null)).hasSize(1);
            view.deleteScope();
            assertThat(view.log().load(new SessionId("same-id"), null)).isEmpty();
            assertThat(host.withScope("tenant-b").log().load(new SessionId("same-id"), null)).hasSize(1);
        }
        assertThat(pool.isClosed()).as("a store over the host's data source leaves it open").isFalse();
    }

    /** Two replicas retry the same batch at the same moment: the session row lock lets one write, the other sees it. */
    @Test
    void append_sameBatchRacingFromTwoReplicas_isStoredOnceWithItsUsageOnce() throws Exception {
        SessionId s = new SessionId("racing");
        List<NewEntry> batch = List.of(NewEntry.of(new EntryId("e1"), null, null, Message.user("one")),
                NewEntry.of(new EntryId("e2"), new EntryId("e1"), null, Message.user("two")));
        for (int round = 0; round < 20; round++) {
            SessionId session = new SessionId(s.value() + "-" + round);
            try (Store one = Stores.open("postgres:" + url); Store two = Stores.open("postgres:" + url)) {
                CompletableFuture<AppendResult> first = CompletableFuture.supplyAsync(() ->
                        one.log().append(session, AgentId.MAIN, batch, Usage.of(3, 4)));
                CompletableFuture<AppendResult> second = CompletableFuture.supplyAsync(() ->
                        two.log().append(session, AgentId.MAIN, batch, Usage.of(3, 4)));
                assertThat(first.get().written() + second.get().written()).isEqualTo(2);
                assertThat(first.get().entries()).isEqualTo(second.get().entries());
                assertThat(one.log().load(session, null)).hasSize(2);
                assertThat(one.log().loadUsage(session, AgentId.MAIN)).isEqualTo(Usage.of(3, 4));
            }
        }
    }
}
