-- Parley session records and archives (the repository contract), schema version 2.
-- Every key starts with the scope: a record of another scope is indistinguishable from a missing one.
-- updated_at is fixed-millisecond ISO-8601 text, so text order is time order; ids compare by UTF-8 bytes (BINARY).

CREATE TABLE chat_sessions (
    scope_id     TEXT    NOT NULL,
    id           TEXT    NOT NULL,
    revision     INTEGER NOT NULL CHECK (revision > 0),
    pinned       INTEGER NOT NULL,
    updated_at   TEXT    NOT NULL,
    workspace_id TEXT,
    archived     INTEGER NOT NULL,
    record       TEXT    NOT NULL,
    PRIMARY KEY (scope_id, id)
);

CREATE INDEX chat_sessions_catalog ON chat_sessions (scope_id, pinned DESC, updated_at DESC, id ASC);

-- The archive manifest of a session: its "head". Content rows are written before the head, in one transaction.
CREATE TABLE chat_archive_heads (
    scope_id   TEXT NOT NULL,
    session_id TEXT NOT NULL,
    manifest   TEXT NOT NULL,
    PRIMARY KEY (scope_id, session_id)
);

CREATE TABLE chat_archives (
    scope_id   TEXT NOT NULL,
    session_id TEXT NOT NULL,
    archive_id TEXT NOT NULL,
    messages   TEXT NOT NULL,
    summary    TEXT NOT NULL,
    PRIMARY KEY (scope_id, session_id, archive_id)
);
