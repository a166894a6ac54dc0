package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQLite store where it cannot write: on a read-only file system, on a full disk, and behind another process's long
 * write (issue 14, break 9). The read-only and full file systems are small tmpfs mounts made for the test, so it needs
 * the right to mount (it runs as root in CI); without it the test fails rather than skips.
 */
class SqliteConstrainedDiskTest {
    static final SessionId SESSION = new SessionId("s");

    @TempDir
    Path dir;

    private static void append(Store store, String id) {
        store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(new EntryId(id), null, null,
                Message.user("hello " + id))));
    }

    /** A small tmpfs mounted at {@code where} for one test. */
    private static final class Tmpfs implements AutoCloseable {
        final Path where;

        Tmpfs(Path where) throws Exception {
            this.where = where;
            Files.createDirectories(where);
            run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", where.toString());
        }

        void readOnly() throws Exception {
            run("mount", "-o", "remount,ro", where.toString());
        }

        /** Fills the file system to the last byte. */
        void fill() throws IOException {
            byte[] chunk = new byte[64 * 1024];
            try (OutputStream out = Files.newOutputStream(where.resolve("filler"))) {
                while (true) {
                    out.write(chunk);
                }
            } catch (IOException full) {
                // no space left: what the test wants
            }
            try (OutputStream out = Files.newOutputStream(where.resolve("filler-small"))) {
                while (true) {
                    out.write(0);
                    out.flush();
                }
            } catch (IOException full) {
                // the last bytes taken too
            }
        }

        @Override
        public void close() throws Exception {
            run("umount", where.toString());
        }

        private static void run(String... command) throws Exception {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as("%s: %s (this test mounts a tmpfs, which needs root)", String.join(" ", command),
                    output).isZero();
        }
    }

    /** A store of one session with two entries in the file system, closed. */
    private static String storeOfTwoEntries(Tmpfs fs) {
        String uri = "sqlite:" + fs.where.resolve("parley.db");
        try (Store store = Stores.open(uri)) {
            append(store, "a");
            append(store, "b");
        }
        return uri;
    }

    /** Opens the store and checks that its session and entries read back. */
    private static Store openAndRead(String uri) {
        Store store = Stores.open(uri);
        assertThat(store.log().load(SESSION, null)).hasSize(2);
        assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
        return store;
    }

    @Test
    void readsOfAStoreOnAReadOnlyFileSystem_work_andWritesSayItIsReadOnly() throws Exception {
        try (Tmpfs fs = new Tmpfs(dir.resolve("ro"))) {
            String uri = storeOfTwoEntries(fs);
            fs.readOnly();
            try (Store store = openAndRead(uri)) {
                assertThatThrownBy(() -> append(store, "c")).isInstanceOf(UnavailableException.class)
                        .hasMessageContaining("open for reading only");
            }
        }
    }

    @Test
    void readsOfAStoreOnAFullDisk_work_andWritesFailTyped() throws Exception {
        try (Tmpfs fs = new Tmpfs(dir.resolve("full"))) {
            String uri = storeOfTwoEntries(fs);
            fs.fill();
            try (Store store = openAndRead(uri)) {
                assertThatThrownBy(() -> {
                    for (int i = 0; i < 1000; i++) {
                        append(store, "more-" + i); // until the last free page is gone
                    }
                }).isInstanceOf(UnavailableException.class);
            }
            try (Store store = Stores.open(uri)) {
                assertThat(store.log().load(SESSION, null)).hasSizeGreaterThanOrEqualTo(2);
            }
        }
    }

    /** Regression: a backup onto a full disk said it was done and left an empty file (SQLite's answer was unread). */
    @Test
    void aBackupOntoAFullDisk_failsTyped_andLeavesNoFile() throws Exception {
        String uri = "sqlite:" + dir.resolve("source.db");
        try (Store store = Stores.open(uri)) {
            for (int i = 0; i < 200; i++) {
                append(store, "e" + i);
            }
        }
        try (Tmpfs fs = new Tmpfs(dir.resolve("full"))) {
            fs.fill();
            Path to = fs.where.resolve("backup.db");
            assertThatThrownBy(() -> Stores.backup(uri, to)).isInstanceOf(UnavailableException.class)
                    .hasMessageContaining(to.toString()).hasMessageContaining("SQLITE_FULL");
            try (var left = Files.list(fs.where)) {
                assertThat(left.map(p -> p.getFileName().toString())).containsOnly("filler", "filler-small");
            }
        }
        try (Store store = Stores.open(uri)) {
            assertThat(store.log().load(SESSION, null)).hasSize(200);
        }
    }

    @Test
    void aWriterBehindAnotherProcessesLongWrite_waitsItsTurn() throws Exception {
        // A large import holds the write lock for longer than the old 10 s busy timeout; the other writer must wait.
        Path file = dir.resolve("busy.db");
        String uri = "sqlite:" + file;
        try (Store store = Stores.open(uri)) {
            append(store, "a");
        }
        CountDownLatch locked = new CountDownLatch(1);
        ExecutorService holder = Executors.newSingleThreadExecutor();
        try (Store store = Stores.open(uri)) {
            Future<?> held = holder.submit(() -> {
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                     Statement st = c.createStatement()) {
                    st.execute("BEGIN IMMEDIATE");
                    locked.countDown();
                    Thread.sleep(12_000);
                    st.execute("COMMIT");
                }
                return null;
            });
            assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();
            append(store, "b");
            held.get();
            assertThat(store.log().load(SESSION, null)).hasSize(2);
        } finally {
            holder.shutdownNow();
        }
    }
}
