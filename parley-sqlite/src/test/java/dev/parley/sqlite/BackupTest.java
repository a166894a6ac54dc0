package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.Stores;
import dev.parley.tck.process.BackupUnderLoad;
import java.nio.file.Files;
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

    /**
     * Found by a newcomer's trial: restoring from a file that is not a SQLite database failed (SQLITE_NOTADB) after
     * copying it into place, so the next try said the store "exists already".
     */
    @Test
    void restore_fromAFileThatIsNotADatabase_isRefusedAndLeavesNothing() throws Exception {
        Path text = Files.writeString(dir.resolve("plain.txt"), "these are notes, not a database\n");
        Path target = dir.resolve("restored.db");
        assertThatThrownBy(() -> Stores.restore(text, "sqlite:" + target))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining(text + " is not a SQLite backup");
        assertThat(target).doesNotExist();
        byte[] damaged = new byte[8192];
        java.util.Arrays.fill(damaged, (byte) 0x5a);
        System.arraycopy("SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, damaged, 0, 16);
        Path corrupt = Files.write(dir.resolve("corrupt.db"), damaged);
        assertThatThrownBy(() -> Stores.restore(corrupt, "sqlite:" + target))
                .isInstanceOf(dev.parley.core.ParleyException.class);
        assertThat(target).doesNotExist();
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("plain.txt",
                    "corrupt.db");
        }
    }
}
