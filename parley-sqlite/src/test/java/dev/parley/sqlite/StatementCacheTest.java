package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dialect's cache of prepared statements: a reused statement starts clean, failures keep SQLite's codes, and any number of texts works. */
class StatementCacheTest {
    @TempDir
    Path dir;

    SqliteDialect dialect;

    @BeforeEach
    void open() throws Exception {
        Path file = dir.resolve("c.db");
        dialect = new SqliteDialect("test", file, DriverManager.getConnection("jdbc:sqlite:" + file));
        dialect.withConnection(c -> {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
            }
            return null;
        });
    }

    @AfterEach
    void close() {
        dialect.close();
    }

    @Test
    void preparedTwice_theSecondStartsWithoutTheFirstsParameters() throws Exception {
        dialect.withConnection(c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (k, v) VALUES (?, ?)")) {
                insert.setInt(1, 1);
                insert.setString(2, "one");
                insert.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (k, v) VALUES (?, ?)")) {
                insert.setInt(1, 2); // the second parameter is left unbound: NULL, not the first use's "one"
                insert.executeUpdate();
            }
            try (PreparedStatement select = c.prepareStatement("SELECT v FROM t WHERE k = ?")) {
                select.setInt(1, 2);
                try (ResultSet rs = select.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isNull();
                }
            }
            return null;
        });
    }

    @Test
    void statementClosedWithRowsUnread_holdsNoReadSnapshot() throws Exception {
        // A statement stopped mid-step keeps its read transaction, which no checkpoint can pass; a cached statement
        // is not closed, so returning it to the cache must reset it.
        Path file = dir.resolve("c.db");
        dialect.withConnection(c -> {
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO t (k, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
            }
            PreparedStatement select = c.prepareStatement("SELECT v FROM t ORDER BY k");
            ResultSet rs = select.executeQuery();
            assertThat(rs.next()).isTrue(); // two rows left unread
            select.close();
            return null;
        });
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement st = other.createStatement();
             ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).as("checkpoint blocked by a reader").isZero();
        }
    }

    @Test
    void statementThatFailed_runsAgain() throws Exception {
        dialect.withConnection(c -> {
            for (int k : new int[] {1, 1, 2}) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (k, v) VALUES (?, 'x')")) {
                    insert.setInt(1, k);
                    insert.executeUpdate();
                } catch (SQLException e) {
                    assertThat(dialect.isUniqueViolation(e)).as("the second insert of key 1").isTrue();
                }
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(2);
            }
            return null;
        });
    }

    @Test
    void failureToPrepare_isMappedBySqlitesOwnError() throws Exception {
        SQLException failure = dialect.withConnection(c -> {
            try (PreparedStatement ignored = c.prepareStatement("SELECT v FROM missing")) {
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        assertThat((Throwable) failure).isNotNull();
        assertThat(dialect.map(failure, "read")).hasMessageContaining("no such table: missing");
    }

    @Test
    void moreTextsThanTheCacheHolds_allRun() throws Exception {
        int count = dialect.withConnection(c -> {
            int rows = 0;
            for (int i = 0; i < 300; i++) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (k, v) VALUES (?, '" + i + "')")) {
                    insert.setInt(1, i);
                    rows += insert.executeUpdate();
                }
            }
            return rows;
        });
        assertThat(count).isEqualTo(300);
    }
}
