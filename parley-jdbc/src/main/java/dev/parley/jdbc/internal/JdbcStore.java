package dev.parley.jdbc.internal;

import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.BaseStore;
import dev.parley.core.store.Capability;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.SqlDialect;
import java.sql.PreparedStatement;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a JDBC store is, whatever the database: the message log, its catalog, the session records and the archives
 * of one scope over a {@link SqlDialect}'s connections. The root instance owns the connections and closes them once;
 * scope views ({@link #withScope}) share them. Backends extend it with their factory and {@link #view}. Not API.
 */
public abstract class JdbcStore extends BaseStore {
    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.PERSISTENT,
            Capability.DURABLE, Capability.MULTI_PROCESS, Capability.CATALOG, Capability.SESSION_RECORDS,
            Capability.ARCHIVES));
    /** Every table of the schema, children before their parents. */
    private static final List<String> TABLES = List.of("parley_log_usage", "parley_log_entries",
            "parley_log_sessions", "parley_chat_archives", "parley_chat_archive_heads", "parley_chat_sessions");

    private final Database db;
    private final StoreOptions options;
    private final JdbcMessageLog log;
    private final JdbcSessions sessions;
    private final JdbcArchives archives;

    /** A root store over {@code dialect}, which it closes when it is closed. */
    protected JdbcStore(String uri, String scope, boolean scopePinned, SqlDialect dialect, StoreOptions options) {
        super(uri, scope, scopePinned);
        this.db = new Database(dialect);
        this.options = options;
        this.log = new JdbcMessageLog(db, scope, options);
        this.sessions = new JdbcSessions(db, scope);
        this.archives = new JdbcArchives(db, scope);
    }

    /** A view of {@code root}'s database bound to {@code scope}. */
    protected JdbcStore(JdbcStore root, String scope) {
        super(root, scope);
        this.db = root.db;
        this.options = root.options;
        this.log = new JdbcMessageLog(db, scope, options);
        this.sessions = new JdbcSessions(db, scope);
        this.archives = new JdbcArchives(db, scope);
    }

    @Override
    public final Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public final MessageLog log() {
        return log;
    }

    @Override
    public final Optional<SessionCatalog> catalog() {
        return Optional.of(log);
    }

    @Override
    public final Optional<ChatSessionRepository> sessions() {
        return Optional.of(sessions);
    }

    @Override
    public final Optional<ChatArchiveRepository> archives() {
        return Optional.of(archives);
    }

    /** Removes every row of this store's scope from every table, in one transaction. */
    @Override
    public final void deleteScope() {
        db.write("delete scope " + scope(), c -> {
            for (String table : TABLES) {
                try (PreparedStatement st = c.prepareStatement("DELETE FROM " + table + " WHERE scope_id = ?")) {
                    st.setString(1, scope());
                    st.executeUpdate();
                }
            }
            return null;
        });
    }

    @Override
    protected final void release() {
        db.close();
    }

    /** The database, for the conformance kit's damage injection and the backends' tests. */
    public final Database database() {
        return db;
    }

    /** The group-commit lane of the appends to {@code session} in this store's scope ({@link Database#laneOf}). */
    public final int laneOf(SessionId session) {
        return db.laneOf(JdbcMessageLog.lockKey(scope(), session));
    }
}
