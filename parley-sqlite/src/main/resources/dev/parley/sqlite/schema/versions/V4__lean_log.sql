-- Parley on SQLite, schema version 4: a leaner message log. An append writes every page it touches to the WAL, so
-- each index it maintains costs a page per append; v4 keeps only what a query needs:
-- * parley_log_entries_by_agent stays: an append's check of the agent's newest entry (appendIfLast, lastEntry) and
--   the agents of a session (loadAgentUsage) read it; without it they walk the session's rows, and an append after
--   many other agents' entries would cost the session's length, not a constant;
-- * parley_log_entries_by_parent is dropped with the foreign key it served (a parent must be an entry of the same
--   session). Appends check parents before writing (dev.parley.core.log.AppendCheck), and truncation removes a
--   session's tail, so a child never outlives its parent. SQLite cannot drop a constraint: the table is rebuilt,
--   keeping every seq and the counter of seqs handed out (AUTOINCREMENT: a seq is never reused).

CREATE TABLE parley_log_entries_v4 (
    seq        INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    scope_id   TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    entry_id   TEXT    NOT NULL,
    parent_id  TEXT,
    agent_id   TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    UNIQUE (scope_id, session_id, entry_id),
    FOREIGN KEY (scope_id, session_id) REFERENCES parley_log_sessions (scope_id, id) ON DELETE CASCADE
);

INSERT INTO parley_log_entries_v4 (seq, scope_id, session_id, entry_id, parent_id, agent_id, kind, body)
SELECT seq, scope_id, session_id, entry_id, parent_id, agent_id, kind, body FROM parley_log_entries ORDER BY seq;

-- Carry the counter over (it may be above every stored seq after a truncation).
INSERT INTO sqlite_sequence (name, seq)
SELECT 'parley_log_entries_v4', 0
WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'parley_log_entries_v4');
UPDATE sqlite_sequence
SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'parley_log_entries'), 0))
WHERE name = 'parley_log_entries_v4';

DROP TABLE parley_log_entries;
ALTER TABLE parley_log_entries_v4 RENAME TO parley_log_entries;

CREATE INDEX parley_log_entries_by_session ON parley_log_entries (scope_id, session_id, seq);
CREATE INDEX parley_log_entries_by_agent ON parley_log_entries (scope_id, session_id, agent_id, seq);
