package dev.parley.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared table scripts: statements split at a line-ending semicolon, placeholders spelt, or a clear refusal. */
class ScriptMigrationTest {
    static final String DIR = "dev/parley/jdbc/scripts/";
    static final ClassLoader LOADER = ScriptMigrationTest.class.getClassLoader();

    @Test
    void statements_areSplitAtLineEndingSemicolons_withCommentsDropped_andPlaceholdersSpelt() {
        ScriptMigration m = new ScriptMigration("7", "good", Map.of("text", "TEXT"), LOADER, DIR + "good.sql");
        assertThat(m.statements()).containsExactly("CREATE TABLE t (\n    a TEXT NOT NULL\n)",
                "CREATE INDEX t_a ON t (a)");
        assertThat(m.getVersion().getVersion()).isEqualTo("7");
    }

    @Test
    void checksum_changesWithTheDatabasesSpelling() {
        ScriptMigration upper = new ScriptMigration("7", "good", Map.of("text", "TEXT"), LOADER, DIR + "good.sql");
        ScriptMigration lower = new ScriptMigration("7", "good", Map.of("text", "text"), LOADER, DIR + "good.sql");
        assertThat(upper.getChecksum()).isNotEqualTo(lower.getChecksum());
    }

    /** Building a migration of {@code script} is refused with a message holding each of {@code parts}. */
    static void assertRefused(String script, Map<String, String> spelling, String... parts) {
        var refusal = assertThatThrownBy(() -> new ScriptMigration("7", "refused", spelling, LOADER, DIR + script))
                .isInstanceOf(IllegalArgumentException.class);
        for (String part : parts) {
            refusal.hasMessageContaining(part);
        }
    }

    @Test
    void placeholderTheDatabaseDoesNotSpell_isRefusedNamingItAndTheScript() {
        assertRefused("unspelt.sql", Map.of("text", "TEXT"), "${blob}", "unspelt.sql");
    }

    @Test
    void scriptEndingInsideAStatement_orMissing_isRefused() {
        assertRefused("unended.sql", Map.of(), "ends inside a statement");
        assertRefused("absent.sql", Map.of(), "absent.sql");
    }

    @Test
    void whatTheSplitterCannotSplit_isRefusedNamingTheLine() {
        assertRefused("two-on-a-line.sql", Map.of(), "two-on-a-line.sql line 1");
        assertRefused("dollar.sql", Map.of(), "dollar.sql line 1");
    }

    @Test
    void byteOrderMark_isNotPartOfTheFirstStatement() {
        assertThat(new ScriptMigration("7", "b", Map.of("text", "TEXT"), LOADER, DIR + "bom.sql").statements())
                .containsExactly("CREATE TABLE y (a TEXT)");
    }

    @Test
    void recordedAs_aFormerSqlFile_reportsItsTypeAndChecksum_andKeepsTheStatements() {
        ScriptMigration m = new ScriptMigration("7", "good", Map.of("text", "TEXT"), LOADER, DIR + "good.sql");
        ScriptMigration former = m.recordedAs(42);
        assertThat(m.getType().name()).isEqualTo("JDBC");
        assertThat(m.getChecksum()).isEqualTo(m.contentChecksum());
        assertThat(former.getType().name()).isEqualTo("SQL");
        assertThat(former.getChecksum()).isEqualTo(42);
        assertThat(former.statements()).isEqualTo(m.statements());
        assertThat(former.contentChecksum()).isEqualTo(m.contentChecksum());
    }
}
