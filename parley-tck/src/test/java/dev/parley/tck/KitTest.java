package dev.parley.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Scenario ids are tied to numbered rules, start every title, and are documented where a reader looks. */
class KitTest {
    private static final Map<Kit, List<? extends Scenario<?>>> SCENARIOS = Map.of(
            Kit.MESSAGE_LOG, MessageLogScenarios.all(),
            Kit.SESSION_RECORDS, SessionRepositoryScenarios.all(),
            Kit.ARCHIVES, ArchiveRepositoryScenarios.all());

    private static String expectedId(Kit kit, int n) {
        return switch (kit) {
            case MESSAGE_LOG -> String.format(Locale.ROOT, "ML-%02d", n);
            case SESSION_RECORDS -> "CS-" + n;
            case ARCHIVES -> "AR-" + n;
        };
    }

    @Test
    void scenarioIds_areNumberedInOrderPerKitAndStartTheirTitles() {
        SCENARIOS.forEach((kit, scenarios) -> {
            assertThat(scenarios).extracting(Scenario::id).containsExactlyElementsOf(
                    IntStream.rangeClosed(1, scenarios.size()).mapToObj(n -> expectedId(kit, n)).toList());
            assertThat(scenarios).allSatisfy(s -> assertThat(s.title()).isEqualTo(s.id() + " " + s.name()));
            assertThat(kit.titles()).containsExactlyElementsOf(scenarios.stream().map(Scenario::title).toList());
        });
    }

    @Test
    void packageDocumentationAndDesignNote_listEveryScenarioByIdAndName() throws IOException {
        String packageInfo = Files.readString(Path.of("src/main/java/dev/parley/tck/package-info.java"),
                StandardCharsets.UTF_8);
        String note = Files.readString(Path.of("../docs/07-conformance-kit.md"), StandardCharsets.UTF_8);
        for (Kit kit : Kit.values()) {
            for (String title : kit.titles()) {
                assertThat(packageInfo).as("package-info.java").contains(title);
                assertThat(note).as("docs/07-conformance-kit.md").contains(title);
            }
        }
    }

    @Test
    void ofLabel_namesEachKitAndRefusesOthers() {
        for (Kit kit : Kit.values()) {
            assertThat(Kit.ofLabel(kit.label())).isSameAs(kit);
        }
        assertThatThrownBy(() -> Kit.ofLabel("records")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("message-log, sessions or archives");
    }
}
