package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialect lends its one connection in auto-commit mode, whatever the last borrower left: a transaction left open
 * (what a rollback that failed leaves) is rolled back, not read by the next borrower nor committed with its work.
 */
class ConnectionLendingTest {
    @TempDir
    Path dir;

    SqliteDialect dialect;

    @BeforeEach
    void open() throws Exception {
        Path file = dir.resolve("l.db");
        dialect = new SqliteDialect("test", file, DriverManager.getConnection("jdbc:sqlite:" + file));
        dialect.withConnection(c -> {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)");
            }
            return null;
        });
    }

    @AfterEach
    void close() {
        dialect.close();
    }

    /** Found by a review of 39bccd0: the next borrower ran inside the transaction left open, and saw its rows. */
    @Test
    void aConnectionLeftInATransaction_isRolledBackBeforeItIsLentAgain() throws Exception {
        dialect.withConnection(c -> {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO t (k) VALUES (1)");
            }
            return null; // left open, as a rollback that failed leaves it
        });
        int rows = dialect.withConnection(c -> {
            assertThat(c.getAutoCommit()).isTrue();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                return rs.getInt(1);
            }
        });
        assertThat(rows).isZero();
    }
}
