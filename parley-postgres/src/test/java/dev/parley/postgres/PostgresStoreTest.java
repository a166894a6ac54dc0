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
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.Scopes;
import dev.parley.core.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
    void textPostgresRefusesRoundTripsExactly() {
        Instant t = Instant.parse("2026-02-01T10:00:00.123Z");
        try (MessageLog log = Stores.open("postgres:" + url)) {
            SessionId s = new SessionId("nul-session");
            log.catalog().orElseThrow().create(new NewSession(s, NASTY, NASTY, Map.of()));
            log.append(s, AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, t, Message.user(NASTY)),
                    NewEntry.of(new EntryId("e2"), new EntryId("e1"), t, Message.user("lone \ud800 surrogate"))));

            assertThat(log.load(s, null)).extracting(e -> ((Message) e.payload()).text())
                    .containsExactly(NASTY, "lone \ud800 surrogate");
            assertThat(log.catalog().orElseThrow().find(s).orElseThrow().title()).isEqualTo(NASTY);
            assertThat(log.catalog().orElseThrow().findByOrigin(NASTY)).hasSize(1);

            Repositories repos = log.repositories().orElseThrow();
            ChatSession record = ChatSession.builder("r1", t).name(NASTY).workspaceId(NASTY)
                    .history(List.of(ChatMessage.of("user", NASTY))).build();
            repos.sessions("s").create(record);
            repos.sessions("s").create(ChatSession.builder("r2", t).name("other").workspaceId("a\uE000b").build());
            assertThat(repos.sessions("s").read("r1").orElseThrow().session()).isEqualTo(record);
            assertThat(repos.sessions("s").list(new CatalogQuery(null, 10, NASTY, null)).items())
                    .extracting(e -> e.id()).containsExactly("r1");
            ArchiveAppend.Result archived = repos.archives("s").append(new ArchiveAppend("r1",
                    ArchiveRecord.draft("a1", NASTY, 1, t, null), List.of(ChatMessage.of("user", NASTY)), NASTY));
            assertThat(repos.archives("s").readSummary(archived.archive().summaryPath())).contains(NASTY);
            // Ids PostgreSQL cannot hold are refused up front, as on every backend, not failed as "unavailable".
            assertThatThrownBy(() -> repos.sessions("s").read("a\u0000b")).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> repos.sessions("s").delete("a\u0000b", 1)).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> repos.sessions("\uD800")).isInstanceOf(InvalidInputException.class);
        }
    }

    @Test
    void theEscapeIsInjective() {
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
    void aDatabaseNewerThanTheCodeIsRefusedAndAnOlderOneNamesTheFix() throws Exception {
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
                        + " installed_by, execution_time, success) VALUES (100, '2.1', 'a point release', 'SQL',"
                        + " 'V2_1', 'test', 0, true)");
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
    void currentVersionIsTheNewestMigration() throws Exception {
        Path dir = Path.of("src/main/resources/dev/parley/postgres/migration");
        Pattern name = Pattern.compile("V(\\d+)__.*\\.sql");
        try (Stream<Path> files = Files.list(dir)) {
            int newest = files.map(p -> name.matcher(p.getFileName().toString())).filter(java.util.regex.Matcher::matches)
                    .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElseThrow();
            assertThat(PostgresSchema.CURRENT_VERSION).isEqualTo(newest);
        }
    }

    @Test
    void theUriCarriesScopeMigrationAndPoolAndKeepsThePasswordOutOfMessages() {
        PostgresStoreProvider.Parsed p = PostgresStoreProvider.parse("jdbc:postgresql://h:5/db?user=u&password=s3cret"
                + "&parley.scope=tenant-7&parley.migrate=false&parley.pool=3&sslmode=require", Map.of());
        assertThat(p.jdbcUrl()).isEqualTo("jdbc:postgresql://h:5/db?user=u&password=s3cret&sslmode=require");
        assertThat(p.scope()).isEqualTo("tenant-7");
        assertThat(p.migrate()).isFalse();
        assertThat(p.pool()).isEqualTo(3);
        assertThat(p.user()).isNull();
        assertThat(PostgresStoreProvider.redact(p.jdbcUrl())).doesNotContain("s3cret");

        PostgresStoreProvider.Parsed env = PostgresStoreProvider.parse("jdbc:postgresql://h/db",
                Map.of("PGUSER", "libpq-user", "PARLEY_POSTGRES_PASSWORD", "pw"));
        assertThat(env.user()).isEqualTo("libpq-user");
        assertThat(env.password()).isEqualTo("pw");

        assertThatThrownBy(() -> PostgresStoreProvider.parse("jdbc:postgresql://h/db?parley.scop=x", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("parley.scop");
        assertThatThrownBy(() -> PostgresStoreProvider.parse("postgresql://h/db", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("JDBC URL");
        assertThatThrownBy(() -> PostgresStoreProvider.parse("jdbc:postgresql://h/db?parley.pool=0", Map.of()))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> PostgresStoreProvider.parse("jdbc:postgresql://h/db?user=u&password=50%zzs3cret",
                Map.of())).isInstanceOf(InvalidInputException.class).hasMessageContaining("password")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret").doesNotContain("zz"));
        assertThatThrownBy(() -> PostgresStoreProvider.parse("jdbc:postgresql://h:notaport/db?password=pw", Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("not a JDBC URL")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("=pw"));
        assertThat(PostgresStoreProvider.redact("jdbc:postgresql://u:s3cret@h/db")).doesNotContain("s3cret");
    }

    @Test
    void aDeadServerIsATypedRetriableErrorThatNamesIt() {
        assertThatThrownBy(() -> Stores.open("postgres:jdbc:postgresql://127.0.0.1:1/none?user=x&password=secret"))
                .isInstanceOf(UnavailableException.class)
                .hasMessageContaining("127.0.0.1:1")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }

    @Test
    void logScopesAreIsolatedInOneDatabase() {
        try (MessageLog a = Stores.open("postgres:" + url + "&parley.scope=tenant-a");
             MessageLog b = Stores.open("postgres:" + url + "&parley.scope=tenant-b")) {
            SessionId s = new SessionId("same-id");
            a.append(s, AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, null, Message.user("for a"))));
            assertThat(b.load(s, null)).isEmpty();
            assertThat(b.catalog().orElseThrow().find(s)).isEmpty();
            b.append(s, AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, null, Message.user("for b"))));
            assertThat(a.load(s, null)).extracting(e -> ((Message) e.payload()).text()).containsExactly("for a");
        }
    }
}
