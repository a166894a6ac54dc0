package dev.parley.postgres;

import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Scopes;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.Json;
import dev.parley.json.repository.ArchiveLocators;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Session records and archives in PostgreSQL, after Heddle's PostgreSQL reference adapter:
 * <ul>
 *   <li>{@code create} is a plain insert; a unique violation becomes {@link SessionAlreadyExistsException}.</li>
 *   <li>{@code update} and {@code delete} compare and increment the revision in one statement
 *       ({@code … WHERE scope_id = ? AND id = ? AND revision = ?}); when no row matched, a re-read in the same
 *       transaction tells a missing record (empty, false) from a conflicting one
 *       ({@link RevisionConflictException} with the actual revision).</li>
 *   <li>The catalog pages by keyset over {@code (pinned DESC, updated_at DESC, id COLLATE "C" ASC)}, the workspace
 *       and archived filters in the same {@code WHERE} as, and so before, the cursor predicate.</li>
 *   <li>An archive append runs in one transaction: it creates the session's head row if needed, locks it with
 *       {@code SELECT … FOR UPDATE}, inserts the immutable content row, then writes the new manifest into the head.
 *       Concurrent appends to one session queue on the lock; both land.</li>
 * </ul>
 * Scope is a column of every key and a predicate of every query. Thread-safe.
 */
final class PostgresRepositories implements Repositories {
    static final String LOCATOR_PREFIX = "postgres-archive:";

    private final PostgresStore store;

    PostgresRepositories(PostgresStore store) {
        this.store = store;
    }

    @Override
    public ChatSessionRepository sessions(String scope) {
        return new Sessions(PostgresStore.requireScope(scope));
    }

    @Override
    public ChatArchiveRepository archives(String scope) {
        return new Archives(PostgresStore.requireScope(scope));
    }

    @Override
    public void dropScope(String scope) {
        PostgresStore.requireScope(scope);
        store.inTransaction("drop scope " + scope, c -> {
            for (String table : List.of("parley_chat_sessions", "parley_chat_archive_heads", "parley_chat_archives")) {
                try (PreparedStatement st = c.prepareStatement("DELETE FROM " + table + " WHERE scope_id = ?")) {
                    st.setString(1, scope);
                    st.executeUpdate();
                }
            }
            return null;
        });
    }

    private final class Sessions implements ChatSessionRepository {
        private final String scope;

        Sessions(String scope) {
            this.scope = scope;
        }

        @Override
        public CatalogPage list(CatalogQuery query) {
            CatalogOrder.Position after = CatalogOrder.decode(query.cursor());
            StringBuilder sql = new StringBuilder("SELECT id, revision, record FROM parley_chat_sessions WHERE scope_id = ?");
            List<Object> args = new ArrayList<>(List.of(scope));
            if (query.workspaceId() != null) {
                sql.append(" AND workspace_id = ?");
                args.add(PgText.escape(query.workspaceId()));
            }
            if (query.archived() != null) {
                sql.append(" AND archived = ?");
                args.add(query.archived());
            }
            if (after != null) {
                // Strictly after the cursor in (pinned DESC, updated_at DESC, id ASC): false sorts after true.
                sql.append(" AND (pinned < ? OR (pinned = ? AND (updated_at < ? OR (updated_at = ? AND id > ?))))");
                args.addAll(List.of(after.pinned(), after.pinned(), PostgresStore.timestamp(after.updatedAt()),
                        PostgresStore.timestamp(after.updatedAt()), after.id()));
            }
            sql.append(" ORDER BY pinned DESC, updated_at DESC, id ASC LIMIT ?");
            args.add(query.limit() + 1);
            return store.inTransaction("list session records", c -> {
                List<CatalogEntry> rows = new ArrayList<>();
                try (PreparedStatement st = c.prepareStatement(sql.toString())) {
                    for (int i = 0; i < args.size(); i++) {
                        st.setObject(i + 1, args.get(i));
                    }
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            rows.add(CatalogEntry.of(decode(rs.getString(1), rs.getString(3)), rs.getLong(2)));
                        }
                    }
                }
                boolean more = rows.size() > query.limit();
                List<CatalogEntry> page = more ? rows.subList(0, query.limit()) : rows;
                return new CatalogPage(page, more
                        ? CatalogOrder.encode(CatalogOrder.Position.of(page.get(page.size() - 1))) : null);
            });
        }

        @Override
        public Optional<StoredSession> read(String sessionId) {
            ChatSession.requireId(sessionId, "session id");
            return store.inTransaction("read session record " + sessionId, c -> {
                try (PreparedStatement st = c.prepareStatement(
                        "SELECT revision, record FROM parley_chat_sessions WHERE scope_id = ? AND id = ?")) {
                    st.setString(1, scope);
                    st.setString(2, sessionId);
                    try (ResultSet rs = st.executeQuery()) {
                        if (!rs.next()) {
                            return Optional.<StoredSession>empty();
                        }
                        return Optional.of(new StoredSession(decode(sessionId, rs.getString(2)), rs.getLong(1)));
                    }
                }
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

        @Override
        public StoredSession create(ChatSession session) {
            return store.inTransaction("create session record " + session.id(), c -> {
                try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_chat_sessions (scope_id, id,"
                        + " revision, pinned, updated_at, workspace_id, archived, record)"
                        + " VALUES (?, ?, 1, ?, ?, ?, ?, ?::json)")) {
                    st.setString(1, scope);
                    st.setString(2, session.id());
                    st.setBoolean(3, session.pinned());
                    st.setObject(4, PostgresStore.timestamp(session.updatedAt()));
                    st.setString(5, PgText.escape(session.workspaceId()));
                    st.setBoolean(6, session.archived());
                    st.setString(7, Json.write(ChatSessionCodec.encode(session)));
                    st.executeUpdate();
                } catch (SQLException e) {
                    if (PostgresErrors.UNIQUE_VIOLATION.equals(e.getSQLState())) {
                        throw new SessionAlreadyExistsException(session.id());
                    }
                    throw e;
                }
                return new StoredSession(session, 1);
            });
        }

        @Override
        public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
            return store.inTransaction("update session record " + session.id(), c -> {
                int changed;
                try (PreparedStatement st = c.prepareStatement("UPDATE parley_chat_sessions SET revision = revision + 1,"
                        + " pinned = ?, updated_at = ?, workspace_id = ?, archived = ?, record = ?::json"
                        + " WHERE scope_id = ? AND id = ? AND revision = ?")) {
                    st.setBoolean(1, session.pinned());
                    st.setObject(2, PostgresStore.timestamp(session.updatedAt()));
                    st.setString(3, PgText.escape(session.workspaceId()));
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
            return store.inTransaction("delete session record " + sessionId, c -> {
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

        private ChatSession decode(String id, String record) {
            String location = store.where() + " parley_chat_sessions scope=" + scope + " id=" + id;
            try {
                ChatSession s = ChatSessionCodec.parseStrict(Json.parse(record), location);
                if (!s.id().equals(id)) {
                    throw new StorageCorruptionException(location, "the record holds session " + s.id(), null, false);
                }
                return s;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new StorageCorruptionException(location, "not valid JSON: " + Json.problem(e), e, false);
            }
        }
    }

    private final class Archives implements ChatArchiveRepository {
        private final String scope;

        Archives(String scope) {
            this.scope = scope;
        }

        @Override
        public ChatArchiveManifest loadManifest(String sessionId) {
            ChatSession.requireId(sessionId, "session id");
            return store.inTransaction("load the archive manifest of " + sessionId, c -> manifest(c, sessionId, false));
        }

        private ChatArchiveManifest manifest(Connection c, String sessionId, boolean forUpdate) throws SQLException {
            try (PreparedStatement st = c.prepareStatement("SELECT manifest FROM parley_chat_archive_heads"
                    + " WHERE scope_id = ? AND session_id = ?" + (forUpdate ? " FOR UPDATE" : ""))) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return ChatArchiveManifest.empty(sessionId);
                    }
                    return ChatArchiveCodec.parseManifest(rs.getString(1), sessionId,
                            store.where() + " parley_chat_archive_heads scope=" + scope + " session=" + sessionId);
                }
            }
        }

        @Override
        public Optional<String> readSummary(String summaryLocator) {
            ArchiveLocators.Address at = ArchiveLocators.parseSummary(LOCATOR_PREFIX, summaryLocator).orElse(null);
            if (at == null) {
                return Optional.empty();
            }
            return store.inTransaction("read an archive summary", c -> {
                try (PreparedStatement st = c.prepareStatement("SELECT summary FROM parley_chat_archives"
                        + " WHERE scope_id = ? AND session_id = ? AND archive_id = ?")) {
                    st.setString(1, scope);
                    st.setString(2, at.sessionId());
                    st.setString(3, at.archiveId());
                    try (ResultSet rs = st.executeQuery()) {
                        if (!rs.next()) {
                            return Optional.<String>empty();
                        }
                        try {
                            return Optional.of(PgText.unescape(rs.getString(1)));
                        } catch (IllegalArgumentException e) {
                            throw new StorageCorruptionException(store.where() + " parley_chat_archives scope=" + scope
                                    + " session=" + at.sessionId() + " archive=" + at.archiveId(), "the summary: " + e.getMessage(),
                                    e, true);
                        }
                    }
                }
            });
        }

        @Override
        public ArchiveAppend.Result append(ArchiveAppend request) {
            return store.inTransaction("append archive " + request.archive().id(), c -> {
                // The head row exists (empty manifest) before it is locked, so that first appends queue too.
                try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_chat_archive_heads (scope_id,"
                        + " session_id, manifest) VALUES (?, ?, ?::json) ON CONFLICT (scope_id, session_id) DO NOTHING")) {
                    st.setString(1, scope);
                    st.setString(2, request.sessionId());
                    st.setString(3, Json.write(ChatArchiveCodec.encodeManifest(
                            ChatArchiveManifest.empty(request.sessionId()))));
                    st.executeUpdate();
                }
                ChatArchiveManifest current = manifest(c, request.sessionId(), true);
                ArchiveRecord archive = ArchiveLocators.place(LOCATOR_PREFIX, request.sessionId(), request.archive());
                ChatArchiveManifest next = current.withArchive(archive); // a duplicate id fails here: nothing written
                try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_chat_archives (scope_id, session_id,"
                        + " archive_id, messages, summary) VALUES (?, ?, ?, ?::json, ?)")) {
                    st.setString(1, scope);
                    st.setString(2, request.sessionId());
                    st.setString(3, archive.id());
                    st.setString(4, Json.write(ChatSessionCodec.encodeArchivedMessages(request.messages())));
                    st.setString(5, PgText.escape(request.summary()));
                    st.executeUpdate();
                }
                try (PreparedStatement st = c.prepareStatement("UPDATE parley_chat_archive_heads SET manifest = ?::json"
                        + " WHERE scope_id = ? AND session_id = ?")) {
                    st.setString(1, Json.write(ChatArchiveCodec.encodeManifest(next)));
                    st.setString(2, scope);
                    st.setString(3, request.sessionId());
                    st.executeUpdate();
                }
                return new ArchiveAppend.Result(archive, next);
            });
        }
    }

}
