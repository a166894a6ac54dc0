package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.tck.process.BackupUnderLoad;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite's online backup while writers append, restored elsewhere (issue 14). */
class BackupTest {
    @TempDir
    Path dir;

    @Test
    void backup_whileWritersAppend_restoresEveryEntryAcknowledgedBeforeItAndNoPartialBatch() throws Exception {
        BackupUnderLoad.Report report = BackupUnderLoad.run("sqlite:" + dir.resolve("live.db"),
                dir.resolve("backup.db"), "sqlite:" + dir.resolve("restored").resolve("parley.db"));

        assertThat(report.violations()).isEmpty();
        assertThat(report.acknowledgedBefore()).isPositive();
    }
}
