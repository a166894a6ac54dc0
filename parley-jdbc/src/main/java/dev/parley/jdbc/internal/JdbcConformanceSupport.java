package dev.parley.jdbc.internal;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import dev.parley.jdbc.SqlDialect;
import dev.parley.tck.spi.ConformanceSupport;
import java.sql.PreparedStatement;
import java.util.Locale;

/**
 * Damage injection for the conformance kit against a JDBC store: each method replaces one stored document with
 * JSON that the database accepts (PostgreSQL checks {@code json} columns) but that is not a valid record, so the
 * read must fail loudly. Backends register a subclass per scheme. Test support only; not API.
 */
public abstract class JdbcConformanceSupport implements ConformanceSupport {

    @Override
    public void corruptEntry(Store store, SessionId session, EntryId entry) {
        damage(store, "UPDATE parley_log_entries SET body = %s WHERE scope_id = ? AND session_id = ? AND entry_id = ?",
                "{\"id\": [\"broken\"]}", session.value(), entry.value());
    }

    @Override
    public void corruptSessionRecord(Store store, String sessionId) {
        damage(store, "UPDATE parley_chat_sessions SET record = %s WHERE scope_id = ? AND id = ?", "{\"id\": 42}",
                sessionId);
    }

    @Override
    public void corruptManifest(Store store, String sessionId) {
        damage(store, "UPDATE parley_chat_archive_heads SET manifest = %s WHERE scope_id = ? AND session_id = ?",
                "{\"version\": \"one\"}", sessionId);
    }

    /** Runs {@code sql} (its {@code %s} the JSON parameter) with the damage, the store's scope and {@code keys}. */
    private static void damage(Store store, String sql, String json, String... keys) {
        if (!(store instanceof JdbcStore jdbc)) {
            throw new IllegalArgumentException("not a JDBC store: " + store);
        }
        SqlDialect dialect = jdbc.database().dialect();
        int changed = jdbc.database().write("damage a record for the conformance kit", c -> {
            try (PreparedStatement st = c.prepareStatement(String.format(Locale.ROOT, sql, dialect.jsonParameter()))) {
                st.setString(1, json);
                st.setString(2, store.scope());
                for (int i = 0; i < keys.length; i++) {
                    st.setString(3 + i, keys[i]);
                }
                return st.executeUpdate();
            }
        });
        if (changed != 1) {
            throw new IllegalStateException("nothing to damage: " + String.join(" / ", keys) + " in scope "
                    + store.scope());
        }
    }
}
