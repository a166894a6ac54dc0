package dev.parley.cli;

import static dev.parley.cli.RecordsCommandsTest.parley;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.tck.ArchiveRepositoryScenarios;
import dev.parley.tck.MessageLogScenarios;
import dev.parley.tck.SessionRepositoryScenarios;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.cli.RecordsCommandsTest.Run;
import dev.parley.json.Json;
import dev.parley.tck.Kit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code parley conformance}: the kit decides what runs, against real stores and a deliberately broken one. */
class ConformanceCommandTest {
    @TempDir
    Path dir;

    static List<String> scenarios(JsonNode report, String outcome) {
        List<String> out = new ArrayList<>();
        for (JsonNode kit : report.get("kits")) {
            for (JsonNode s : kit.get("scenarios")) {
                if (s.get("outcome").asText().equals(outcome)) {
                    out.add(s.get("scenario").asText());
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "jsonl"})
    void conformance_fileStores_passEveryScenarioAndLeaveTheStoreAsItWas(String scheme) throws Exception {
        String name = scheme.equals("sqlite") ? "c.db" : "cj";
        String store = scheme + ":" + dir.resolve(name);
        Instant t = Instant.parse("2026-03-01T00:00:00Z");
        SessionId mine = new SessionId("my-log");
        try (Store s = Stores.open(store)) {
            s.sessions().orElseThrow().create(ChatSession.builder("mine", t).name("m").build());
            s.log().append(mine, new AgentId("me"), List.of(NewEntry.of(new EntryId("e1"), null, t, Message.user("keep"))));
        }

        Run run = parley("--store", store, "conformance", "--json");

        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        JsonNode report = Json.parse(run.out());
        assertThat(scenarios(report, "passed")).containsExactlyElementsOf(
                Stream.of(Kit.values()).flatMap(k -> k.titles().stream()).toList());
        try (Store s = Stores.open(store)) {
            assertThat(s.sessions().orElseThrow().list(CatalogQuery.first(10)).items()).extracting(e -> e.id())
                    .containsExactly("mine");
            assertThat(s.log().load(mine, null)).hasSize(1);
            assertThat(s.catalog().orElseThrow().list(null, 10).sessions()).extracting(i -> i.id())
                    .containsExactly(mine);
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).allMatch(n -> n.startsWith(name));
        }
    }

    /** Every scenario of the three kits. */
    static final int ALL = MessageLogScenarios.all().size() + SessionRepositoryScenarios.all().size()
            + ArchiveRepositoryScenarios.all().size();

    @Test
    void conformance_memoryAlone_runsAsANamedStoreAndSaysWhichScenariosItCouldNotRun() {
        Run run = parley("--store", "memory:", "conformance");

        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        assertThat(run.out()).contains("conformance of memory: (run as memory:tck-")
                .contains("skipped ML-08").contains("skipped CS-7").contains("skipped AR-6")
                .contains("damage injection")
                .contains((ALL - 3) + " passed, 0 failed, 3 skipped");
    }

    @Test
    void conformance_brokenStore_printsTheFailedScenarioByIdAndExitsTen() {
        Run run = parley("--store", "forgetful:x", "conformance", "--kit", "message-log");

        assertThat(run.exit()).as(run.err() + run.out()).isEqualTo(ConformanceCommand.FAILED);
        assertThat(run.out()).contains("FAILED  ML-07 a fresh instance reopens everything")
                .contains("ML-07 a fresh instance reopens everything: ");
    }

    @Test
    void conformance_uriThatPinsAScope_isRefused() {
        Run run = parley("--store", "memory:?parley.scope=mine", "conformance");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("binds scope 'mine'").contains("without parley.scope=");
    }

    /** Found by a newcomer's trial: {@code conformance --seed 5} without {@code --crash} ran the kit, seed unused. */
    @Test
    void conformance_seedWithoutCrash_isAUsageError() {
        Run run = parley("--store", "memory:", "conformance", "--seed", "5");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--seed is the crash campaign's");
    }

    @Test
    void conformance_kitOption_runsOnlyThatKit() throws Exception {
        Run run = parley("--store", "memory:", "conformance", "--kit", "archives", "--json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode report = Json.parse(run.out());
        assertThat(report.get("kits")).hasSize(1);
        assertThat(report.get("kits").get(0).get("kit").asText()).isEqualTo("archives");
        // Every archive scenario but the one that needs damage injection (AR-6), which memory cannot offer.
        assertThat(scenarios(report, "passed")).allMatch(s -> s.startsWith("AR-"))
                .hasSize(ArchiveRepositoryScenarios.all().size() - 1).noneMatch(s -> s.startsWith("AR-6"));
    }

    @Test
    void conformance_storeThatKeepsNothing_listsEveryKitAsNotRunAndExitsNine() {
        Run run = parley("--store", "null:", "conformance");

        assertThat(run.exit()).isEqualTo(9);
        assertThat(run.out()).contains("message-log: not run: the store does not declare PERSISTENT")
                .contains("sessions: not run: the store does not declare SESSION_RECORDS")
                .contains("archives: not run: the store does not declare ARCHIVES")
                .contains("0 passed, 0 failed, " + ALL + " skipped");
        assertThat(run.err()).contains("no scenario could run");
    }
}
