package dev.parley.sqlite;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.StoreOptions;
import dev.parley.tck.MessageLogConformance;
import dev.parley.tck.MessageLogHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store passes the whole message-log kit, corruption included; each scope is its own database file. */
class SqliteMessageLogConformanceTest extends MessageLogConformance {
    @TempDir
    static Path root;

    @Override
    protected MessageLogHarness harness() {
        return new MessageLogHarness() {
            @Override
            public MessageLog open(String scope) {
                return SqliteMessageLog.open(root.resolve(scope).resolve("parley.db"), StoreOptions.defaults());
            }

            @Override
            public void cleanupScope(String scope) {
                Path dir = root.resolve(scope);
                if (!Files.exists(dir)) {
                    return;
                }
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public void corruptEntry(String scope, SessionId session, EntryId entry) {
                String url = "jdbc:sqlite:" + root.resolve(scope).resolve("parley.db");
                try (Connection c = DriverManager.getConnection(url);
                     PreparedStatement st = c.prepareStatement(
                             "UPDATE entries SET body = '{\"id\": broken' WHERE session_id = ? AND entry_id = ?")) {
                    st.setString(1, session.value());
                    st.setString(2, entry.value());
                    if (st.executeUpdate() != 1) {
                        throw new AssertionError("no row to corrupt");
                    }
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }
        };
    }
}
