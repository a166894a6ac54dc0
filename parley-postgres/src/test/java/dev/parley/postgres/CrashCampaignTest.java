package dev.parley.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.process.CrashCampaign;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's crash campaign on a new database of the embedded server ({@code fsync=on}): writers killed with SIGKILL
 * about 50 times during appends, record updates and opens, the first two during the database's first migration.
 */
class CrashCampaignTest {
    @TempDir
    Path dir;

    @Test
    void crashCampaign_fiftyKills_loseDuplicateAndSplitNothing() throws Exception {
        CrashCampaign.Report report = CrashCampaign.run("postgres:" + TestDatabases.newEmbeddedDatabase(), 50,
                dir.resolve("work"), 14L, System.out::println);

        assertThat(report.violations()).isEmpty();
        assertThat(report.kills()).isGreaterThanOrEqualTo(50);
        assertThat(report.acknowledged()).isPositive();
        assertThat(report.acknowledgedRevisions()).isPositive();
    }
}
