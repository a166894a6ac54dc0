package dev.parley.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dialect's cache of prepared statements: reused statements start clean, and any number of texts still works. */
class StatementCacheTest {
    @TempDir
    Path dir;

    SqliteDialect open() throws Exception {
        SqliteDialect dialect = new SqliteDialect("test", DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("c.db")));
        dialect.withConnection(c -> {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)");
            }
            return null;
        });
        return dialect;
    }

    @Test
    void preparedTwice_theSecondStartsWithoutTheFirstsParametersOrRows() throws Exception {
        SqliteDialect dialect = open();
        try {
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
                    ResultSet rs = select.executeQuery(); // left open: closing the statement must close it
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isNull();
                }
                try (PreparedStatement select = c.prepareStatement("SELECT v FROM t WHERE k = ?");
                     PreparedStatement nested = c.prepareStatement("SELECT v FROM t WHERE k = ?")) {
                    select.setInt(1, 1);
                    nested.setInt(1, 2);
                    try (ResultSet outer = select.executeQuery(); ResultSet inner = nested.executeQuery()) {
                        assertThat(outer.next()).isTrue();
                        assertThat(inner.next()).isTrue();
                        assertThat(outer.getString(1)).isEqualTo("one");
                        assertThat(inner.getString(1)).isNull();
                    }
                }
                return null;
            });
        } finally {
            dialect.close();
        }
    }

    @Test
    void moreTextsThanTheCacheHolds_allRun() throws Exception {
        SqliteDialect dialect = open();
        try {
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
        } finally {
            dialect.close();
        }
    }
}
