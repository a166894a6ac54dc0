package dev.parley.sqlite;

import dev.parley.core.UnavailableException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Damage injection for the conformance kit's corruption scenarios, against a SQLite store's file. Test support only:
 * it deliberately writes records that cannot be decoded.
 */
public final class SqliteConformanceSupport {
    private SqliteConformanceSupport() {}

    /** Replaces a session record's stored JSON with a truncated one. */
    public static void corruptSessionRecord(Path db, String scope, String sessionId) {
        update(db, "UPDATE chat_sessions SET record = '{\"id\":' WHERE scope_id = ? AND id = ?", scope, sessionId);
    }

    /** Replaces an archive manifest's stored JSON with a truncated one. */
    public static void corruptManifest(Path db, String scope, String sessionId) {
        update(db, "UPDATE chat_archive_heads SET manifest = '{\"version\":1,' WHERE scope_id = ? AND session_id = ?",
                scope, sessionId);
    }

    /** Replaces a message-log entry's stored JSON with a truncated one. */
    public static void corruptEntry(Path db, String sessionId, String entryId) {
        update(db, "UPDATE entries SET body = '{\"id\": broken' WHERE session_id = ? AND entry_id = ?", sessionId, entryId);
    }

    private static void update(Path db, String sql, String a, String b) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db.toAbsolutePath());
             PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, a);
            st.setString(2, b);
            if (st.executeUpdate() != 1) {
                throw new IllegalStateException("nothing to damage: " + a + " / " + b);
            }
        } catch (SQLException e) {
            throw new UnavailableException("cannot damage " + db + ": " + e.getMessage(), e);
        }
    }
}
