package dev.parley.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared table scripts: statements split at a line-ending semicolon, placeholders spelt, or a clear refusal. */
class ScriptMigrationTest {
    static final String DIR = "dev/parley/jdbc/scripts/";

    @Test
    void statements_areSplitAtLineEndingSemicolons_withCommentsDropped_andPlaceholdersSpelt() {
        ScriptMigration m = new ScriptMigration("7", "good", Map.of("text", "TEXT"), DIR + "good.sql");
        assertThat(m.statements()).containsExactly("CREATE TABLE t (\n    a TEXT NOT NULL\n)",
                "CREATE INDEX t_a ON t (a)");
        assertThat(m.getVersion().getVersion()).isEqualTo("7");
    }

    @Test
    void checksum_changesWithTheDatabasesSpelling() {
        assertThat(new ScriptMigration("7", "good", Map.of("text", "TEXT"), DIR + "good.sql").getChecksum())
                .isNotEqualTo(new ScriptMigration("7", "good", Map.of("text", "text"), DIR + "good.sql").getChecksum());
    }

    @Test
    void placeholderTheDatabaseDoesNotSpell_isRefusedNamingItAndTheScript() {
        assertThatThrownBy(() -> new ScriptMigration("7", "u", Map.of("text", "TEXT"), DIR + "unspelt.sql"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("${blob}")
                .hasMessageContaining("unspelt.sql");
    }

    @Test
    void scriptEndingInsideAStatement_orMissing_isRefused() {
        assertThatThrownBy(() -> new ScriptMigration("7", "v", Map.of(), DIR + "unended.sql"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ends inside a statement");
        assertThatThrownBy(() -> new ScriptMigration("7", "w", Map.of(), DIR + "absent.sql"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absent.sql");
    }
}
