package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database file deleted, or replaced by another file, while a store has it open: SQLite goes on reading and writing
 * the file it opened, which no longer is at the path, so a write it commits is gone once the store closes. The store
 * acknowledged such writes, and read them back, as if nothing had happened (and a health check reading the catalog
 * stayed up).
 */
class DatabaseFileGoneTest {
    static final SessionId S = new SessionId("s");
    static final AgentId AGENT = new AgentId("main");
    static final Instant T = Instant.parse("2026-12-07T10:00:00Z");

    @TempDir
    Path dir;

    static List<NewEntry> one(String id, String parent, String text) {
        return List.of(NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T, Message.user(text)));
    }

    @Test
    void databaseFileDeletedWhileOpen_writesAndReadsFail_insteadOfAcknowledgingAWriteToTheDeletedFile()
            throws Exception {
        Path file = dir.resolve("parley.db");
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            store.log().append(S, AGENT, one("e1", null, "kept"));
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                Files.deleteIfExists(dir.resolve("parley.db" + suffix));
            }

            assertThatThrownBy(() -> store.log().append(S, AGENT, one("e2", "e1", "lost")))
                    .isInstanceOf(UnavailableException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("deleted");
            assertThatThrownBy(() -> store.catalog().orElseThrow().list(null, 1))
                    .isInstanceOf(UnavailableException.class).hasMessageContaining("deleted");
        }
    }

    @Test
    void databaseFileReplacedWhileOpen_writesAndReadsFail() throws Exception {
        Path file = dir.resolve("parley.db");
        Path other = dir.resolve("other.db");
        try (Store seeded = SqliteStore.open(other, StoreOptions.defaults())) {
            seeded.log().append(S, AGENT, one("o1", null, "the other file's"));
        }
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            store.log().append(S, AGENT, one("e1", null, "first file's"));
            Files.move(other, file, StandardCopyOption.REPLACE_EXISTING);

            assertThatThrownBy(() -> store.log().append(S, AGENT, one("e2", "e1", "lost")))
                    .isInstanceOf(UnavailableException.class).hasMessageContaining("replaced")
                    .hasMessageContaining("-wal");
            assertThatThrownBy(() -> store.log().load(S, null)).isInstanceOf(UnavailableException.class)
                    .hasMessageContaining("replaced");
        }
    }

    @Test
    void databaseFileMovedBackBeforeTheNextWrite_theStoreGoesOn() throws Exception {
        Path file = dir.resolve("parley.db");
        Path aside = dir.resolve("aside.db");
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            store.log().append(S, AGENT, one("e1", null, "one"));
            Files.move(file, aside);
            assertThatThrownBy(() -> store.log().load(S, null)).isInstanceOf(UnavailableException.class);
            Files.move(aside, file);
            store.log().append(S, AGENT, one("e2", "e1", "two"));
        }
        try (SqliteStore reopened = SqliteStore.open(file, StoreOptions.defaults())) {
            assertThat(reopened.log().load(S, null)).extracting(Entry::id)
                    .containsExactly(new EntryId("e1"), new EntryId("e2"));
        }
    }
}
