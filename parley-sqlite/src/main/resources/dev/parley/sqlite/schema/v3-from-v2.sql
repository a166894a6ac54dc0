-- Parley on SQLite, schema version 3, after the shared tables (dev/parley/jdbc/schema/log-tables.sql and
-- record-tables.sql, with SQLite's spelling: dev.parley.sqlite.SqliteSchema): the index of v3's parent key, then what
-- v1 and v2 stored, moved into the new tables.
-- Times are Unix epoch milliseconds (INTEGER), as the message log kept them; the session records' updated_at, which
-- v2 kept as fixed-millisecond ISO-8601 text, is converted. Ids compare by their UTF-8 bytes (BINARY collation).
-- This script is a migration that databases have run: it is never edited. A change of the schema is a new migration.

CREATE INDEX parley_log_entries_by_parent ON parley_log_entries (scope_id, session_id, parent_id);

-- ---- what v1 and v2 stored, into the scope 'default' ----

INSERT INTO parley_log_sessions (scope_id, id, created_at, updated_at, title, origin, metadata, entry_count,
                                 message_count)
SELECT 'default', id, created_at, updated_at, title, origin, metadata, entry_count, message_count FROM sessions;

-- In seq order, so that every parent is copied before its children; seq values are kept.
INSERT INTO parley_log_entries (seq, scope_id, session_id, entry_id, parent_id, agent_id, kind, body)
SELECT seq, 'default', session_id, entry_id, parent_id, agent_id, kind, body FROM entries ORDER BY seq;

-- A seq once handed out stays used, also when truncation removed its row: carry the counter over.
INSERT INTO sqlite_sequence (name, seq)
SELECT 'parley_log_entries', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'parley_log_entries');
UPDATE sqlite_sequence
SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'entries'), 0))
WHERE name = 'parley_log_entries';

INSERT INTO parley_log_usage (scope_id, session_id, agent_id, input, output, cache_read, cache_write, reasoning,
                              cost_usd)
SELECT 'default', session_id, agent_id, input, output, cache_read, cache_write, reasoning, cost_usd FROM agent_usage;

-- v2 kept updated_at as 'YYYY-MM-DDTHH:MM:SS.mmmZ'; julianday is exact to well under a millisecond, so rounding
-- gives the millisecond back. A value SQLite cannot read becomes NULL and fails the migration (NOT NULL).
INSERT INTO parley_chat_sessions (scope_id, id, revision, pinned, updated_at, workspace_id, archived, record)
SELECT scope_id, id, revision, pinned, CAST(round((julianday(updated_at) - 2440587.5) * 86400000.0) AS INTEGER),
       workspace_id, archived, record
FROM chat_sessions;

INSERT INTO parley_chat_archive_heads (scope_id, session_id, manifest)
SELECT scope_id, session_id, manifest FROM chat_archive_heads;

-- v2 kept messages as JSONL (one compact object a line, each ended by a newline): the same objects as an array.
INSERT INTO parley_chat_archives (scope_id, session_id, archive_id, messages, summary)
SELECT scope_id, session_id, archive_id, '[' || replace(rtrim(messages, char(10)), char(10), ',') || ']', summary
FROM chat_archives;

DROP TABLE entries;
DROP TABLE agent_usage;
DROP TABLE sessions;
DROP TABLE chat_sessions;
DROP TABLE chat_archive_heads;
DROP TABLE chat_archives;
