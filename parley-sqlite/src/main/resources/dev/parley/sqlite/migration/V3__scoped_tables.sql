-- Parley on SQLite, schema version 3: the tables of PostgreSQL's schema (dev/parley/postgres/migration), with the
-- same names, columns and keys — the scope first in every key — so that one SQL text serves both databases
-- (dev.parley.jdbc). What was stored before belongs to the scope 'default'.
-- Times are Unix epoch milliseconds (INTEGER), as the message log kept them; the session records' updated_at, which
-- v2 kept as fixed-millisecond ISO-8601 text, is converted. Ids compare by their UTF-8 bytes (BINARY collation).
-- JSON documents are TEXT holding their exact text.

CREATE TABLE parley_log_sessions (
    scope_id      TEXT    NOT NULL,
    id            TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    title         TEXT,
    origin        TEXT,
    metadata      TEXT    NOT NULL DEFAULT '{}',
    entry_count   INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope_id, id)
);

-- The catalog order: newest activity first, then id.
CREATE INDEX parley_log_sessions_by_activity ON parley_log_sessions (scope_id, updated_at DESC, id ASC);
CREATE INDEX parley_log_sessions_by_origin ON parley_log_sessions (scope_id, origin) WHERE origin IS NOT NULL;

-- One row per entry. seq is the store-assigned insertion order, never reused (AUTOINCREMENT).
-- body is the entry's canonical JSON (dev.parley.json.EntryCodec) without its seq.
CREATE TABLE parley_log_entries (
    seq        INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    scope_id   TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    entry_id   TEXT    NOT NULL,
    parent_id  TEXT,
    agent_id   TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    UNIQUE (scope_id, session_id, entry_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE,
    FOREIGN KEY (scope_id, session_id, parent_id) REFERENCES parley_log_entries (scope_id, session_id, entry_id)
        ON DELETE CASCADE
);

CREATE INDEX parley_log_entries_by_session ON parley_log_entries (scope_id, session_id, seq);
CREATE INDEX parley_log_entries_by_agent ON parley_log_entries (scope_id, session_id, agent_id, seq);
CREATE INDEX parley_log_entries_by_parent ON parley_log_entries (scope_id, session_id, parent_id);

-- Running usage totals per agent (Planck's agent_usage:<agent_id>). Never decreased by truncation.
-- cost_usd is the exact decimal as text (BigDecimal.toPlainString).
CREATE TABLE parley_log_usage (
    scope_id    TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    agent_id    TEXT    NOT NULL,
    input       INTEGER NOT NULL DEFAULT 0,
    output      INTEGER NOT NULL DEFAULT 0,
    cache_read  INTEGER NOT NULL DEFAULT 0,
    cache_write INTEGER NOT NULL DEFAULT 0,
    reasoning   INTEGER NOT NULL DEFAULT 0,
    cost_usd    TEXT,
    PRIMARY KEY (scope_id, session_id, agent_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE
);

-- Session records (Heddle's repository contract): the record beside the catalog columns.
CREATE TABLE parley_chat_sessions (
    scope_id     TEXT    NOT NULL,
    id           TEXT    NOT NULL,
    revision     INTEGER NOT NULL CHECK (revision > 0),
    pinned       INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    workspace_id TEXT,
    archived     INTEGER NOT NULL,
    record       TEXT    NOT NULL,
    PRIMARY KEY (scope_id, id)
);

CREATE INDEX parley_chat_sessions_catalog ON parley_chat_sessions (scope_id, pinned DESC, updated_at DESC, id ASC);
CREATE INDEX parley_chat_sessions_by_workspace
    ON parley_chat_sessions (scope_id, workspace_id, pinned DESC, updated_at DESC, id ASC);

-- The archive manifest of a session, its "head"; content rows are written before the head, in one transaction.
CREATE TABLE parley_chat_archive_heads (
    scope_id   TEXT NOT NULL,
    session_id TEXT NOT NULL,
    manifest   TEXT NOT NULL,
    PRIMARY KEY (scope_id, session_id)
);

-- messages is a JSON array of {"index": i, ...message} objects, as on PostgreSQL.
CREATE TABLE parley_chat_archives (
    scope_id   TEXT NOT NULL,
    session_id TEXT NOT NULL,
    archive_id TEXT NOT NULL,
    messages   TEXT NOT NULL,
    summary    TEXT NOT NULL,
    PRIMARY KEY (scope_id, session_id, archive_id)
);

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
