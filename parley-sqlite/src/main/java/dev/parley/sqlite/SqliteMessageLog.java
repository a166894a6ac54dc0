package dev.parley.sqlite;

import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
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
import dev.parley.core.store.StoreOptions;
import dev.parley.json.EntryCodec;
import dev.parley.json.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The message log in one SQLite database file: WAL journal, {@code synchronous=FULL}, foreign keys on, one
 * {@code BEGIN IMMEDIATE} transaction per write. Several processes may open the same file; writers take turns
 * (waiting up to {@value #BUSY_TIMEOUT_MILLIS} ms for the lock, then failing with a retriable
 * {@link UnavailableException}).
 *
 * <p>An append inserts one row per entry and updates one catalog row; nothing stored is rewritten, so its cost does
 * not grow with the session. Entries are stored as their canonical JSON ({@link EntryCodec}) beside indexed columns.
 *
 * <p>Thread-safe: operations are serialized on one connection.
 */
public final class SqliteMessageLog implements MessageLog, SessionCatalog {
    /** How long a writer waits for another process's write lock, in milliseconds. */
    public static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private final Path file;
    private final String where;
    private final StoreOptions options;
    private final Connection connection;
    private boolean closed;

    private SqliteMessageLog(Path file, StoreOptions options, Connection connection) {
        this.file = file;
        this.where = "sqlite:" + file;
        this.options = options;
        this.connection = connection;
    }

    /**
     * Opens (creating if needed) the database at {@code file} and brings its schema up to date.
     *
     * @throws InvalidInputException if the path is a directory
     * @throws UnavailableException if the file cannot be opened or migrated
     * @throws dev.parley.core.UnsupportedException if the file was written by a newer Parley
     */
    public static SqliteMessageLog open(Path file, StoreOptions options) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(options, "options");
        Path absolute = file.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            throw new InvalidInputException("sqlite:" + absolute + " is a directory, not a database file (a directory"
                    + " of JSONL session files opens as jsonl:" + absolute + ")");
        }
        try {
            Path dir = absolute.getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot create the directory of " + absolute + ": " + e.getMessage(), e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + absolute);
        String where = "sqlite:" + absolute;
        SqliteSchema.migrate(dataSource, where);
        try {
            return new SqliteMessageLog(absolute, options, dataSource.getConnection());
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, "open the database");
        }
    }

    /** The database file. */
    public Path file() {
        return file;
    }

    // ---- writes ----

    @Override
    public synchronized List<Entry> append(SessionId session, AgentId agent, List<NewEntry> batch) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        if (batch.isEmpty()) {
            AppendCheck.check(session, agent, batch, id -> false);
            return List.of();
        }
        return inTransaction("append to session " + session, () -> {
            AppendCheck.check(session, agent, batch, id -> entryExists(session, id));
            long now = options.clock().millis();
            ensureSession(session, now);
            List<Entry> stored = new ArrayList<>(batch.size());
            long messages = 0;
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO entries (session_id, entry_id, parent_id, agent_id, kind, body) VALUES (?, ?, ?, ?, ?, ?)"
                            + " RETURNING seq")) {
                for (NewEntry e : batch) {
                    Entry provisional = new Entry(1, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source());
                    insert.setString(1, session.value());
                    insert.setString(2, e.id().value());
                    insert.setString(3, e.parentId() == null ? null : e.parentId().value());
                    insert.setString(4, agent.value());
                    insert.setString(5, provisional.kind().wireName());
                    insert.setString(6, EntryCodec.encodeRow(provisional));
                    long seq;
                    try (ResultSet rs = insert.executeQuery()) {
                        rs.next();
                        seq = rs.getLong(1);
                    }
                    stored.add(new Entry(seq, e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source()));
                    if (provisional.kind() == EntryKind.MESSAGE) {
                        messages++;
                    }
                }
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sessions SET updated_at = max(updated_at, ?), entry_count = entry_count + ?,"
                            + " message_count = message_count + ? WHERE id = ?")) {
                update.setLong(1, now);
                update.setLong(2, batch.size());
                update.setLong(3, messages);
                update.setString(4, session.value());
                update.executeUpdate();
            }
            return stored;
        });
    }

    @Override
    public synchronized void truncateAfter(SessionId session, EntryId entry) {
        inTransaction("truncate session " + session, () -> {
            long seq;
            try (PreparedStatement find = connection.prepareStatement(
                    "SELECT seq FROM entries WHERE session_id = ? AND entry_id = ?")) {
                find.setString(1, session.value());
                find.setString(2, entry.value());
                try (ResultSet rs = find.executeQuery()) {
                    if (!rs.next()) {
                        throw new NotFoundException("no entry " + entry + " in session " + session);
                    }
                    seq = rs.getLong(1);
                }
            }
            long removed;
            long removedMessages;
            try (PreparedStatement count = connection.prepareStatement(
                    "SELECT count(*), coalesce(sum(kind = 'message'), 0) FROM entries WHERE session_id = ? AND seq > ?")) {
                count.setString(1, session.value());
                count.setLong(2, seq);
                try (ResultSet rs = count.executeQuery()) {
                    rs.next();
                    removed = rs.getLong(1);
                    removedMessages = rs.getLong(2);
                }
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM entries WHERE session_id = ? AND seq > ?")) {
                delete.setString(1, session.value());
                delete.setLong(2, seq);
                delete.executeUpdate();
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sessions SET updated_at = max(updated_at, ?), entry_count = entry_count - ?,"
                            + " message_count = message_count - ? WHERE id = ?")) {
                update.setLong(1, options.clock().millis());
                update.setLong(2, removed);
                update.setLong(3, removedMessages);
                update.setString(4, session.value());
                update.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public synchronized void persistUsage(SessionId session, AgentId agent, Usage usage) {
        inTransaction("record usage in session " + session, () -> {
            ensureSession(session, options.clock().millis());
            Usage total = readUsage(session, agent).plus(usage);
            try (PreparedStatement upsert = connection.prepareStatement(
                    "INSERT INTO agent_usage (session_id, agent_id, input, output, cache_read, cache_write, reasoning,"
                            + " cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, agent_id) DO UPDATE SET"
                            + " input = excluded.input, output = excluded.output, cache_read = excluded.cache_read,"
                            + " cache_write = excluded.cache_write, reasoning = excluded.reasoning,"
                            + " cost_usd = excluded.cost_usd")) {
                upsert.setString(1, session.value());
                upsert.setString(2, agent.value());
                upsert.setLong(3, total.inputTokens());
                upsert.setLong(4, total.outputTokens());
                upsert.setLong(5, total.cacheReadTokens());
                upsert.setLong(6, total.cacheWriteTokens());
                upsert.setLong(7, total.reasoningTokens());
                upsert.setString(8, total.costUsd() == null ? null : total.costUsd().toPlainString());
                upsert.executeUpdate();
            }
            return null;
        });
    }

    // ---- reads ----

    @Override
    public synchronized List<Entry> load(SessionId session, @Nullable AgentId agent) {
        String sql = "SELECT seq, entry_id, body FROM entries WHERE session_id = ?"
                + (agent == null ? "" : " AND agent_id = ?") + " ORDER BY seq";
        return read("load session " + session, () -> {
            try (PreparedStatement st = connection.prepareStatement(sql)) {
                st.setString(1, session.value());
                if (agent != null) {
                    st.setString(2, agent.value());
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
    public synchronized Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        return read("read the last entry of session " + session, () -> {
            try (PreparedStatement st = connection.prepareStatement(
                    "SELECT seq, entry_id, body FROM entries WHERE session_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT 1")) {
                st.setString(1, session.value());
                st.setString(2, agent.value());
                try (ResultSet rs = st.executeQuery()) {
                    return rs.next() ? Optional.of(decodeRow(rs.getLong(1), rs.getString(2), rs.getString(3)))
                            : Optional.empty();
                }
            }
        });
    }

    @Override
    public synchronized Usage loadUsage(SessionId session, AgentId agent) {
        return read("read usage of session " + session, () -> readUsage(session, agent));
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.of(this);
    }

    @Override
    public Optional<dev.parley.core.repository.Repositories> repositories() {
        return Optional.of(new SqliteRepositories(this));
    }

    /** The connection, for the repositories that share it (always used under this instance's monitor). */
    Connection connection() {
        return connection;
    }

    /** Where this store is, for error messages. */
    String where() {
        return where;
    }

    // ---- catalog ----

    @Override
    public synchronized SessionInfo create(NewSession session) {
        return inTransaction("create session " + session.id(), () -> {
            if (findInfo(session.id()).isPresent()) {
                throw new AlreadyExistsException("session " + session.id() + " already exists");
            }
            long now = options.clock().millis();
            try (PreparedStatement st = connection.prepareStatement(
                    "INSERT INTO sessions (id, created_at, updated_at, title, origin, metadata) VALUES (?, ?, ?, ?, ?, ?)")) {
                st.setString(1, session.id().value());
                st.setLong(2, now);
                st.setLong(3, now);
                st.setString(4, session.title());
                st.setString(5, session.origin());
                st.setString(6, Json.write(EntryCodec.encodeRawMap(session.metadata())));
                st.executeUpdate();
            }
            return findInfo(session.id()).orElseThrow();
        });
    }

    @Override
    public synchronized Optional<SessionInfo> find(SessionId session) {
        return read("find session " + session, () -> findInfo(session));
    }

    @Override
    public synchronized SessionPage list(@Nullable String cursor, int limit) {
        CatalogCursor.checkLimit(limit);
        CatalogCursor after = CatalogCursor.decode(cursor);
        return read("list sessions", () -> {
            String sql = SESSION_COLUMNS + " FROM sessions"
                    + (after == null ? "" : " WHERE updated_at < ? OR (updated_at = ? AND id > ?)")
                    + " ORDER BY updated_at DESC, id ASC LIMIT ?";
            try (PreparedStatement st = connection.prepareStatement(sql)) {
                int i = 1;
                if (after != null) {
                    st.setLong(i++, after.updatedAt().toEpochMilli());
                    st.setLong(i++, after.updatedAt().toEpochMilli());
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
    public synchronized List<SessionInfo> findByOrigin(String origin) {
        return read("find sessions by origin", () -> {
            try (PreparedStatement st = connection.prepareStatement(
                    SESSION_COLUMNS + " FROM sessions WHERE origin = ? ORDER BY created_at, id")) {
                st.setString(1, origin);
                return readSessions(st);
            }
        });
    }

    @Override
    public synchronized List<SessionId> findByPrefix(String prefix, int max) {
        if (max < 1) {
            throw new InvalidInputException("max must be positive");
        }
        return read("find sessions by prefix", () -> {
            try (PreparedStatement st = connection.prepareStatement(
                    "SELECT id FROM sessions WHERE id >= ? AND id < ? ORDER BY id LIMIT ?")) {
                st.setString(1, prefix);
                st.setString(2, prefix + '\u007f');
                st.setInt(3, max);
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
    public synchronized boolean delete(SessionId session) {
        return inTransaction("delete session " + session, () -> {
            try (PreparedStatement st = connection.prepareStatement("DELETE FROM sessions WHERE id = ?")) {
                st.setString(1, session.value());
                return st.executeUpdate() > 0;
            }
        });
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            connection.close();
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, "close the database");
        }
    }

    // ---- internals ----

    private static final String SESSION_COLUMNS =
            "SELECT id, created_at, updated_at, title, origin, metadata, entry_count, message_count";

    private List<SessionInfo> readSessions(PreparedStatement st) throws SQLException {
        List<SessionInfo> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String id = rs.getString(1);
                String location = where + " sessions id=" + id;
                Map<String, dev.parley.core.RawJson> metadata =
                        EntryCodec.decodeRawMap(EntryCodec.parseRecord(rs.getString(6), location), location);
                out.add(new SessionInfo(new SessionId(id), Instant.ofEpochMilli(rs.getLong(2)),
                        Instant.ofEpochMilli(rs.getLong(3)), rs.getString(4), rs.getString(5), rs.getLong(7),
                        rs.getLong(8), metadata));
            }
        }
        return out;
    }

    private Optional<SessionInfo> findInfo(SessionId session) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(SESSION_COLUMNS + " FROM sessions WHERE id = ?")) {
            st.setString(1, session.value());
            List<SessionInfo> rows = readSessions(st);
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        }
    }

    private Entry decodeRow(long seq, String entryId, String body) {
        return EntryCodec.decodeRow(body, seq, entryId, where + " entries seq=" + seq);
    }

    private boolean entryExists(SessionId session, EntryId id) {
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT 1 FROM entries WHERE session_id = ? AND entry_id = ?")) {
            st.setString(1, session.value());
            st.setString(2, id.value());
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, "look up entry " + id);
        }
    }

    private void ensureSession(SessionId session, long now) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(
                "INSERT OR IGNORE INTO sessions (id, created_at, updated_at) VALUES (?, ?, ?)")) {
            st.setString(1, session.value());
            st.setLong(2, now);
            st.setLong(3, now);
            st.executeUpdate();
        }
    }

    private Usage readUsage(SessionId session, AgentId agent) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(
                "SELECT input, output, cache_read, cache_write, reasoning, cost_usd FROM agent_usage"
                        + " WHERE session_id = ? AND agent_id = ?")) {
            st.setString(1, session.value());
            st.setString(2, agent.value());
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return Usage.ZERO;
                }
                String cost = rs.getString(6);
                try {
                    return new Usage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            cost == null ? null : new BigDecimal(cost));
                } catch (NumberFormatException | InvalidInputException e) {
                    throw new CorruptRecordException(where + " agent_usage " + session + "/" + agent, e.getMessage(), e);
                }
            }
        }
    }

    /** Work on the connection. */
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs a read on this store's connection, serialized with every other operation. */
    synchronized <T> T read(String doing, SqlWork<T> work) {
        checkOpen();
        try {
            return work.run();
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, doing);
        }
    }

    /** Runs work in one {@code BEGIN IMMEDIATE} transaction on this store's connection. */
    synchronized <T> T inTransaction(String doing, SqlWork<T> work) {
        checkOpen();
        try {
            connection.setAutoCommit(false);
            try {
                T result = work.run();
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                try {
                    connection.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw SqliteErrors.map(e, where, doing);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(where + " is closed");
        }
    }

    @Override
    public String toString() {
        return where;
    }

}
