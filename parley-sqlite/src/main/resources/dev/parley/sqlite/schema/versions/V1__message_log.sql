-- Parley message log, schema version 1.
-- Times are Unix epoch milliseconds. Ids are ASCII (see dev.parley.core.Ids), so BINARY collation is byte order.

CREATE TABLE sessions (
    id            TEXT    NOT NULL PRIMARY KEY,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    title         TEXT,
    origin        TEXT,
    metadata      TEXT    NOT NULL DEFAULT '{}',
    entry_count   INTEGER NOT NULL DEFAULT 0,
    message_count INTEGER NOT NULL DEFAULT 0
);

-- The catalog order: newest activity first, then id.
CREATE INDEX sessions_by_activity ON sessions (updated_at DESC, id ASC);
CREATE INDEX sessions_by_origin ON sessions (origin) WHERE origin IS NOT NULL;

-- One row per entry. seq is the store-assigned insertion order (never reused: AUTOINCREMENT).
-- body is the entry's canonical JSON (dev.parley.json.EntryCodec) without its seq.
CREATE TABLE entries (
    seq        INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    entry_id   TEXT    NOT NULL,
    parent_id  TEXT,
    agent_id   TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    UNIQUE (session_id, entry_id),
    FOREIGN KEY (session_id, parent_id) REFERENCES entries (session_id, entry_id)
);

CREATE INDEX entries_by_session ON entries (session_id, seq);
CREATE INDEX entries_by_agent ON entries (session_id, agent_id, seq);
CREATE INDEX entries_by_parent ON entries (session_id, parent_id);

-- Running usage totals per agent (Planck's agent_usage:<agent_id>). Never decreased by truncation.
CREATE TABLE agent_usage (
    session_id   TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    agent_id     TEXT    NOT NULL,
    input        INTEGER NOT NULL DEFAULT 0,
    output       INTEGER NOT NULL DEFAULT 0,
    cache_read   INTEGER NOT NULL DEFAULT 0,
    cache_write  INTEGER NOT NULL DEFAULT 0,
    reasoning    INTEGER NOT NULL DEFAULT 0,
    cost_usd     TEXT,
    PRIMARY KEY (session_id, agent_id)
);
