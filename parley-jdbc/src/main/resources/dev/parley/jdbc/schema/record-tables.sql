-- Parley's session records and archives (Heddle's repository contract), in the spelling of every database Parley runs
-- on (see log-tables.sql): the record beside indexed catalog columns, the catalog index ordered like the catalog (ids
-- in byte order, ${id}), archives as immutable content rows plus one head row per session that appends
-- lock. record, manifest and messages keep their exact JSON text (${json}): the record's raw JSON fields (tool-call
-- inputs, context statistics) come back byte for byte. The catalog fields are real columns, so nothing is queried
-- inside the document.
-- This script is a migration that databases have run: it is never edited (its checksum is in their history). A change
-- of the schema is a new migration.

CREATE TABLE parley_chat_sessions (
    scope_id     ${text}     NOT NULL,
    id           ${id}       NOT NULL,
    revision     ${count}    NOT NULL CHECK (revision > 0),
    pinned       ${bool}     NOT NULL,
    updated_at   ${time}     NOT NULL,
    workspace_id ${text},
    archived     ${bool}     NOT NULL,
    record       ${json}     NOT NULL,
    PRIMARY KEY (scope_id, id)
);

CREATE INDEX parley_chat_sessions_catalog
    ON parley_chat_sessions (scope_id, pinned DESC, updated_at DESC, id ASC);
CREATE INDEX parley_chat_sessions_by_workspace
    ON parley_chat_sessions (scope_id, workspace_id, pinned DESC, updated_at DESC, id ASC);

-- The archive manifest of a session, its "head"; content rows are written before the head, in one transaction.
CREATE TABLE parley_chat_archive_heads (
    scope_id   ${text} NOT NULL,
    session_id ${id}   NOT NULL,
    manifest   ${json} NOT NULL,
    PRIMARY KEY (scope_id, session_id)
);

-- messages is a JSON array of {"index": i, ...message} objects.
CREATE TABLE parley_chat_archives (
    scope_id   ${text} NOT NULL,
    session_id ${id}   NOT NULL,
    archive_id ${id}   NOT NULL,
    messages   ${json} NOT NULL,
    summary    ${text} NOT NULL,
    PRIMARY KEY (scope_id, session_id, archive_id)
);
