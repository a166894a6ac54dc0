-- Parley on PostgreSQL, schema version 3: a leaner message log; an append maintains only what a query needs.
-- parley_log_entries_by_agent stays: the check of a conditional append reads the agent's newest entry, and on a table
-- whose statistics are stale PostgreSQL would rather scan the session's rows than walk a less exact index backwards.
-- * The foreign key from an entry to its parent is dropped: checking it took a key-share lock on the parent row, a
--   write (WAL record, dirtied page) on every append. Appends check parents before writing
--   (dev.parley.core.log.AppendCheck) under the session's row lock, and truncation removes a session's tail, so a
--   child never outlives its parent.

DO $$
DECLARE
    fk text;
BEGIN
    FOR fk IN
        SELECT conname FROM pg_constraint
        WHERE conrelid = 'parley_log_entries'::regclass AND contype = 'f' AND confrelid = conrelid
    LOOP
        EXECUTE format('ALTER TABLE parley_log_entries DROP CONSTRAINT %I', fk);
    END LOOP;
END $$;
