-- Parley message log on PostgreSQL, schema version 1.
-- Every key starts with the scope (the tenant a store instance is bound to): a session of another scope looks missing.
-- Ids are ASCII (dev.parley.core.Ids); COLLATE "C" makes their order byte order on every server locale.
-- Entry bodies and metadata are `json`, not `jsonb`: the exact text is kept (key order, number spelling, the \u0000
-- escape), which a lossless transcript store needs and jsonb would normalise away. Text columns hold no NUL: Parley
-- escapes it (dev.parley.postgres.PgText).

CREATE TABLE parley_log_sessions (
    scope_id      text        NOT NULL,
    id            text        COLLATE "C" NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    title         text,
    origin        text,
    metadata      json        NOT NULL DEFAULT '{}',
    entry_count   bigint      NOT NULL DEFAULT 0,
    message_count bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (scope_id, id)
);

-- The catalog order: newest activity first, then id.
CREATE INDEX parley_log_sessions_by_activity ON parley_log_sessions (scope_id, updated_at DESC, id ASC);
CREATE INDEX parley_log_sessions_by_origin ON parley_log_sessions (scope_id, origin) WHERE origin IS NOT NULL;

-- One row per entry. seq is the store-assigned insertion order; appends to one session are serialized by a row lock
-- on its session row, so within a session seq order is commit order.
CREATE TABLE parley_log_entries (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scope_id   text   NOT NULL,
    session_id text   COLLATE "C" NOT NULL,
    entry_id   text   COLLATE "C" NOT NULL,
    parent_id  text   COLLATE "C",
    agent_id   text   COLLATE "C" NOT NULL,
    kind       text   NOT NULL,
    body       json   NOT NULL,
    UNIQUE (scope_id, session_id, entry_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE,
    FOREIGN KEY (scope_id, session_id, parent_id) REFERENCES parley_log_entries (scope_id, session_id, entry_id)
        ON DELETE CASCADE
);

CREATE INDEX parley_log_entries_by_session ON parley_log_entries (scope_id, session_id, seq);
CREATE INDEX parley_log_entries_by_agent ON parley_log_entries (scope_id, session_id, agent_id, seq);

-- Running usage totals per agent (Planck's agent_usage:<agent_id>). Never decreased by truncation.
CREATE TABLE parley_log_usage (
    scope_id    text    NOT NULL,
    session_id  text    COLLATE "C" NOT NULL,
    agent_id    text    COLLATE "C" NOT NULL,
    input       bigint  NOT NULL DEFAULT 0,
    output      bigint  NOT NULL DEFAULT 0,
    cache_read  bigint  NOT NULL DEFAULT 0,
    cache_write bigint  NOT NULL DEFAULT 0,
    reasoning   bigint  NOT NULL DEFAULT 0,
    cost_usd    numeric,
    PRIMARY KEY (scope_id, session_id, agent_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE
);
