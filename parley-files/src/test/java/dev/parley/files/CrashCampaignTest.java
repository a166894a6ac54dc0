package dev.parley.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.process.CrashCampaign;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's crash campaign on a new JSONL directory: writers killed with SIGKILL about 50 times, during appends, record
 * updates and first opens (a new directory every fifth round, two writers opening it at once).
 */
class CrashCampaignTest {
    @TempDir
    Path dir;

    @Test
    void crashCampaign_fiftyKills_loseDuplicateAndSplitNothing() throws Exception {
        CrashCampaign.Report report = CrashCampaign.run("jsonl:" + dir.resolve("crash"), 50, dir.resolve("work"),
                14L, System.out::println);

        assertThat(report.violations()).isEmpty();
        assertThat(report.kills()).isGreaterThanOrEqualTo(50);
        assertThat(report.acknowledged()).isPositive();
        assertThat(report.acknowledgedRevisions()).isPositive();
    }
}
