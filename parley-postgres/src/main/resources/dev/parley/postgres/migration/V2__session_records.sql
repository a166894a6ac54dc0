-- Parley session records and archives (Heddle's repository contract) on PostgreSQL, schema version 2.
-- The shape of Heddle's PostgreSQL reference: scope in every key, the record beside indexed catalog columns, the
-- catalog index ordered like the catalog with id COLLATE "C" (UTF-8 byte order), archives as immutable content rows
-- plus one head row per session that appends lock with SELECT ... FOR UPDATE.
-- record, manifest and messages are `json`: the record's raw JSON fields (tool-call inputs, context statistics)
-- come back byte for byte, and a string holding NUL is stored as the \u0000 escape jsonb refuses. The catalog
-- fields are real columns, so nothing is queried inside the document.

CREATE TABLE parley_chat_sessions (
    scope_id     text        NOT NULL,
    id           text        COLLATE "C" NOT NULL,
    revision     bigint      NOT NULL CHECK (revision > 0),
    pinned       boolean     NOT NULL,
    updated_at   timestamptz NOT NULL,
    workspace_id text,
    archived     boolean     NOT NULL,
    record       json        NOT NULL,
    PRIMARY KEY (scope_id, id)
);

CREATE INDEX parley_chat_sessions_catalog
    ON parley_chat_sessions (scope_id, pinned DESC, updated_at DESC, id COLLATE "C" ASC);
CREATE INDEX parley_chat_sessions_by_workspace
    ON parley_chat_sessions (scope_id, workspace_id, pinned DESC, updated_at DESC, id COLLATE "C" ASC);

CREATE TABLE parley_chat_archive_heads (
    scope_id   text NOT NULL,
    session_id text COLLATE "C" NOT NULL,
    manifest   json NOT NULL,
    PRIMARY KEY (scope_id, session_id)
);

CREATE TABLE parley_chat_archives (
    scope_id   text NOT NULL,
    session_id text COLLATE "C" NOT NULL,
    archive_id text COLLATE "C" NOT NULL,
    messages   json NOT NULL,
    summary    text NOT NULL,
    PRIMARY KEY (scope_id, session_id, archive_id)
);
