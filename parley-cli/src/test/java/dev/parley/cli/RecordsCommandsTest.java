package dev.parley.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code parley sessions --records}, against real stores ({@code parley conformance}: {@link ConformanceCommandTest}). */
class RecordsCommandsTest {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    static Run parley(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = ParleyCommand.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(exit, out.toString(), err.toString());
    }

    static List<String> ids(Run run) throws Exception {
        assertThat(run.exit()).as(run.err()).isZero();
        List<String> ids = new ArrayList<>();
        for (JsonNode n : Json.parse(run.out()).get("sessions")) {
            ids.add(n.get("id").asText());
        }
        return ids;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "jsonl"})
    void sessionsListsTheRecordCatalogWithFilters(String scheme) throws Exception {
        String store = scheme + ":" + dir.resolve("store");
        Instant t = Instant.parse("2026-03-01T00:00:00Z");
        try (Store log = Stores.open(store)) {
            ChatSessionRepository repo = log.withScope("default").sessions().orElseThrow();
            repo.create(ChatSession.builder("a-old", t).name("old").workspaceId("w1").build());
            repo.create(ChatSession.builder("b-new", t).name("new").workspaceId("w1").updatedAt(t.plusSeconds(60)).build());
            repo.create(ChatSession.builder("c-pinned", t).name("pinned").workspaceId("w2").pinned(true).build());
            repo.create(ChatSession.builder("d-archived", t).name("archived").workspaceId("w1").archivedAt(t).build());
            log.withScope("other").sessions().orElseThrow().create(ChatSession.builder("e-elsewhere", t).name("x").build());
        }

        assertThat(ids(parley("--store", store, "sessions", "--records", "--json")))
                .containsExactly("c-pinned", "b-new", "a-old", "d-archived");
        assertThat(ids(parley("--store", store, "sessions", "--workspace", "w1", "--json")))
                .containsExactly("b-new", "a-old", "d-archived");
        assertThat(ids(parley("--store", store, "sessions", "--archived", "--json"))).containsExactly("d-archived");
        assertThat(ids(parley("--store", store, "sessions", "--workspace", "w1", "--no-archived", "--json")))
                .containsExactly("b-new", "a-old");
        assertThat(ids(parley("--store", store, "sessions", "--pinned", "--json"))).containsExactly("c-pinned");
        assertThat(ids(parley("--store", store, "sessions", "--records", "--scope", "other", "--json")))
                .containsExactly("e-elsewhere");

        // Pages: two at a time, following the printed cursor.
        Run first = parley("--store", store, "sessions", "--records", "--limit", "2");
        assertThat(first.out()).contains("c-pinned", "b-new").doesNotContain("a-old").contains("more: parley");
        String more = first.out().lines().filter(l -> l.startsWith("more: ")).findFirst().orElseThrow();
        String cursor = more.substring(more.indexOf("--cursor ") + "--cursor ".length());
        assertThat(ids(parley("--store", store, "sessions", "--records", "--limit", "2", "--cursor", cursor, "--json")))
                .containsExactly("a-old", "d-archived");

        Run bad = parley("--store", store, "sessions", "--records", "--cursor", "not-a-cursor");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("cursor");
        assertThat(parley("--store", store, "sessions", "--records", "--limit", "201").exit()).isEqualTo(2);
    }

    @Test
    void recordsOfTheNullStoreAreUnsupported() {
        Run run = parley("--store", "null:", "sessions", "--records");
        assertThat(run.exit()).isEqualTo(9);
        assertThat(run.err()).contains("no session records");
    }

    @Test
    void passwordsInTheStoreUriNeverReachTheOutput() throws Exception {
        // PostgreSQL's URL carries a password (the embedded server trusts loopback, so it goes unchecked). A jsonl: or
        // sqlite: URI with one is refused (ParleyCommandTest.storeUriWithAParameterThatIsNotParleys_…), without it.
        String store = "postgres:" + TestPostgres.newDatabase() + "&password=hunter2";
        assertThat(parley("--store", store, "import", "--json", "/nonexistent").err()).doesNotContain("hunter2");
        Run missing = parley("--store", store, "show", "nosuch");
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).contains("password=***").doesNotContain("hunter2");
        try (Store log = Stores.open(store)) {
            log.withScope("a b").sessions().orElseThrow().create(ChatSession.builder("x", Instant.EPOCH).name("x").build());
            log.withScope("a b").sessions().orElseThrow().create(ChatSession.builder("y", Instant.EPOCH).name("y").build());
        }
        Run listed = parley("--store", store, "sessions", "--scope", "a b", "--limit", "1");
        assertThat(listed.exit()).as(listed.err()).isZero();
        assertThat(listed.out()).doesNotContain("hunter2").contains("--scope 'a b'").contains("password=***");
        Run conformance = parley("--store", store, "conformance", "--kit", "sessions", "--json");
        assertThat(conformance.out() + conformance.err()).doesNotContain("hunter2");
    }

    @Test
    void scopeAloneListsRecordsAndAnEmptyScopeIsRefused() {
        String store = "sqlite:" + dir.resolve("s.db");
        Stores.open(store).close();
        Run empty = parley("--store", store, "sessions", "--scope", "nobody");
        assertThat(empty.exit()).as(empty.err()).isZero();
        assertThat(empty.out()).contains("no session records in scope nobody");
        Run bad = parley("--store", store, "sessions", "--scope", "");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("invalid scope");
    }

    /**
     * Issue 14, break 7: on PostgreSQL the record commands read any tenant's records with {@code --scope} although
     * the URI bound one, and a misspelt scope key went to the driver and silently bound the shared default scope.
     */
    @Test
    void postgresUriThatBindsAScope_bindsTheRecordCommands_andMisspeltScopeKeysAreRefused() throws Exception {
        String url = TestPostgres.newDatabase();
        Instant t = Instant.parse("2026-03-01T00:00:00Z");
        try (Store a = Stores.open("postgres:" + url + "&parley.scope=tenant-a");
             Store b = Stores.open("postgres:" + url + "&parley.scope=tenant-b");
             Store shared = Stores.open("postgres:" + url)) {
            a.sessions().orElseThrow().create(ChatSession.builder("a-1", t).name("mine").build());
            b.sessions().orElseThrow().create(ChatSession.builder("b-1", t).name("theirs").build());
            shared.sessions().orElseThrow().create(ChatSession.builder("shared-1", t).name("default").build());
        }
        String boundToA = "postgres:" + url + "&parley.scope=tenant-a";

        assertThat(ids(parley("--store", boundToA, "sessions", "--records", "--json"))).containsExactly("a-1");
        assertThat(ids(parley("--store", boundToA, "sessions", "--scope", "tenant-a", "--json")))
                .containsExactly("a-1");
        Run escape = parley("--store", boundToA, "sessions", "--scope", "tenant-b", "--json");
        assertThat(escape.exit()).as(escape.out() + escape.err()).isEqualTo(2);
        assertThat(escape.out()).doesNotContain("b-1");
        assertThat(escape.err()).contains("tenant-a");

        for (String misspelt : List.of("parley_scope", "Parley.Scope")) {
            Run run = parley("--store", "postgres:" + url + "&" + misspelt + "=tenant-b", "sessions", "--records",
                    "--json");
            assertThat(run.exit()).as(misspelt + ": " + run.out() + run.err()).isEqualTo(2);
            assertThat(run.out()).doesNotContain("shared-1").doesNotContain("b-1");
            assertThat(run.err()).contains(misspelt);
        }
        assertThat(ids(parley("--store", "postgres:" + url, "sessions", "--records", "--json")))
                .containsExactly("shared-1");
    }
}
