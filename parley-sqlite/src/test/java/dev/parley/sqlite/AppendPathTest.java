package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.StatementCounter;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The statements of an append on SQLite: the usual case is made by the first attempt, which reads only what its
 * check needs and is never rolled back, and every other case is still answered as the contract says. The store's
 * connection is wrapped ({@link StatementCounter}) to count what it runs ({@code execute…}) and its rollbacks.
 * Without this, a first attempt that always failed would go unnoticed: the careful way it falls back to gives the
 * same answers.
 */
class AppendPathTest {
    static final Instant T = Instant.parse("2026-03-04T05:06:07.089Z");
    static final Usage USAGE = Usage.of(10, 2);

    @TempDir
    Path dir;

    final StatementCounter counter = new StatementCounter();
    SqliteStore store;
    MessageLog log;

    @BeforeEach
    void open() {
        store = SqliteStore.openWatched(dir.resolve("path.db"), StoreOptions.defaults(),
                c -> counter.wrap(Connection.class, c));
        log = store.log();
    }

    @AfterEach
    void close() {
        store.close();
    }

    static NewEntry entry(String id, String parent) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T,
                Message.assistant(List.of(new ContentBlock.Text(id))));
    }

    @Test
    void usualAppends_runTheFirstAttemptOnly_oneStatementPerStep() {
        SessionId s = new SessionId("usual");
        log.append(s, AgentId.MAIN, List.of(entry("e1", null)), USAGE); // creates the session's row

        counter.reset();
        log.appendIfLast(s, AgentId.MAIN, new EntryId("e1"), List.of(entry("e2", "e1")), Usage.ZERO);
        assertThat(counter.rolledBack).as("rollbacks of a conditional append after the last entry").hasValue(0);
        // count in, the agent's last row (which vouches for the parent), the insert
        assertThat(counter.executed).as("statements of a conditional append after the last entry").hasValue(3);

        counter.reset();
        log.append(s, AgentId.MAIN, List.of(entry("e3", "e2"), entry("e4", "e3")), USAGE);
        assertThat(counter.rolledBack).as("rollbacks of a plain append").hasValue(0);
        // count in, the parent by id, two inserts, the usage
        assertThat(counter.executed).as("statements of a plain append").hasValue(5);

        counter.reset();
        log.append(new SessionId("new"), AgentId.MAIN, List.of(entry("n1", null)), Usage.ZERO);
        assertThat(counter.rolledBack).as("rollbacks of a new session's first append").hasValue(0);
        // count in (no row), create the row, count in, the insert
        assertThat(counter.executed).as("statements of a new session's first append").hasValue(4);

        assertThat(log.load(s, null)).extracting(e -> e.id().value()).containsExactly("e1", "e2", "e3", "e4");
        assertThat(store.catalog().orElseThrow().find(s).orElseThrow().entryCount()).isEqualTo(4);
        assertThat(log.loadUsage(s, AgentId.MAIN)).isEqualTo(USAGE.plus(USAGE));
    }

    @Test
    void unusualAppends_fallBackToTheCarefulWay_andAnswerAsTheContractSays() {
        SessionId s = new SessionId("unusual");
        AppendResult first = log.append(s, AgentId.MAIN, List.of(entry("a1", null)), USAGE);

        counter.reset();
        AppendResult retry = log.append(s, AgentId.MAIN, List.of(entry("a1", null)), USAGE);
        assertThat(retry.entries()).isEqualTo(first.entries());
        assertThat(retry.written()).isZero();
        assertThat(counter.rolledBack).as("a retry's first attempt, rolled back").hasValue(2); // the attempt, and the answer
        assertThatThrownBy(() -> log.append(s, AgentId.MAIN, List.of(entry("a2", "nowhere")), USAGE))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("nowhere");
        assertThatThrownBy(() -> log.appendIfLast(s, AgentId.MAIN, new EntryId("stale"),
                List.of(entry("a2", "a1")), USAGE)).isInstanceOf(LastEntryMovedException.class);
        assertThatThrownBy(() -> log.append(s, AgentId.MAIN, List.of(entry("a2", "a1"), entry("a2", "a1")), USAGE))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("twice");

        assertThat(log.load(s, null)).extracting(e -> e.id().value()).containsExactly("a1");
        assertThat(store.catalog().orElseThrow().find(s).orElseThrow().entryCount()).isEqualTo(1);
        assertThat(log.loadUsage(s, AgentId.MAIN)).isEqualTo(USAGE);
    }
}
