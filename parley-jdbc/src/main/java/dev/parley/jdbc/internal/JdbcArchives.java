package dev.parley.jdbc.internal;

import dev.parley.json.EntryCodec;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.jdbc.SqlDialect;
import dev.parley.json.Json;
import dev.parley.json.repository.ArchiveLocators;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.List;

/**
 * Heddle's archives in {@code parley_chat_archives} (immutable content rows) and {@code parley_chat_archive_heads}
 * (one manifest per session), one scope. An append is one transaction: it creates the session's head row if needed
 * (an empty manifest), locks it, inserts the content row, then writes the new manifest into the head — so a
 * committed manifest never names missing content, and concurrent appends to one session queue on the head and both
 * land. Thread-safe.
 */
final class JdbcArchives implements ChatArchiveRepository {
    private final Database db;
    private final SqlDialect dialect;
    private final String scope;

    JdbcArchives(Database db, String scope) {
        this.db = db;
        this.dialect = db.dialect();
        this.scope = scope;
    }

    @Override
    public ChatArchiveManifest loadManifest(String sessionId) {
        ChatSession.requireId(sessionId, "session id");
        return db.read("load the archive manifest of " + sessionId, c -> manifest(c, sessionId, ""));
    }

    private ChatArchiveManifest manifest(Connection c, String sessionId, String lock) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT manifest FROM parley_chat_archive_heads"
                + " WHERE scope_id = ? AND session_id = ?" + lock)) {
            st.setString(1, scope);
            st.setString(2, sessionId);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return ChatArchiveManifest.empty(sessionId);
                }
                return ChatArchiveCodec.parseManifest(rs.getString(1), sessionId,
                        db.where() + " parley_chat_archive_heads scope=" + scope + " session=" + sessionId);
            }
        }
    }

    @Override
    public Optional<String> readSummary(String summaryLocator) {
        Objects.requireNonNull(summaryLocator, "summaryLocator");
        return ArchiveLocators.parseSummary(dialect.archiveLocatorPrefix(), summaryLocator).flatMap(at ->
                readColumn(at, "summary", (text, where) -> {
                    try {
                        return dialect.unescape(text);
                    } catch (IllegalArgumentException e) {
                        throw new StorageCorruptionException(where, "the summary: " + e.getMessage(), e, true);
                    }
                }));
    }

    @Override
    public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
        Objects.requireNonNull(messagesLocator, "messagesLocator");
        return ArchiveLocators.parseMessages(dialect.archiveLocatorPrefix(), messagesLocator).flatMap(at ->
                readColumn(at, "messages", (text, where) ->
                        ChatSessionCodec.parseArchivedMessages(EntryCodec.parseRecord(text, where), where)));
    }

    /** One column of an archive's row, decoded, or empty when the scope has no such archive. */
    private <T> Optional<T> readColumn(ArchiveLocators.Address at, String column, BiFunction<String, String, T> decode) {
        String where = db.where() + " parley_chat_archives scope=" + scope + " session=" + at.sessionId()
                + " archive=" + at.archiveId();
        return db.read("read archive " + at.archiveId() + "'s " + column, c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT " + column + " FROM parley_chat_archives"
                    + " WHERE scope_id = ? AND session_id = ? AND archive_id = ?")) {
                st.setString(1, scope);
                st.setString(2, at.sessionId());
                st.setString(3, at.archiveId());
                try (ResultSet rs = st.executeQuery()) {
                    return rs.next() ? Optional.of(decode.apply(rs.getString(1), where)) : Optional.<T>empty();
                }
            }
        });
    }

    @Override
    public ArchiveAppend.Result append(ArchiveAppend request) {
        Objects.requireNonNull(request, "request");
        String sessionId = request.sessionId();
        return db.write("append archive " + request.archive().id(), c -> {
            // The head row exists (empty manifest) before it is locked, so that first appends queue too.
            try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_chat_archive_heads (scope_id,"
                    + " session_id, manifest) VALUES (?, ?, " + dialect.jsonParameter() + ")"
                    + " ON CONFLICT (scope_id, session_id) DO NOTHING")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                st.setString(3, Json.write(ChatArchiveCodec.encodeManifest(ChatArchiveManifest.empty(sessionId))));
                st.executeUpdate();
            }
            ChatArchiveManifest current = manifest(c, sessionId, dialect.forUpdate());
            ArchiveRecord archive = ArchiveLocators.place(dialect.archiveLocatorPrefix(), sessionId, request.archive());
            ChatArchiveManifest next = current.withArchive(archive); // a duplicate id fails here: nothing written
            try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_chat_archives (scope_id, session_id,"
                    + " archive_id, messages, summary) VALUES (?, ?, ?, " + dialect.jsonParameter() + ", ?)")) {
                st.setString(1, scope);
                st.setString(2, sessionId);
                st.setString(3, archive.id());
                st.setString(4, Json.write(ChatSessionCodec.encodeArchivedMessages(request.messages())));
                st.setString(5, dialect.escape(request.summary()));
                st.executeUpdate();
            }
            try (PreparedStatement st = c.prepareStatement("UPDATE parley_chat_archive_heads SET manifest = "
                    + dialect.jsonParameter() + " WHERE scope_id = ? AND session_id = ?")) {
                st.setString(1, Json.write(ChatArchiveCodec.encodeManifest(next)));
                st.setString(2, scope);
                st.setString(3, sessionId);
                st.executeUpdate();
            }
            return new ArchiveAppend.Result(archive, next);
        });
    }
}
