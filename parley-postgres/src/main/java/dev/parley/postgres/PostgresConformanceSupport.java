package dev.parley.postgres;

import dev.parley.core.UnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Damage injection and cleanup for the conformance kit against a PostgreSQL store. Test support only: it deliberately
 * writes records that cannot be decoded (valid JSON, so the server accepts them, that is not a valid record).
 */
public final class PostgresConformanceSupport {
    private PostgresConformanceSupport() {}

    /** Replaces a session record with JSON that is not a session record. */
    public static void corruptSessionRecord(DataSource db, String scope, String sessionId) {
        update(db, "UPDATE parley_chat_sessions SET record = '{\"id\": 42}' WHERE scope_id = ? AND id = ?", scope,
                sessionId, null);
    }

    /** Replaces an archive manifest with JSON that is not a manifest. */
    public static void corruptManifest(DataSource db, String scope, String sessionId) {
        update(db, "UPDATE parley_chat_archive_heads SET manifest = '{\"version\": \"one\"}' WHERE scope_id = ?"
                + " AND session_id = ?", scope, sessionId, null);
    }

    /** Replaces a message-log entry's body with JSON that is not an entry. */
    public static void corruptEntry(DataSource db, String scope, String sessionId, String entryId) {
        update(db, "UPDATE parley_log_entries SET body = '{\"id\": [\"broken\"]}' WHERE scope_id = ? AND session_id = ?"
                + " AND entry_id = ?", scope, sessionId, entryId);
    }

    /** Removes every message-log row of a scope. */
    public static void dropLogScope(DataSource db, String scope) {
        try (Connection c = db.getConnection();
             PreparedStatement st = c.prepareStatement("DELETE FROM parley_log_sessions WHERE scope_id = ?")) {
            st.setString(1, scope);
            st.executeUpdate();
        } catch (SQLException e) {
            throw new UnavailableException("cannot clean up scope " + scope + ": " + e.getMessage(), e);
        }
    }

    private static void update(DataSource db, String sql, String a, String b, String c3) {
        try (Connection c = db.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, a);
            st.setString(2, b);
            if (c3 != null) {
                st.setString(3, c3);
            }
            if (st.executeUpdate() != 1) {
                throw new IllegalStateException("nothing to damage: " + a + " / " + b + (c3 == null ? "" : " / " + c3));
            }
        } catch (SQLException e) {
            throw new UnavailableException("cannot damage the record: " + e.getMessage(), e);
        }
    }
}
