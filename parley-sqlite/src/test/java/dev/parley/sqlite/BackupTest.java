package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.Stores;
import dev.parley.tck.process.BackupUnderLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * Found by a reading of the kit: interrupted in its first moments, the check threw and left its three writer
     * threads appending to the store for as long as the JVM lived.
     */
    @Test
    void backupUnderLoad_interrupted_stopsItsWriters() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread check = new Thread(() -> {
            try {
                BackupUnderLoad.run("sqlite:" + dir.resolve("live.db"), dir.resolve("backup.db"),
                        "sqlite:" + dir.resolve("restored.db"));
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        check.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (writers().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(writers()).as("the check's writers started").isNotEmpty();
        check.interrupt();
        check.join(30_000);

        assertThat(check.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        assertThat(writers()).as("writer threads still running").isEmpty();
        // and its scope is gone: every session it wrote was in it (found by a review: a failure skipped the cleanup)
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("live.db"));
             ResultSet rows = c.createStatement().executeQuery("SELECT (SELECT count(*) FROM parley_log_sessions)"
                     + " + (SELECT count(*) FROM parley_chat_sessions)")) {
            assertThat(rows.getLong(1)).as("sessions left behind").isZero();
        }
    }

    private static List<Thread> writers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("backup-writer-") && t.isAlive()).toList();
    }
}
