package dev.parley.jdbc.internal;

import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.jdbc.SqlDialect;
import dev.parley.json.Json;
import dev.parley.json.repository.ChatSessionCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Heddle's session records in {@code parley_chat_sessions}, one scope:
 * <ul>
 *   <li>{@code create} is a plain insert; a unique violation is {@link SessionAlreadyExistsException}.</li>
 *   <li>{@code update} and {@code delete} compare and increment the revision in one statement
 *       ({@code … WHERE scope_id = ? AND id = ? AND revision = ?}); when no row matched, a re-read in the same
 *       transaction tells a missing record (empty, false) from a conflicting one ({@link RevisionConflictException}
 *       naming the actual revision).</li>
 *   <li>The catalog pages by keyset over {@code (pinned DESC, updated_at DESC, id ASC)} — ids in UTF-8 byte order —
 *       with the workspace and archived filters in the same {@code WHERE} as, and so before, the cursor
 *       predicate.</li>
 * </ul>
 * The record is stored whole as JSON beside the catalog columns, so nothing is queried inside the document.
 * Thread-safe.
 */
final class JdbcSessions implements ChatSessionRepository {
    private final Database db;
    private final SqlDialect dialect;
    private final String scope;

    JdbcSessions(Database db, String scope) {
        this.db = db;
        this.dialect = db.dialect();
        this.scope = scope;
    }

    @Override
    public CatalogPage list(CatalogQuery query) {
        Objects.requireNonNull(query, "query");
        CatalogOrder.Position after = CatalogOrder.decode(query.cursor());
        StringBuilder sql = new StringBuilder("SELECT id, revision, record FROM parley_chat_sessions WHERE scope_id = ?");
        List<Object> args = new ArrayList<>(List.of(scope));
        if (query.workspaceId() != null) {
            sql.append(" AND workspace_id = ?");
            args.add(Objects.requireNonNull(dialect.escape(query.workspaceId())));
        }
        if (query.archived() != null) {
            sql.append(" AND archived = ?");
            args.add(query.archived());
        }
        if (after != null) {
            // Strictly after the cursor in (pinned DESC, updated_at DESC, id ASC): false sorts after true.
            sql.append(" AND (pinned < ? OR (pinned = ? AND (updated_at < ? OR (updated_at = ? AND id > ?))))");
            args.addAll(List.of(after.pinned(), after.pinned(), after.updatedAt(), after.updatedAt(), after.id()));
        }
        sql.append(" ORDER BY pinned DESC, updated_at DESC, id ASC LIMIT ?");
        args.add(query.limit() + 1);
        return db.read("list session records", c -> {
            List<CatalogEntry> rows = new ArrayList<>();
            try (PreparedStatement st = c.prepareStatement(sql.toString())) {
                for (int i = 0; i < args.size(); i++) {
                    bind(st, i + 1, args.get(i));
                }
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        rows.add(CatalogEntry.of(decode(rs.getString(1), rs.getLong(2), rs.getString(3)),
                                rs.getLong(2)));
                    }
                }
            }
            boolean more = rows.size() > query.limit();
            List<CatalogEntry> page = more ? rows.subList(0, query.limit()) : rows;
            return new CatalogPage(page, more
                    ? CatalogOrder.encode(CatalogOrder.Position.of(page.get(page.size() - 1))) : null);
        });
    }

    private void bind(PreparedStatement st, int index, Object value) throws SQLException {
        if (value instanceof Instant t) {
            dialect.setInstant(st, index, t);
        } else if (value instanceof Boolean b) {
            st.setBoolean(index, b);
        } else if (value instanceof Integer n) {
            st.setInt(index, n);
        } else {
            st.setString(index, (String) value);
        }
    }

    @Override
    public Optional<StoredSession> read(String sessionId) {
        ChatSession.requireId(sessionId, "session id");
        return db.read("read session record " + sessionId, c -> {
            try (PreparedStatement st = c.prepareStatement(
                    "SELECT revision, record FROM parley_chat_sessions WHERE scope_id = ? AND id = ?")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.<StoredSession>empty();
                    }
                    long revision = rs.getLong(1);
                    return Optional.of(new StoredSession(decode(sessionId, revision, rs.getString(2)), revision));
                }
            }
        });
    }

    @Override
    public StoredSession create(ChatSession session) {
        Objects.requireNonNull(session, "session");
        return db.write("create session record " + session.id(), c -> {
            try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_chat_sessions (scope_id, id, revision,"
                    + " pinned, updated_at, workspace_id, archived, record)"
                    + " VALUES (?, ?, 1, ?, ?, ?, ?, " + dialect.jsonParameter() + ")")) {
                st.setString(1, scope);
                st.setString(2, session.id());
                st.setBoolean(3, session.pinned());
                dialect.setInstant(st, 4, session.updatedAt());
                st.setString(5, dialect.escape(session.workspaceId()));
                st.setBoolean(6, session.archived());
                st.setString(7, Json.write(ChatSessionCodec.encode(session)));
                st.executeUpdate();
            } catch (SQLException e) {
                if (dialect.isUniqueViolation(e)) {
                    throw new SessionAlreadyExistsException(session.id());
                }
                throw e;
            }
            return new StoredSession(session, 1);
        });
    }

    @Override
    public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
        Objects.requireNonNull(session, "session");
        return db.write("update session record " + session.id(), c -> {
            int changed;
            try (PreparedStatement st = c.prepareStatement("UPDATE parley_chat_sessions SET revision = revision + 1,"
                    + " pinned = ?, updated_at = ?, workspace_id = ?, archived = ?, record = " + dialect.jsonParameter()
                    + " WHERE scope_id = ? AND id = ? AND revision = ?")) {
                st.setBoolean(1, session.pinned());
                dialect.setInstant(st, 2, session.updatedAt());
                st.setString(3, dialect.escape(session.workspaceId()));
                st.setBoolean(4, session.archived());
                st.setString(5, Json.write(ChatSessionCodec.encode(session)));
                st.setString(6, scope);
                st.setString(7, session.id());
                st.setLong(8, expectedRevision);
                changed = st.executeUpdate();
            }
            if (changed == 1) {
                return Optional.of(new StoredSession(session, expectedRevision + 1));
            }
            long actual = revisionOf(c, session.id());
            if (actual == 0) {
                return Optional.<StoredSession>empty();
            }
            throw new RevisionConflictException(session.id(), expectedRevision, actual);
        });
    }

    @Override
    public boolean delete(String sessionId, long expectedRevision) {
        ChatSession.requireId(sessionId, "session id");
        return db.write("delete session record " + sessionId, c -> {
            int changed;
            try (PreparedStatement st = c.prepareStatement(
                    "DELETE FROM parley_chat_sessions WHERE scope_id = ? AND id = ? AND revision = ?")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                st.setLong(3, expectedRevision);
                changed = st.executeUpdate();
            }
            if (changed == 1) {
                return true;
            }
            long actual = revisionOf(c, sessionId);
            if (actual == 0) {
                return false;
            }
            throw new RevisionConflictException(sessionId, expectedRevision, actual);
        });
    }

    private long revisionOf(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(
                "SELECT revision FROM parley_chat_sessions WHERE scope_id = ? AND id = ?")) {
            st.setString(1, scope);
            st.setString(2, sessionId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private ChatSession decode(String id, long revision, String record) {
        String location = db.where() + " parley_chat_sessions scope=" + scope + " id=" + id;
        if (revision < 1) {
            throw new StorageCorruptionException(location, "stored revision " + revision, null, false);
        }
        try {
            ChatSession s = ChatSessionCodec.parseStrict(Json.parse(record), location);
            if (!s.id().equals(id)) {
                throw new StorageCorruptionException(location, "the record holds session " + s.id(), null, false);
            }
            return s;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StorageCorruptionException(location, Json.unreadable(e), e, false);
        }
    }
}
