-- Parley's message log tables, in the spelling of every database Parley runs on: each ${…} is replaced by the
-- database's type or clause (dev.parley.jdbc.internal.ScriptMigration). The same names, columns and keys everywhere,
-- the scope first in every key, so that one SQL text of the store serves every database (dev.parley.jdbc).
-- Ids are ASCII (dev.parley.core.Ids) compared by their bytes: ${id} makes their order byte order on every server
-- locale. JSON columns (${json}) keep the exact text (key order, number spelling, the \u0000 escape), which a
-- lossless transcript store needs.
-- This script is a migration that databases have run: it is never edited (its checksum is in their history). A change
-- of the schema is a new migration.

CREATE TABLE parley_log_sessions (
    scope_id      ${text}      NOT NULL,
    id            ${id}        NOT NULL,
    created_at    ${time}      NOT NULL,
    updated_at    ${time}      NOT NULL,
    title         ${text},
    origin        ${text},
    metadata      ${json}      NOT NULL DEFAULT '{}',
    entry_count   ${count}     NOT NULL DEFAULT 0,
    message_count ${count}     NOT NULL DEFAULT 0,
    PRIMARY KEY (scope_id, id)
);

-- The catalog order: newest activity first, then id.
CREATE INDEX parley_log_sessions_by_activity ON parley_log_sessions (scope_id, updated_at DESC, id ASC);
CREATE INDEX parley_log_sessions_by_origin ON parley_log_sessions (scope_id, origin) WHERE origin IS NOT NULL;

-- One row per entry. seq is the store-assigned insertion order, never reused; appends to one session are
-- serialized (a row lock on its session row, or the database's write lock), so within a session seq order is commit
-- order. body is the entry's canonical JSON (dev.parley.json.EntryCodec) without its seq.
CREATE TABLE parley_log_entries (
    seq        ${seq},
    scope_id   ${text}      NOT NULL,
    session_id ${id}        NOT NULL,
    entry_id   ${id}        NOT NULL,
    parent_id  ${id},
    agent_id   ${id}        NOT NULL,
    kind       ${text}      NOT NULL,
    body       ${json}      NOT NULL,
    UNIQUE (scope_id, session_id, entry_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE,
    FOREIGN KEY (scope_id, session_id, parent_id) REFERENCES parley_log_entries (scope_id, session_id, entry_id)
        ON DELETE CASCADE
);

CREATE INDEX parley_log_entries_by_session ON parley_log_entries (scope_id, session_id, seq);
CREATE INDEX parley_log_entries_by_agent ON parley_log_entries (scope_id, session_id, agent_id, seq);

-- Running usage totals per agent (Planck's agent_usage:<agent_id>). Never decreased by truncation. cost_usd is the
-- exact decimal (${decimal}).
CREATE TABLE parley_log_usage (
    scope_id    ${text}     NOT NULL,
    session_id  ${id}       NOT NULL,
    agent_id    ${id}       NOT NULL,
    input       ${count}    NOT NULL DEFAULT 0,
    output      ${count}    NOT NULL DEFAULT 0,
    cache_read  ${count}    NOT NULL DEFAULT 0,
    cache_write ${count}    NOT NULL DEFAULT 0,
    reasoning   ${count}    NOT NULL DEFAULT 0,
    cost_usd    ${decimal},
    PRIMARY KEY (scope_id, session_id, agent_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE
);
