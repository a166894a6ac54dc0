package dev.parley.postgres;

import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryKind;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Scopes;
import dev.parley.core.store.StoreOptions;
import dev.parley.json.EntryCodec;
import dev.parley.json.Json;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The message log, its catalog, and the session and archive repositories in one PostgreSQL database: the hosted,
 * multi-replica store. Every replica points at the same database and gets the guarantees of the embedded default.
 *
 * <ul>
 *   <li>One row per entry; the insertion order is an identity sequence. A batch is one transaction that first locks
 *       the session's catalog row, so appends to one session are serialized across replicas and sequence order is
 *       commit order within a session. The id and parent checks run in the same transaction (and foreign keys back
 *       them up).</li>
 *   <li>Every row carries the store's <b>scope</b> (a tenant id fixed when the store is built): a session of another
 *       scope is indistinguishable from a missing one. The repositories take their own scope per
 *       {@link Repositories#sessions(String)} call, as Heddle's do.</li>
 *   <li>Entry bodies are stored as {@code json} — their exact text — so a transcript comes back byte for byte; free
 *       text bound to text columns is escaped so that NUL survives ({@link PgText}).</li>
 *   <li>Commits are durable as the server is configured; Parley assumes {@code fsync=on} and
 *       {@code synchronous_commit=on} (the defaults).</li>
 * </ul>
 * Errors: a failed connection, a server shutting down, a serialization failure are {@code UnavailableException}s
 * (retriable); nothing is half-written, since every operation is one transaction.
 *
 * <p>Thread-safe: each operation borrows a connection from the data source (a HikariCP pool when opened from a URI).
 */
public final class PostgresStore implements MessageLog, SessionCatalog {
    private final DataSource dataSource;
    private final String scope;
    private final StoreOptions options;
    private final String where;
    private final @Nullable AutoCloseable owned;
    private volatile boolean closed;

    private PostgresStore(Builder b) {
        this.dataSource = b.dataSource;
        this.scope = b.scope;
        this.options = b.options;
        this.where = PostgresSchema.describe(b.dataSource) + (b.scope.equals(DEFAULT_SCOPE) ? "" : " scope=" + b.scope);
        this.owned = b.closeDataSource && b.dataSource instanceof AutoCloseable c ? c : null;
    }

    /** The scope a store is bound to when none is given. */
    public static final String DEFAULT_SCOPE = "default";

    /** A builder over {@code dataSource}, which must reach a UTF-8 database. */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** Builds a {@link PostgresStore}. */
    public static final class Builder {
        private final DataSource dataSource;
        private String scope = DEFAULT_SCOPE;
        private boolean migrate = true;
        private boolean closeDataSource;
        private StoreOptions options = StoreOptions.defaults();

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * The scope (tenant) of the message log; default {@value PostgresStore#DEFAULT_SCOPE}. Bind it from a trusted
         * server-side identity, never from client input.
         *
         * @throws InvalidInputException if it is empty, longer than 128 characters or holds NUL
         */
        public Builder scope(String scope) {
            this.scope = requireScope(scope);
            return this;
        }

        /**
         * Whether {@link #build()} applies missing migrations (default true). With false it only checks that the
         * schema is exactly the one this code needs, for hosts that migrate in a separate step.
         */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /** Whether {@link PostgresStore#close()} also closes the data source (default false: the host owns it). */
        public Builder closeDataSource(boolean close) {
            this.closeDataSource = close;
            return this;
        }

        /** Clock and id generator. */
        public Builder options(StoreOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Migrates (or validates) the schema and returns the store.
         *
         * @throws dev.parley.core.UnavailableException if the database cannot be reached or its schema is behind
         * @throws dev.parley.core.UnsupportedException if its schema is newer than this code, or it is not UTF-8
         */
        public PostgresStore build() {
            if (migrate) {
                PostgresSchema.migrate(dataSource);
            } else {
                PostgresSchema.validate(dataSource);
            }
            return new PostgresStore(this);
        }
    }

    static String requireScope(String scope) {
        return Scopes.require(scope);
    }

    /** The scope of this store's message log. */
    public String scope() {
        return scope;
    }

    /** The data source. */
    public DataSource dataSource() {
        return dataSource;
    }

    // ---- writes ----

    @Override
    public List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        if (batch.isEmpty()) {
            AppendCheck.check(session, agent, batch, id -> false);
            return List.of();
        }
        return inTransaction("append to session " + session, c -> {
            Instant now = now();
            lockSession(c, session, now);
            Set<EntryId> stored = existing(c, session, batch);
            AppendCheck.check(session, agent, batch, stored::contains);
            List<Entry> out = new ArrayList<>(batch.size());
            long messages = 0;
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO parley_log_entries (scope_id, session_id,"
                    + " entry_id, parent_id, agent_id, kind, body) VALUES (?, ?, ?, ?, ?, ?, ?::json) RETURNING seq")) {
                for (NewEntry e : batch) {
                    Entry provisional = new Entry(1, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source());
                    insert.setString(1, scope);
                    insert.setString(2, session.value());
                    insert.setString(3, e.id().value());
                    insert.setString(4, e.parentId() == null ? null : e.parentId().value());
                    insert.setString(5, agent.value());
                    insert.setString(6, provisional.kind().wireName());
                    insert.setString(7, EntryCodec.encodeRow(provisional));
                    long seq;
                    try (ResultSet rs = insert.executeQuery()) {
                        rs.next();
                        seq = rs.getLong(1);
                    }
                    out.add(new Entry(seq, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source()));
                    if (provisional.kind() == EntryKind.MESSAGE) {
                        messages++;
                    }
                }
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE parley_log_sessions SET updated_at ="
                    + " greatest(updated_at, ?), entry_count = entry_count + ?, message_count = message_count + ?"
                    + " WHERE scope_id = ? AND id = ?")) {
                update.setObject(1, timestamp(now));
                update.setLong(2, batch.size());
                update.setLong(3, messages);
                update.setString(4, scope);
                update.setString(5, session.value());
                update.executeUpdate();
            }
            return out;
        });
    }

    /** The ids among the batch's ids and parents that the session already holds, in one query. */
    private Set<EntryId> existing(Connection c, SessionId session, List<NewEntry> batch) throws SQLException {
        Set<String> asked = new HashSet<>();
        for (NewEntry e : batch) {
            asked.add(e.id().value());
            if (e.parentId() != null) {
                asked.add(e.parentId().value());
            }
        }
        Set<EntryId> found = new HashSet<>();
        try (PreparedStatement st = c.prepareStatement("SELECT entry_id FROM parley_log_entries WHERE scope_id = ?"
                + " AND session_id = ? AND entry_id = ANY (?)")) {
            Array ids = c.createArrayOf("text", asked.toArray());
            st.setString(1, scope);
            st.setString(2, session.value());
            st.setArray(3, ids);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    found.add(new EntryId(rs.getString(1)));
                }
            }
        }
        return found;
    }

    @Override
    public void truncateAfter(SessionId session, EntryId entry) {
        inTransaction("truncate session " + session, c -> {
            lockExisting(c, session);
            long seq;
            try (PreparedStatement find = c.prepareStatement("SELECT seq FROM parley_log_entries WHERE scope_id = ?"
                    + " AND session_id = ? AND entry_id = ?")) {
                find.setString(1, scope);
                find.setString(2, session.value());
                find.setString(3, entry.value());
                try (ResultSet rs = find.executeQuery()) {
                    if (!rs.next()) {
                        throw new NotFoundException("no entry " + entry + " in session " + session);
                    }
                    seq = rs.getLong(1);
                }
            }
            long removed = 0;
            long removedMessages = 0;
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM parley_log_entries WHERE scope_id = ?"
                    + " AND session_id = ? AND seq > ? RETURNING kind")) {
                delete.setString(1, scope);
                delete.setString(2, session.value());
                delete.setLong(3, seq);
                try (ResultSet rs = delete.executeQuery()) {
                    while (rs.next()) {
                        removed++;
                        if (EntryKind.MESSAGE.wireName().equals(rs.getString(1))) {
                            removedMessages++;
                        }
                    }
                }
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE parley_log_sessions SET updated_at ="
                    + " greatest(updated_at, ?), entry_count = entry_count - ?, message_count = message_count - ?"
                    + " WHERE scope_id = ? AND id = ?")) {
                update.setObject(1, timestamp(now()));
                update.setLong(2, removed);
                update.setLong(3, removedMessages);
                update.setString(4, scope);
                update.setString(5, session.value());
                update.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void persistUsage(SessionId session, AgentId agent, Usage usage) {
        Objects.requireNonNull(usage, "usage");
        inTransaction("record usage in session " + session, c -> {
            lockSession(c, session, now());
            try (PreparedStatement upsert = c.prepareStatement("INSERT INTO parley_log_usage (scope_id, session_id,"
                    + " agent_id, input, output, cache_read, cache_write, reasoning, cost_usd)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope_id, session_id, agent_id) DO UPDATE SET"
                    + " input = parley_log_usage.input + excluded.input,"
                    + " output = parley_log_usage.output + excluded.output,"
                    + " cache_read = parley_log_usage.cache_read + excluded.cache_read,"
                    + " cache_write = parley_log_usage.cache_write + excluded.cache_write,"
                    + " reasoning = parley_log_usage.reasoning + excluded.reasoning,"
                    + " cost_usd = CASE WHEN parley_log_usage.cost_usd IS NULL AND excluded.cost_usd IS NULL THEN NULL"
                    + " ELSE coalesce(parley_log_usage.cost_usd, 0) + coalesce(excluded.cost_usd, 0) END")) {
                upsert.setString(1, scope);
                upsert.setString(2, session.value());
                upsert.setString(3, agent.value());
                upsert.setLong(4, usage.inputTokens());
                upsert.setLong(5, usage.outputTokens());
                upsert.setLong(6, usage.cacheReadTokens());
                upsert.setLong(7, usage.cacheWriteTokens());
                upsert.setLong(8, usage.reasoningTokens());
                upsert.setBigDecimal(9, usage.costUsd());
                upsert.executeUpdate();
            }
            return null;
        });
    }

    // ---- reads ----

    @Override
    public List<Entry> load(SessionId session, @Nullable AgentId agent) {
        Objects.requireNonNull(session, "session");
        String sql = "SELECT seq, entry_id, body FROM parley_log_entries WHERE scope_id = ? AND session_id = ?"
                + (agent == null ? "" : " AND agent_id = ?") + " ORDER BY seq";
        return inTransaction("load session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setFetchSize(1000);
                st.setString(1, scope);
                st.setString(2, session.value());
                if (agent != null) {
                    st.setString(3, agent.value());
                }
                List<Entry> out = new ArrayList<>();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.add(decodeRow(rs.getLong(1), rs.getString(2), rs.getString(3)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        return inTransaction("read the last entry of session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT seq, entry_id, body FROM parley_log_entries"
                    + " WHERE scope_id = ? AND session_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT 1")) {
                st.setString(1, scope);
                st.setString(2, session.value());
                st.setString(3, agent.value());
                try (ResultSet rs = st.executeQuery()) {
                    return rs.next() ? Optional.of(decodeRow(rs.getLong(1), rs.getString(2), rs.getString(3)))
                            : Optional.<Entry>empty();
                }
            }
        });
    }

    @Override
    public Usage loadUsage(SessionId session, AgentId agent) {
        return inTransaction("read usage of session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT input, output, cache_read, cache_write, reasoning,"
                    + " cost_usd FROM parley_log_usage WHERE scope_id = ? AND session_id = ? AND agent_id = ?")) {
                st.setString(1, scope);
                st.setString(2, session.value());
                st.setString(3, agent.value());
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return Usage.ZERO;
                    }
                    try {
                        return new Usage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                                rs.getBigDecimal(6));
                    } catch (InvalidInputException e) {
                        throw new CorruptRecordException(where + " parley_log_usage " + session + "/" + agent,
                                e.getMessage(), e);
                    }
                }
            }
        });
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.of(this);
    }

    /** The session and archive repositories in this database; each is bound to the scope it is asked for. */
    @Override
    public Optional<Repositories> repositories() {
        return Optional.of(new PostgresRepositories(this));
    }

    // ---- catalog ----

    @Override
    public SessionInfo create(NewSession session) {
        return inTransaction("create session " + session.id(), c -> {
            Instant now = now();
            try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_log_sessions (scope_id, id, created_at,"
                    + " updated_at, title, origin, metadata) VALUES (?, ?, ?, ?, ?, ?, ?::json)"
                    + " ON CONFLICT (scope_id, id) DO NOTHING")) {
                st.setString(1, scope);
                st.setString(2, session.id().value());
                st.setObject(3, timestamp(now));
                st.setObject(4, timestamp(now));
                st.setString(5, PgText.escape(session.title()));
                st.setString(6, PgText.escape(session.origin()));
                st.setString(7, Json.write(EntryCodec.encodeRawMap(session.metadata())));
                if (st.executeUpdate() == 0) {
                    throw new AlreadyExistsException("session " + session.id() + " already exists");
                }
            }
            return findInfo(c, session.id()).orElseThrow();
        });
    }

    @Override
    public Optional<SessionInfo> find(SessionId session) {
        return inTransaction("find session " + session, c -> findInfo(c, session));
    }

    @Override
    public SessionPage list(@Nullable String cursor, int limit) {
        CatalogCursor.checkLimit(limit);
        CatalogCursor after = CatalogCursor.decode(cursor);
        String sql = SESSION_COLUMNS + " FROM parley_log_sessions WHERE scope_id = ?"
                + (after == null ? "" : " AND (updated_at < ? OR (updated_at = ? AND id > ?))")
                + " ORDER BY updated_at DESC, id ASC LIMIT ?";
        return inTransaction("list sessions", c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                int i = 1;
                st.setString(i++, scope);
                if (after != null) {
                    st.setObject(i++, timestamp(after.updatedAt()));
                    st.setObject(i++, timestamp(after.updatedAt()));
                    st.setString(i++, after.id().value());
                }
                st.setInt(i, limit + 1);
                List<SessionInfo> rows = readSessions(st);
                boolean more = rows.size() > limit;
                List<SessionInfo> page = more ? rows.subList(0, limit) : rows;
                return new SessionPage(page, more ? CatalogCursor.after(page.get(page.size() - 1)).encode() : null);
            }
        });
    }

    @Override
    public List<SessionInfo> findByOrigin(String origin) {
        return inTransaction("find sessions by origin", c -> {
            try (PreparedStatement st = c.prepareStatement(SESSION_COLUMNS + " FROM parley_log_sessions"
                    + " WHERE scope_id = ? AND origin = ? ORDER BY created_at, id")) {
                st.setString(1, scope);
                st.setString(2, PgText.escape(origin));
                return readSessions(st);
            }
        });
    }

    @Override
    public List<SessionId> findByPrefix(String prefix, int max) {
        if (max < 1) {
            throw new InvalidInputException("max must be positive");
        }
        return inTransaction("find sessions by prefix", c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT id FROM parley_log_sessions WHERE scope_id = ?"
                    + " AND id >= ? AND id < ? ORDER BY id LIMIT ?")) {
                st.setString(1, scope);
                st.setString(2, PgText.escape(prefix));
                st.setString(3, PgText.escape(prefix) + '\u007f');
                st.setInt(4, max);
                List<SessionId> out = new ArrayList<>();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.add(new SessionId(rs.getString(1)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public boolean delete(SessionId session) {
        return inTransaction("delete session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement("DELETE FROM parley_log_sessions WHERE scope_id = ? AND id = ?")) {
                st.setString(1, scope);
                st.setString(2, session.value());
                return st.executeUpdate() > 0;
            }
        });
    }

    /** Closes the data source if this store owns it. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new dev.parley.core.UnavailableException("closing the connection pool of " + where + " failed: "
                        + e.getMessage(), e);
            }
        }
    }

    // ---- internals ----

    private static final String SESSION_COLUMNS = "SELECT id, created_at, updated_at, title, origin, metadata,"
            + " entry_count, message_count";

    private List<SessionInfo> readSessions(PreparedStatement st) throws SQLException {
        List<SessionInfo> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String id = rs.getString(1);
                String location = where + " parley_log_sessions id=" + id;
                try {
                    Map<String, RawJson> metadata =
                            EntryCodec.decodeRawMap(EntryCodec.parseRecord(rs.getString(6), location), location);
                    out.add(new SessionInfo(new SessionId(id), instant(rs, 2), instant(rs, 3),
                            PgText.unescape(rs.getString(4)), PgText.unescape(rs.getString(5)), rs.getLong(7),
                            rs.getLong(8), metadata));
                } catch (IllegalArgumentException e) {
                    throw new CorruptRecordException(location, e.getMessage(), e);
                }
            }
        }
        return out;
    }

    private Optional<SessionInfo> findInfo(Connection c, SessionId session) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(SESSION_COLUMNS + " FROM parley_log_sessions"
                + " WHERE scope_id = ? AND id = ?")) {
            st.setString(1, scope);
            st.setString(2, session.value());
            List<SessionInfo> rows = readSessions(st);
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        }
    }

    /** Creates the session's catalog row if needed and locks it until the transaction ends. */
    private void lockSession(Connection c, SessionId session, Instant now) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_log_sessions (scope_id, id, created_at,"
                + " updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope_id, id) DO NOTHING")) {
            st.setString(1, scope);
            st.setString(2, session.value());
            st.setObject(3, timestamp(now));
            st.setObject(4, timestamp(now));
            st.executeUpdate();
        }
        lockExisting(c, session);
    }

    /** Locks the session's catalog row (if it exists) until the transaction ends. */
    private void lockExisting(Connection c, SessionId session) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM parley_log_sessions WHERE scope_id = ? AND id = ?"
                + " FOR UPDATE")) {
            st.setString(1, scope);
            st.setString(2, session.value());
            st.executeQuery().close();
        }
    }

    private Entry decodeRow(long seq, String entryId, String body) {
        return EntryCodec.decodeRow(body, seq, entryId, where + " parley_log_entries seq=" + seq);
    }

    /** Now, to the millisecond: catalog cursors carry milliseconds, so stored times must not be finer. */
    private Instant now() {
        return options.clock().instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant instant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    /** Work on a connection inside one transaction. */
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /** Runs work in one transaction on a borrowed connection, committing on success and rolling back otherwise. */
    <T> T inTransaction(String doing, SqlWork<T> work) {
        if (closed) {
            throw new IllegalStateException(where + " is closed");
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                try {
                    c.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw PostgresErrors.map(e, where, doing);
        }
    }

    /** Where this store is, for error messages. */
    String where() {
        return where;
    }

    @Override
    public String toString() {
        return where;
    }
}
