package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conditional append compares the agent's latest entry by id: a damaged body there, which the batch does not name,
 * must not change the answer (a recognised retry, or the last entry having moved), nor be read as a success; and a
 * batch that names it as a parent needs it stored, not readable.
 */
class ConditionalAppendOverCorruptEntryTest {
    static final SessionId S = new SessionId("s");
    static final AgentId AGENT = new AgentId("main");
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");

    @TempDir
    Path dir;

    static NewEntry entry(String id, String parent) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T, Message.user(id));
    }

    /** Stores a, then b after it, then damages b's body the way a disk or a stray tool might. */
    Path storeWithCorruptLatest() throws Exception {
        Path file = dir.resolve("t.db");
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            store.log().append(S, AGENT, List.of(entry("a", null)));
            store.log().append(S, AGENT, List.of(entry("b", "a")));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement st = c.prepareStatement("UPDATE parley_log_entries SET body = '{\"id\": 42}'"
                     + " WHERE entry_id = 'b'")) {
            assertThat(st.executeUpdate()).isEqualTo(1);
        }
        return file;
    }

    @Test
    void retryOfAStoredBatch_isAnsweredThoughTheAgentsLatestEntryIsCorrupt() throws Exception {
        try (SqliteStore store = SqliteStore.open(storeWithCorruptLatest(), StoreOptions.defaults())) {
            AppendResult retry = store.log().appendIfLast(S, AGENT, null, List.of(entry("a", null)), Usage.ZERO);
            assertThat(retry.entries()).extracting(e -> e.id().value()).containsExactly("a");
        }
    }

    @Test
    void appendExpectingAnotherLast_isRefusedAsMoved_notAsCorrupt() throws Exception {
        try (SqliteStore store = SqliteStore.open(storeWithCorruptLatest(), StoreOptions.defaults())) {
            MessageLog log = store.log();
            assertThatThrownBy(() -> log.appendIfLast(S, AGENT, new EntryId("a"), List.of(entry("c", "a")), Usage.ZERO))
                    .isInstanceOf(LastEntryMovedException.class);
        }
    }

    @Test
    void appendAfterACorruptParent_isStored_andTheDamageIsReportedWhereItIsRead() throws Exception {
        Path file = storeWithCorruptLatest();
        try (SqliteStore store = SqliteStore.open(file, StoreOptions.defaults())) {
            MessageLog log = store.log();
            // Naming b as the parent needs b stored, not its body: no append reads what it does not judge.
            log.appendIfLast(S, AGENT, new EntryId("b"), List.of(entry("c", "b")), Usage.ZERO); // b vouched for
            log.append(S, AGENT, List.of(entry("d", "b")), Usage.ZERO); // b looked up by id
            log.append(S, AGENT, List.of(entry("e", "b")), new Usage(1, 1, 0, 0, 0, new BigDecimal("0.01")));
            log.append(S, AGENT, List.of(entry("f", "b"), entry("g", "f"), entry("h", "g"), entry("i", "h"),
                    entry("j", "i"))); // a cost, and a batch of many ids, take the careful way: it judges alike
            assertThatThrownBy(() -> log.load(S, null)).isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining("seq=2");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement st = c.prepareStatement("SELECT count(*) FROM parley_log_entries");
             ResultSet rs = st.executeQuery()) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(10); // a, b and the eight appended after b
        }
    }
}
