-- Parley on SQLite, schema version 5: seqs without AUTOINCREMENT's counter. AUTOINCREMENT remembers the highest seq
-- ever handed out by rewriting its row of sqlite_sequence on every insert: a page of its own in the WAL, one of about
-- eight that an append writes. That number only matters once the newest entries are deleted (a truncation, a deleted
-- session), so v5 records it then: a trigger raises parley_log_seq_floor to the highest seq deleted, and an insert
-- takes max(the highest stored seq, the floor) + 1 (dev.parley.sqlite.SqliteDialect's nextSeq). A seq is still never
-- reused; an append writes one page less. The table is rebuilt (SQLite cannot drop AUTOINCREMENT), keeping every seq.

CREATE TABLE parley_log_seq_floor (
    id  INTEGER NOT NULL PRIMARY KEY CHECK (id = 1), -- one row
    seq INTEGER NOT NULL
);

INSERT INTO parley_log_seq_floor (id, seq)
SELECT 1, coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'parley_log_entries'), 0);

CREATE TABLE parley_log_entries_v5 (
    seq        INTEGER NOT NULL PRIMARY KEY,
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

INSERT INTO parley_log_entries_v5 (seq, scope_id, session_id, entry_id, parent_id, agent_id, kind, body)
SELECT seq, scope_id, session_id, entry_id, parent_id, agent_id, kind, body FROM parley_log_entries ORDER BY seq;

DROP TABLE parley_log_entries;
ALTER TABLE parley_log_entries_v5 RENAME TO parley_log_entries;

CREATE INDEX parley_log_entries_by_session ON parley_log_entries (scope_id, session_id, seq);
CREATE INDEX parley_log_entries_by_agent ON parley_log_entries (scope_id, session_id, agent_id, seq);

-- An insert that does not take its seq above the floor is refused rather than let reuse a seq: a writer of an earlier
-- schema (a process of an earlier Parley still running while this one migrated the file) leaves seq to SQLite, which
-- would hand out max(seq) + 1 whatever was deleted above it.
CREATE TRIGGER parley_log_entries_seq_above_floor BEFORE INSERT ON parley_log_entries
WHEN NEW.seq IS NULL OR NEW.seq <= (SELECT seq FROM parley_log_seq_floor)
BEGIN
    SELECT RAISE(ABORT, 'parley_log_entries.seq must be above parley_log_seq_floor: a writer of an earlier Parley schema');
END;

-- Every way entries leave (DELETE, and the cascade of a deleted session) passes through here.
CREATE TRIGGER parley_log_entries_seq_floor AFTER DELETE ON parley_log_entries
WHEN OLD.seq > (SELECT seq FROM parley_log_seq_floor)
BEGIN
    UPDATE parley_log_seq_floor SET seq = OLD.seq;
END;
