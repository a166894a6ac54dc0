package dev.parley.sqlite;

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
import dev.parley.json.Instants;
import dev.parley.json.Json;
import dev.parley.json.repository.ArchiveLocators;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Session records and archives in the same SQLite file as the message log: one transaction per operation, the
 * compare-and-swap as a conditional {@code UPDATE … WHERE revision = ?} (re-reading the revision in the same
 * transaction to tell a missing record from a conflicting one), the catalog paged by keyset over
 * {@code (pinned DESC, updated_at DESC, id)} with the filters applied before the cursor predicate, and archive
 * content written before the manifest in one transaction. Scope is a column of every key.
 *
 * <p>Thread-safe: operations run under the owning {@link SqliteMessageLog}'s lock, on its connection; several
 * processes coordinate through SQLite's write lock.
 */
final class SqliteRepositories implements Repositories {
    static final String LOCATOR_PREFIX = "sqlite-archive:";

    private final SqliteMessageLog log;

    SqliteRepositories(SqliteMessageLog log) {
        this.log = log;
    }

    @Override
    public ChatSessionRepository sessions(String scope) {
        return new Sessions(Scopes.require(scope));
    }

    @Override
    public ChatArchiveRepository archives(String scope) {
        return new Archives(Scopes.require(scope));
    }

    @Override
    public void dropScope(String scope) {
        Scopes.require(scope);
        log.inTransaction("drop scope " + scope, () -> {
            for (String table : List.of("chat_sessions", "chat_archive_heads", "chat_archives")) {
                try (PreparedStatement st = log.connection().prepareStatement("DELETE FROM " + table + " WHERE scope_id = ?")) {
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
            StringBuilder sql = new StringBuilder("SELECT id, revision, record FROM chat_sessions WHERE scope_id = ?");
            List<Object> args = new ArrayList<>(List.of(scope));
            if (query.workspaceId() != null) {
                sql.append(" AND workspace_id = ?");
                args.add(query.workspaceId());
            }
            if (query.archived() != null) {
                sql.append(" AND archived = ?");
                args.add(query.archived() ? 1 : 0);
            }
            if (after != null) {
                int pinned = after.pinned() ? 1 : 0;
                String updated = Instants.format(after.updatedAt());
                sql.append(" AND (pinned < ? OR (pinned = ? AND updated_at < ?) OR (pinned = ? AND updated_at = ? AND id > ?))");
                args.addAll(List.of(pinned, pinned, updated, pinned, updated, after.id()));
            }
            sql.append(" ORDER BY pinned DESC, updated_at DESC, id ASC LIMIT ?");
            args.add(query.limit() + 1);
            return log.read("list session records", () -> {
                List<CatalogEntry> rows = new ArrayList<>();
                try (PreparedStatement st = log.connection().prepareStatement(sql.toString())) {
                    for (int i = 0; i < args.size(); i++) {
                        st.setObject(i + 1, args.get(i));
                    }
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            ChatSession s = decode(rs.getString(1), rs.getString(3));
                            rows.add(CatalogEntry.of(s, rs.getLong(2)));
                        }
                    }
                }
                boolean more = rows.size() > query.limit();
                List<CatalogEntry> page = more ? rows.subList(0, query.limit()) : rows;
                return new CatalogPage(page, more ? CatalogOrder.encode(CatalogOrder.Position.of(page.get(page.size() - 1))) : null);
            });
        }

        @Override
        public Optional<StoredSession> read(String sessionId) {
            ChatSession.requireId(sessionId, "session id");
            return log.read("read session record " + sessionId, () -> readRow(sessionId));
        }

        private Optional<StoredSession> readRow(String sessionId) throws SQLException {
            try (PreparedStatement st = log.connection().prepareStatement(
                    "SELECT revision, record FROM chat_sessions WHERE scope_id = ? AND id = ?")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    long revision = rs.getLong(1);
                    if (revision < 1) {
                        throw new StorageCorruptionException(location(sessionId), "stored revision " + revision, null, false);
                    }
                    return Optional.of(new StoredSession(decode(sessionId, rs.getString(2)), revision));
                }
            }
        }

        private long revisionOf(String sessionId) throws SQLException {
            try (PreparedStatement st = log.connection().prepareStatement(
                    "SELECT revision FROM chat_sessions WHERE scope_id = ? AND id = ?")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                try (ResultSet rs = st.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0;
                }
            }
        }

        @Override
        public StoredSession create(ChatSession session) {
            return log.inTransaction("create session record " + session.id(), () -> {
                if (revisionOf(session.id()) > 0) {
                    throw new SessionAlreadyExistsException(session.id());
                }
                try (PreparedStatement st = log.connection().prepareStatement(
                        "INSERT INTO chat_sessions (scope_id, id, revision, pinned, updated_at, workspace_id, archived, record)"
                                + " VALUES (?, ?, 1, ?, ?, ?, ?, ?)")) {
                    bindRow(st, session, 1);
                    st.executeUpdate();
                }
                return new StoredSession(session, 1);
            });
        }

        @Override
        public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
            return log.inTransaction("update session record " + session.id(), () -> {
                int changed;
                try (PreparedStatement st = log.connection().prepareStatement(
                        "UPDATE chat_sessions SET revision = revision + 1, pinned = ?, updated_at = ?, workspace_id = ?,"
                                + " archived = ?, record = ? WHERE scope_id = ? AND id = ? AND revision = ?")) {
                    st.setInt(1, session.pinned() ? 1 : 0);
                    st.setString(2, Instants.format(session.updatedAt()));
                    st.setString(3, session.workspaceId());
                    st.setInt(4, session.archived() ? 1 : 0);
                    st.setString(5, Json.write(ChatSessionCodec.encode(session)));
                    st.setString(6, scope);
                    st.setString(7, session.id());
                    st.setLong(8, expectedRevision);
                    changed = st.executeUpdate();
                }
                if (changed == 1) {
                    return Optional.of(new StoredSession(session, expectedRevision + 1));
                }
                long actual = revisionOf(session.id());
                if (actual == 0) {
                    return Optional.empty();
                }
                throw new RevisionConflictException(session.id(), expectedRevision, actual);
            });
        }

        @Override
        public boolean delete(String sessionId, long expectedRevision) {
            ChatSession.requireId(sessionId, "session id");
            return log.inTransaction("delete session record " + sessionId, () -> {
                int changed;
                try (PreparedStatement st = log.connection().prepareStatement(
                        "DELETE FROM chat_sessions WHERE scope_id = ? AND id = ? AND revision = ?")) {
                    st.setString(1, scope);
                    st.setString(2, sessionId);
                    st.setLong(3, expectedRevision);
                    changed = st.executeUpdate();
                }
                if (changed == 1) {
                    return true;
                }
                long actual = revisionOf(sessionId);
                if (actual == 0) {
                    return false;
                }
                throw new RevisionConflictException(sessionId, expectedRevision, actual);
            });
        }

        private void bindRow(PreparedStatement st, ChatSession s, long revision) throws SQLException {
            st.setString(1, scope);
            st.setString(2, s.id());
            st.setInt(3, s.pinned() ? 1 : 0);
            st.setString(4, Instants.format(s.updatedAt()));
            st.setString(5, s.workspaceId());
            st.setInt(6, s.archived() ? 1 : 0);
            st.setString(7, Json.write(ChatSessionCodec.encode(s)));
        }

        private ChatSession decode(String id, String record) {
            String location = location(id);
            try {
                return ChatSessionCodec.parseStrict(Json.parse(record), location);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new StorageCorruptionException(location, "not valid JSON: " + Json.problem(e), e, false);
            }
        }

        private String location(String id) {
            return log.where() + " chat_sessions scope=" + scope + " id=" + id;
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
            return log.read("load archive manifest of " + sessionId, () -> manifest(sessionId));
        }

        private ChatArchiveManifest manifest(String sessionId) throws SQLException {
            try (PreparedStatement st = log.connection().prepareStatement(
                    "SELECT manifest FROM chat_archive_heads WHERE scope_id = ? AND session_id = ?")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        return ChatArchiveManifest.empty(sessionId);
                    }
                    return ChatArchiveCodec.parseManifest(rs.getString(1), sessionId,
                            log.where() + " chat_archive_heads scope=" + scope + " session=" + sessionId);
                }
            }
        }

        @Override
        public Optional<String> readSummary(String summaryLocator) {
            ArchiveLocators.Address at = ArchiveLocators.parseSummary(LOCATOR_PREFIX, summaryLocator).orElse(null);
            if (at == null) {
                return Optional.empty();
            }
            return log.read("read archive summary", () -> {
                try (PreparedStatement st = log.connection().prepareStatement(
                        "SELECT summary FROM chat_archives WHERE scope_id = ? AND session_id = ? AND archive_id = ?")) {
                    st.setString(1, scope);
                    st.setString(2, at.sessionId());
                    st.setString(3, at.archiveId());
                    try (ResultSet rs = st.executeQuery()) {
                        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
                    }
                }
            });
        }

        @Override
        public ArchiveAppend.Result append(ArchiveAppend request) {
            return log.inTransaction("append archive " + request.archive().id(), () -> {
                ChatArchiveManifest current = manifest(request.sessionId());
                ArchiveRecord archive = ArchiveLocators.place(LOCATOR_PREFIX, request.sessionId(), request.archive());
                ChatArchiveManifest next = current.withArchive(archive);
                // Content first (an earlier failed append may have left this archive's content: replace it) …
                try (PreparedStatement st = log.connection().prepareStatement(
                        "INSERT OR REPLACE INTO chat_archives (scope_id, session_id, archive_id, messages, summary)"
                                + " VALUES (?, ?, ?, ?, ?)")) {
                    st.setString(1, scope);
                    st.setString(2, request.sessionId());
                    st.setString(3, archive.id());
                    st.setString(4, ChatSessionCodec.archivedMessagesJsonl(request.messages()));
                    st.setString(5, request.summary());
                    st.executeUpdate();
                }
                // … then the head, in the same transaction.
                try (PreparedStatement st = log.connection().prepareStatement(
                        "INSERT INTO chat_archive_heads (scope_id, session_id, manifest) VALUES (?, ?, ?)"
                                + " ON CONFLICT (scope_id, session_id) DO UPDATE SET manifest = excluded.manifest")) {
                    st.setString(1, scope);
                    st.setString(2, request.sessionId());
                    st.setString(3, Json.write(ChatArchiveCodec.encodeManifest(next)));
                    st.executeUpdate();
                }
                return new ArchiveAppend.Result(archive, next);
            });
        }
    }

}
