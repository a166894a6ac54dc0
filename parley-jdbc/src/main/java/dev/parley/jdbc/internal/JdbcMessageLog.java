package dev.parley.jdbc.internal;

import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.AppendCheck;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.EntryLimits;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryKind;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import dev.parley.jdbc.SqlDialect;
import dev.parley.json.EntryCodec;
import dev.parley.json.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The message log and catalog of one scope: one row per entry in {@code parley_log_entries} (the insertion order
 * is the row's {@code seq}, assigned by the database), one catalog row per session in {@code parley_log_sessions}
 * with running counts, one usage row per agent in {@code parley_log_usage}.
 *
 * <p>Every write is one transaction that first creates (if needed) and locks the session's catalog row, so writes
 * to a session are serialized across connections and processes and {@code seq} order is commit order within a
 * session. An append locks the row with the {@code UPDATE} that counts its batch in, then reads which of the ids
 * and parents it names are stored (the bodies of its own ids, which a retry is compared with) and the agent's last
 * row in one statement (a seek per id in the unique key; one set-membership query for many ids), plans the batch
 * with {@link AppendCheck} (recognising a retry, refusing a conflicting id), inserts what is new and adds the usage
 * — all or nothing: a retry, or a failed check, rolls the counts back with everything else. The unique key on
 * {@code (scope_id, session_id, entry_id)} stays the last line of defence: if an insert still meets a stored id, the
 * append is planned again once in a new transaction.
 *
 * <p>An append of a few entries first makes an attempt for the usual case ({@link #appendUsual}): it counts in, reads
 * only what its check needs (for {@code appendIfLast} the agent's last row, and the parents it cannot vouch for, by
 * id), inserts, and checks after; where the driver takes many statements in one text
 * ({@link SqlDialect#sendsStatementsAtOnce()}: PostgreSQL) all of them go in one round trip. Any case but the usual
 * one fails that attempt, which is rolled back, and the append runs as above.
 *
 * <p>Appends are group-committed ({@link Database#writeInGroup}): appends that arrive together, from many threads and
 * to many sessions, share one transaction and one commit, each all or nothing on its own, so one caller's invalid
 * batch fails only that caller, and every caller returns only once its entries are durable.
 *
 * <p>Thread-safe.
 */
final class JdbcMessageLog implements MessageLog, SessionCatalog {
    private final Database db;
    private final SqlDialect dialect;
    private final String scope;
    private final StoreOptions options;
    /** The insert of one entry, its seq returned; parameters from {@link #bindInsert}. */
    private final String insertSql;
    /**
     * {@link #insertSql} that inserts nothing, and returns no row, if the id is stored: a retry's first attempt
     * ({@link #appendUsual}) fails without an error, which would abort the transaction and be logged by the server.
     */
    private final String insertNewSql;

    JdbcMessageLog(Database db, String scope, StoreOptions options) {
        this.db = db;
        this.dialect = db.dialect();
        this.scope = scope;
        this.options = options;
        String insert = "INSERT INTO parley_log_entries (seq, scope_id, session_id, entry_id, parent_id, agent_id,"
                + " kind, body) VALUES (" + dialect.nextSeq() + ", ?, ?, ?, ?, ?, ?, " + dialect.jsonParameter() + ")";
        this.insertSql = insert + " RETURNING seq";
        this.insertNewSql = insert + " ON CONFLICT (scope_id, session_id, entry_id) DO NOTHING RETURNING seq";
    }


    /** Signals that an insert met an id another writer stored meanwhile: the transaction is rolled back and re-run. */
    private static final class StoredMeanwhile extends RuntimeException {
        StoredMeanwhile(SQLException cause) {
            super(cause);
        }
    }

    /**
     * Signals that a batch is stored whole already (a retry): its unit is rolled back — the session's counts and
     * activity, which the append moved first, stay as they were — and the caller gets the stored entries once the
     * group has committed ({@link Database.AnswerAfterRollback}).
     */
    private static final class StoredAlready extends Database.AnswerAfterRollback {
        private static final long serialVersionUID = 1L;
        final transient AppendResult result;

        StoredAlready(AppendResult result) {
            this.result = result;
        }
    }

    /** Up to this many ids, an append reads each by the unique key (a branch of one statement); more, in one query. */
    private static final int FEW_IDS = 4;

    // ---- writes ----

    @Override
    public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage, false, null);
    }

    @Override
    public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                     List<NewEntry> batch, Usage usage) {
        return append(session, agent, batch, usage, true, expectedLast);
    }

    private AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage,
                                boolean conditional, @Nullable EntryId expectedLast) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(usage, "usage");
        String doing = "append to session " + session;
        String lockKey = lockKey(scope, session);
        Database.Work<AppendResult> once = c -> appendOnce(c, session, agent, batch, usage, conditional, expectedLast);
        Database.Work<AppendResult> usual = triesTheUsualCase(batch, usage)
                ? c -> appendUsual(c, session, agent, batch, usage, conditional, expectedLast) : once;
        try {
            return db.writeInGroup(doing, lockKey, usual, once);
        } catch (StoredAlready retry) {
            return retry.result;
        } catch (StoredMeanwhile first) {
            try {
                return db.writeInGroup(doing, lockKey, once);
            } catch (StoredAlready retry) {
                return retry.result;
            } catch (StoredMeanwhile again) {
                throw new UnavailableException("could not " + doing + " in " + db.where() + ": its entry ids were"
                        + " stored concurrently by another writer twice; retry the append", again.getCause());
            }
        }
    }

    /** The lock key of the appends to {@code session} in {@code scope}: it picks their lane and orders a group. */
    static String lockKey(String scope, SessionId session) {
        return session.value() + '\u0000' + scope;
    }

    private AppendResult appendOnce(Connection c, SessionId session, AgentId agent, List<NewEntry> batch, Usage usage,
                                    boolean conditional, @Nullable EntryId expectedLast) throws SQLException {
        Instant now = now();
        long batchMessages = messagesIn(batch);
        // One statement locks the session's row and counts the batch in, as if all of it is new (what an append
        // almost always is); a retry is rolled back below, and a batch partly stored already is counted again.
        lockAndCount(c, session, now, batch.size(), batchMessages);
        // The session's row is locked: no other writer can append between these reads and the insert. The batch's
        // ids and parents, and the agent's last entry that a conditional append compares, are read in one query.
        Lookup lookup = lookUp(c, session, batch, conditional ? agent : null);
        StoredRow last = lookup.last();
        AppendCheck.Plan plan = AppendCheck.planWithStoredIds(session, agent, batch, lookup.found(), lookup.stored());
        if (plan.nothingToWrite() && !batch.isEmpty()) {
            // A retry of a batch that is stored whole: nothing is written, not even usage, and the counts go back.
            throw new StoredAlready(plan.result(List.of()));
        }
        if (conditional) {
            AppendCheck.requireLast(session, agent, expectedLast, last == null ? null : last.id());
        }
        List<Entry> written = new ArrayList<>(plan.toWrite().size());
        long messages = 0;
        try (PreparedStatement insert = c.prepareStatement(insertSql)) {
            for (NewEntry e : plan.toWrite()) {
                bindInsert(insert, 1, session, agent, e);
                try (ResultSet rs = insert.executeQuery()) {
                    rs.next(); // an insert returns its row, or fails
                    written.add(inserted(rs, agent, e));
                }
                if (e.payload().kind() == EntryKind.MESSAGE) {
                    messages++;
                }
            }
        } catch (SQLException e) {
            if (dialect.isUniqueViolation(e)) {
                throw new StoredMeanwhile(e);
            }
            throw e;
        }
        if (!usage.equals(Usage.ZERO)) {
            addUsage(c, session, agent, usage);
        }
        if (written.size() != batch.size() || messages != batchMessages) {
            touched(c, session, now, written.size() - batch.size(), messages - batchMessages);
        }
        return plan.result(written);
    }

    /**
     * Whether an append makes a first attempt for the usual case ({@link #appendUsual}): for a batch of at most
     * {@value #FEW_IDS} entries whose usage has no cost (a cost is added in Java, after a read).
     */
    private static boolean triesTheUsualCase(List<NewEntry> batch, Usage usage) {
        return !batch.isEmpty() && batch.size() <= FEW_IDS && usage.costUsd() == null;
    }

    /** The parents that a batch names outside itself: at most one per entry. */
    private static Set<EntryId> parentsOutside(List<NewEntry> batch) {
        Set<EntryId> parents = AppendCheck.idsToLookUp(batch);
        batch.forEach(e -> parents.remove(e.id()));
        return parents;
    }

    private static long messagesIn(List<NewEntry> batch) {
        return batch.stream().filter(e -> e.payload().kind() == EntryKind.MESSAGE).count();
    }

    /**
     * The usual append — every entry new, its parents stored, the agent's last entry the one expected — with the fewest
     * statements and reads: lock and count, look up what the check needs, insert, add the usage, the inserts before
     * the check. Where the dialect takes many statements in one text ({@link SqlDialect#sendsStatementsAtOnce()}) they
     * go in one round trip, led by the creation of the session's row if absent (a row deleted between the two fails
     * the attempt); otherwise one by one, the row created as {@link #appendOnce} does. A batch's own ids are not
     * looked up (an insert whose id is stored returns no row), nor is a parent that is the expected last entry (the
     * comparison with the agent's last row proves it stored), and the other parents only for being stored. Any other
     * case fails this attempt — an insert that returns nothing, a failed check — and the group rolls it back and runs
     * {@link #appendOnce} instead
     * ({@link Database#writeInGroup(String, String, Database.Work, Database.Work)}), which answers as if this attempt
     * had not been made.
     */
    private AppendResult appendUsual(Connection c, SessionId session, AgentId agent, List<NewEntry> batch, Usage usage,
                                     boolean conditional, @Nullable EntryId expectedLast) throws SQLException {
        EntryLimits.check(session, batch); // what the check would refuse is not sent
        Instant now = now();
        long batchMessages = messagesIn(batch);
        Set<EntryId> parents = parentsOutside(batch);
        if (conditional && expectedLast != null) {
            parents.remove(expectedLast);
        }
        AgentId lastOf = conditional ? agent : null;
        boolean looksUp = !parents.isEmpty() || lastOf != null; // not for a plain append of a new root
        boolean addsUsage = !usage.equals(Usage.ZERO);
        boolean atOnce = dialect.sendsStatementsAtOnce();
        Statements steps = new Statements(c, atOnce);
        if (atOnce) {
            steps.add(CREATE_IF_ABSENT, (st, i) -> bindCreate(st, i, session, now));
            steps.add(TOUCH, (st, i) -> bindTouch(st, i, session, now, batch.size(), batchMessages));
        } else {
            lockAndCount(c, session, now, batch.size(), batchMessages); // no round trips to save
        }
        if (looksUp) {
            steps.add(lookupSql(0, parents.size(), lastOf != null),
                    (st, i) -> bindLookup(st, i, session, List.of(), parents, lastOf));
        }
        for (NewEntry e : batch) {
            steps.add(insertNewSql, (st, i) -> bindInsert(st, i, session, agent, e));
        }
        if (addsUsage) {
            steps.add(ADD_USAGE, (st, i) -> bindUsageRow(st, i, session, agent, usage));
        }
        Lookup lookup = Lookup.NOTHING;
        List<Entry> written = new ArrayList<>(batch.size());
        try (steps) {
            if (atOnce) {
                steps.next(); // the session's row, unless it exists
                steps.next();
                if (steps.updateCount() != 1) {
                    throw new NotUsual(); // the row was deleted between the two statements: the careful way decides
                }
            }
            if (looksUp) {
                steps.next();
                try (ResultSet rs = steps.resultSet()) {
                    lookup = readLookup(rs, Set.of());
                }
            }
            for (NewEntry e : batch) {
                steps.next();
                try (ResultSet rs = steps.resultSet()) {
                    if (!rs.next()) {
                        throw new NotUsual(); // its id is stored: a retry, or a conflict
                    }
                    written.add(inserted(rs, agent, e));
                }
            }
            if (addsUsage) {
                steps.next();
            }
        }
        if (conditional) {
            StoredRow last = lookup.last();
            AppendCheck.requireLast(session, agent, expectedLast, last == null ? null : last.id());
        }
        Set<EntryId> stored = lookup.stored();
        if (conditional && expectedLast != null) {
            stored = new HashSet<>(stored);
            stored.add(expectedLast); // the agent's last entry, as compared above
        }
        AppendCheck.Plan plan = AppendCheck.planWithStoredIds(session, agent, batch, Map.of(), stored);
        if (plan.toWrite().size() != batch.size()) {
            throw new NotUsual(); // not reached: every entry was inserted above, so none is stored already
        }
        return plan.result(written);
    }

    /** Binds one statement's parameters from parameter {@code i} on; the next parameter. */
    @FunctionalInterface
    private interface Binder {
        int bind(PreparedStatement st, int i) throws SQLException;
    }

    /**
     * Statements run in order on one connection, their results read in turn: with {@code atOnce}, sent in one text
     * on the first {@link #next()} and read through {@link PreparedStatement#getMoreResults()}; otherwise each
     * prepared, bound and run by its own {@link #next()}.
     */
    private static final class Statements implements AutoCloseable {
        private final Connection c;
        private final boolean atOnce;
        private final List<String> texts = new ArrayList<>();
        private final List<Binder> binders = new ArrayList<>();
        private @Nullable PreparedStatement current;
        private int next;

        Statements(Connection c, boolean atOnce) {
            this.c = c;
            this.atOnce = atOnce;
        }

        /** Adds a statement; before the first {@link #next()} only. */
        void add(String sql, Binder binder) {
            if (next > 0) {
                throw new IllegalStateException("statements are added before the first is run");
            }
            texts.add(sql);
            binders.add(binder);
        }

        /** Moves to the next statement's result, running it (with {@code atOnce}, all of them the first time). */
        void next() throws SQLException {
            if (next >= texts.size()) {
                throw new IllegalStateException("all " + texts.size() + " statements have run");
            }
            if (atOnce && current != null) {
                current.getMoreResults();
            } else {
                PreparedStatement done = current;
                current = null;
                if (done != null) {
                    done.close();
                }
                current = c.prepareStatement(atOnce ? String.join(";\n", texts) : texts.get(next));
                int i = 1;
                for (Binder b : atOnce ? binders : binders.subList(next, next + 1)) {
                    i = b.bind(current, i);
                }
                current.execute(); // with atOnce, a failure of any statement is thrown here
            }
            next++;
        }

        int updateCount() throws SQLException {
            return Objects.requireNonNull(current).getUpdateCount();
        }

        ResultSet resultSet() throws SQLException {
            return Objects.requireNonNull(current).getResultSet();
        }

        @Override
        public void close() throws SQLException {
            if (current != null) {
                current.close();
            }
        }
    }

    /** Fails an append's first attempt ({@link #appendUsual}) whose case is not the usual one. */
    private static final class NotUsual extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotUsual() {
            super(null, null, false, false);
        }
    }


    /** Binds an entry's row to {@link #insertSql} from parameter {@code i} on; the next parameter. */
    private int bindInsert(PreparedStatement st, int i, SessionId session, AgentId agent, NewEntry e)
            throws SQLException {
        st.setString(i, scope);
        st.setString(i + 1, session.value());
        st.setString(i + 2, e.id().value());
        st.setString(i + 3, e.parentId() == null ? null : e.parentId().value());
        st.setString(i + 4, agent.value());
        st.setString(i + 5, e.payload().kind().wireName());
        st.setString(i + 6, EntryCodec.encodeRow(e, agent));
        return i + 7;
    }

    /** The entry whose seq the current row of an insert's {@code RETURNING seq} holds. */
    private static Entry inserted(ResultSet rs, AgentId agent, NewEntry e) throws SQLException {
        return new Entry(rs.getLong(1), e.id(), e.parentId(), agent, e.timestamp(), e.payload(), e.source());
    }

    /**
     * What an append reads before it writes: which of the ids its batch names (as entries or parents) are stored, the
     * stored entries of the batch's own ids decoded (a retry is compared with them), and the agent's last row.
     */
    private record Lookup(Map<EntryId, Entry> found, Set<EntryId> stored, @Nullable StoredRow last) {
        static final Lookup NOTHING = new Lookup(Map.of(), Set.of(), null);
    }

    /**
     * Which of the ids the batch names (as entries or parents) are stored in the session, the stored entries of the
     * batch's own ids (a retry is compared with them), and with {@code lastOf} the id and seq of that agent's latest
     * entry. For a few ids — the usual append: a new id and its parent — one statement reads them all: a branch per id
     * that seeks it in the unique index ({@link #byId}), with the body only for the batch's own ids, and a branch for
     * the last row through the agent index. One round trip on a server, where each was one. More ids take one
     * set-membership query (which reads every body, and decodes the batch's own) and a second statement for the last
     * row.
     */
    private Lookup lookUp(Connection c, SessionId session, List<NewEntry> batch, @Nullable AgentId lastOf)
            throws SQLException {
        Set<EntryId> ids = AppendCheck.idsToLookUp(batch);
        Set<EntryId> batchIds = batch.stream().map(NewEntry::id).collect(Collectors.toSet());
        if (ids.size() > FEW_IDS) {
            Lookup byId;
            try (PreparedStatement st = c.prepareStatement("SELECT 0 AS last_row, seq, entry_id, body"
                    + " FROM parley_log_entries WHERE scope_id = ? AND session_id = ? AND "
                    + dialect.isAnyOf("entry_id"))) {
                st.setString(1, scope);
                st.setString(2, session.value());
                dialect.bindStrings(c, st, 3, ids.stream().map(EntryId::value).toList());
                try (ResultSet rs = st.executeQuery()) {
                    byId = readLookup(rs, batchIds);
                }
            }
            return new Lookup(byId.found(), byId.stored(), lastOf == null ? null : lastRow(c, session, lastOf));
        }
        if (ids.isEmpty() && lastOf == null) {
            return Lookup.NOTHING;
        }
        List<EntryId> bodied = ids.stream().filter(batchIds::contains).toList();
        List<EntryId> bare = ids.stream().filter(id -> !batchIds.contains(id)).toList();
        try (PreparedStatement st = c.prepareStatement(lookupSql(bodied.size(), bare.size(), lastOf != null))) {
            bindLookup(st, 1, session, bodied, bare, lastOf);
            try (ResultSet rs = st.executeQuery()) {
                return readLookup(rs, batchIds);
            }
        }
    }

    /**
     * The statement that reads a few stored rows by id and, with {@code last}, the agent's last row: a branch per id
     * by the whole unique key — {@code bodied} of them with the row's body, then {@code bare} of them without (their
     * body column null: it says that the id is stored, and the body is neither read nor sent) — and one through the
     * agent index, without the body (see {@link #lookUp}); parameters from {@link #bindLookup}, rows read by
     * {@link #readLookup}.
     */
    private static String lookupSql(int bodied, int bare, boolean last) {
        // The branches with a body come before the bare ones: PostgreSQL types a UNION's column pair by pair, and two
        // NULLs first would make it text, which the json of a later body would not join.
        List<String> branches = new ArrayList<>();
        if (last) {
            branches.add("SELECT 1 AS last_row, seq, entry_id, NULL AS body FROM (" + lastRowSql("seq, entry_id")
                    + ") AS agent_last");
        }
        for (int i = 0; i < bodied + bare; i++) {
            branches.add("SELECT 0 AS last_row, seq, entry_id, " + (i < bodied ? "body" : "NULL AS body") + " FROM "
                    + byId(i < bodied));
        }
        return String.join(" UNION ALL ", branches);
    }

    /**
     * The row of one entry by its key, as a {@code FROM} clause with parameters from {@link #bindById}: a seek — the
     * first row at or after the key in the unique index's order, kept if it is the key — which no other index can
     * answer without a sort, so the unique index serves it whatever the planner's statistics say. Spelt as an equality
     * on the three columns, PostgreSQL served it, on a table it had not analyzed yet (a new database, for minutes),
     * from the agent or the session index — smaller, so cheaper to its estimate — reading the session's rows: an
     * append to a session of 8,000 entries took 5.2 ms, growing with the session. With {@code body}, the clause's
     * rows carry the body column.
     */
    private static String byId(boolean body) {
        return "(SELECT seq, scope_id, session_id, entry_id" + (body ? ", body" : "") + " FROM parley_log_entries"
                + " WHERE (scope_id, session_id, entry_id) >= (?, ?, ?) ORDER BY scope_id, session_id, entry_id"
                + " LIMIT 1) AS seek WHERE scope_id = ? AND session_id = ? AND entry_id = ?";
    }

    /** Binds {@link #byId} from parameter {@code i} on (six); the next parameter. */
    private int bindById(PreparedStatement st, int i, SessionId session, EntryId id) throws SQLException {
        for (int twice = 0; twice < 2; twice++) {
            st.setString(i++, scope);
            st.setString(i++, session.value());
            st.setString(i++, id.value());
        }
        return i;
    }

    /** Binds {@link #lookupSql} from parameter {@code i} on; the next parameter. */
    private int bindLookup(PreparedStatement st, int i, SessionId session, Collection<EntryId> bodied,
                           Collection<EntryId> bare, @Nullable AgentId lastOf) throws SQLException {
        if (lastOf != null) {
            i = bindLastRow(st, i, session, lastOf);
        }
        for (EntryId id : bodied) {
            i = bindById(st, i, session, id);
        }
        for (EntryId id : bare) {
            i = bindById(st, i, session, id);
        }
        return i;
    }

    /**
     * The rows of {@link #lookupSql} (or of a set-membership query in its shape): the ids found, those of them in
     * {@code toDecode} decoded, and the agent's last row. A parent is only checked for being stored: its body is not
     * the append's to judge (a damaged one is reported where it is read).
     */
    private Lookup readLookup(ResultSet rs, Set<EntryId> toDecode) throws SQLException {
        Map<EntryId, Entry> found = new HashMap<>();
        Set<EntryId> stored = new HashSet<>();
        StoredRow last = null;
        while (rs.next()) {
            long seq = rs.getLong(2);
            EntryId id = new EntryId(rs.getString(3));
            String body = rs.getString(4);
            if (rs.getInt(1) == 1) {
                last = new StoredRow(seq, id, body);
            } else {
                stored.add(id);
                if (toDecode.contains(id)) {
                    found.put(id, decode(seq, id.value(), Objects.requireNonNull(body, "body")));
                }
            }
        }
        return new Lookup(found, stored, last);
    }

    /** A row of {@code parley_log_entries} as read, its body not decoded yet (null where it was not read). */
    private record StoredRow(long seq, EntryId id, @Nullable String body) {}

    /**
     * The row of the agent's latest entry in the session, through the agent index, undecoded: an append that only
     * compares its id must not fail on a body it does not need.
     */
    private @Nullable StoredRow lastRow(Connection c, SessionId session, AgentId agent) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(lastRowSql("seq, entry_id, body"))) {
            bindLastRow(st, 1, session, agent);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new StoredRow(rs.getLong(1), new EntryId(rs.getString(2)), rs.getString(3)) : null;
            }
        }
    }

    /**
     * The {@code columns} of an agent's latest entry in a session: parameters from {@link #bindLastRow}. With
     * {@code seq} alone, the agent's index answers without reading the table.
     */
    private static String lastRowSql(String columns) {
        return "SELECT " + columns + " FROM parley_log_entries"
                + " WHERE scope_id = ? AND session_id = ? AND agent_id = ? ORDER BY seq DESC LIMIT 1";
    }

    /** Binds {@link #lastRowSql} from parameter {@code i} on (three); the next parameter. */
    private int bindLastRow(PreparedStatement st, int i, SessionId session, AgentId agent) throws SQLException {
        st.setString(i, scope);
        st.setString(i + 1, session.value());
        st.setString(i + 2, agent.value());
        return i + 3;
    }

    private void addUsage(Connection c, SessionId session, AgentId agent, Usage usage) throws SQLException {
        if (usage.costUsd() == null) {
            // Counts only: added by the statement itself (integers add exactly in every database), one round trip
            // where reading the totals first took two; the stored cost stays as it is.
            try (PreparedStatement st = c.prepareStatement(ADD_USAGE)) {
                bindUsageRow(st, 1, session, agent, usage);
                st.executeUpdate();
            }
            return;
        }
        // A cost is added in Java: SQLite keeps exact decimals as text, which its arithmetic would turn into doubles.
        Usage total = readUsage(c, session, agent).plus(usage);
        try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_log_usage (scope_id, session_id, agent_id,"
                + " input, output, cache_read, cache_write, reasoning, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (scope_id, session_id, agent_id) DO UPDATE SET input = excluded.input,"
                + " output = excluded.output, cache_read = excluded.cache_read, cache_write = excluded.cache_write,"
                + " reasoning = excluded.reasoning, cost_usd = excluded.cost_usd")) {
            bindUsageRow(st, 1, session, agent, total);
            dialect.setDecimal(st, 9, total.costUsd());
            st.executeUpdate();
        }
    }

    /** Adds counts (no cost) to an agent's usage row, creating it: parameters from {@link #bindUsageRow}. */
    private static final String ADD_USAGE = "INSERT INTO parley_log_usage (scope_id, session_id, agent_id, input,"
            + " output, cache_read, cache_write, reasoning) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (scope_id, session_id, agent_id) DO UPDATE SET "
            + String.join(", ", addedCount("input"), addedCount("output"), addedCount("cache_read"),
                    addedCount("cache_write"), addedCount("reasoning"));

    /**
     * {@code column = stored + added}, saturated at {@link Long#MAX_VALUE} as {@link Usage#plus} is: PostgreSQL would
     * fail the append on an overflowing {@code bigint}, and SQLite would store the sum as an inexact REAL.
     */
    private static String addedCount(String column) {
        return column + " = CASE WHEN excluded." + column + " > " + Long.MAX_VALUE + " - parley_log_usage." + column
                + " THEN " + Long.MAX_VALUE + " ELSE parley_log_usage." + column + " + excluded." + column + " END";
    }

    /** Binds a usage row's key and its five counts, from parameter {@code i} on (eight); the next parameter. */
    private int bindUsageRow(PreparedStatement st, int i, SessionId session, AgentId agent, Usage counts)
            throws SQLException {
        st.setString(i, scope);
        st.setString(i + 1, session.value());
        st.setString(i + 2, agent.value());
        st.setLong(i + 3, counts.inputTokens());
        st.setLong(i + 4, counts.outputTokens());
        st.setLong(i + 5, counts.cacheReadTokens());
        st.setLong(i + 6, counts.cacheWriteTokens());
        st.setLong(i + 7, counts.reasoningTokens());
        return i + 8;
    }

    @Override
    public void truncateAfter(SessionId session, EntryId entry) {
        Objects.requireNonNull(entry, "entry");
        db.write("truncate session " + session, c -> {
            lockExisting(c, session);
            long seq;
            try (PreparedStatement find = c.prepareStatement("SELECT seq FROM " + byId(false))) {
                bindById(find, 1, session, entry);
                try (ResultSet rs = find.executeQuery()) {
                    if (!rs.next()) {
                        throw new NotFoundException("no entry " + entry + " in session " + session);
                    }
                    seq = rs.getLong(1);
                }
            }
            long removed = 0;
            long removedMessages = 0;
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM parley_log_entries"
                    + " WHERE scope_id = ? AND session_id = ? AND seq > ? RETURNING kind")) {
                delete.setString(1, scope);
                delete.setString(2, session.value());
                delete.setLong(3, seq);
                try (ResultSet rs = delete.executeQuery()) {
                    while (rs.next()) {
                        removed++;
                        if (EntryKind.MESSAGE.wireName().equals(rs.getString(1))) {
                            removedMessages++;
                        }
                    }
                }
            }
            touched(c, session, now(), -removed, -removedMessages);
            return null;
        });
    }

    // ---- reads ----

    @Override
    public List<Entry> load(SessionId session, @Nullable AgentId agent) {
        Objects.requireNonNull(session, "session");
        String sql = "SELECT seq, entry_id, body FROM parley_log_entries WHERE scope_id = ? AND session_id = ?"
                + (agent == null ? "" : " AND agent_id = ?") + " ORDER BY seq";
        return db.read("load session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setString(1, scope);
                st.setString(2, session.value());
                if (agent != null) {
                    st.setString(3, agent.value());
                }
                return readEntries(st);
            }
        });
    }

    @Override
    public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        return db.read("read the last entry of session " + session, c -> {
            StoredRow row = lastRow(c, session, agent);
            return Optional.ofNullable(row == null ? null : decode(row));
        });
    }

    /**
     * From the agent's index: SQLite reads no row of the table; PostgreSQL's index-only scan visits the table only for
     * pages not yet marked all-visible (a busy session's newest).
     */
    @Override
    public OptionalLong lastSeq(SessionId session, AgentId agent) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        return db.read("read the last seq of session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement(lastRowSql("seq"))) {
                bindLastRow(st, 1, session, agent);
                try (ResultSet rs = st.executeQuery()) {
                    return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    @Override
    public Usage loadUsage(SessionId session, AgentId agent) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(agent, "agent");
        return db.read("read the usage of session " + session, c -> readUsage(c, session, agent));
    }

    @Override
    public List<Entry> loadAfter(SessionId session, long afterSeq, int limit) {
        Objects.requireNonNull(session, "session");
        dev.parley.core.log.LogWindows.check(afterSeq, limit);
        return db.read("load a window of session " + session, c -> {
            try (PreparedStatement st = c.prepareStatement("SELECT seq, entry_id, body FROM parley_log_entries"
                    + " WHERE scope_id = ? AND session_id = ? AND seq > ? ORDER BY seq LIMIT ?")) {
                st.setString(1, scope);
                st.setString(2, session.value());
                st.setLong(3, afterSeq);
                st.setInt(4, limit);
                return readEntries(st);
            }
        });
    }

    @Override
    public java.util.Map<AgentId, Usage> loadAgentUsage(SessionId session) {
        Objects.requireNonNull(session, "session");
        return db.read("read the agents of session " + session, c -> {
            java.util.Map<AgentId, Usage> out = new java.util.LinkedHashMap<>();
            // the agents by their first seq, from the (scope, session, agent, seq) index: no scan of the entries
            try (PreparedStatement st = c.prepareStatement("SELECT agent_id, MIN(seq) AS first_seq FROM parley_log_entries"
                    + " WHERE scope_id = ? AND session_id = ? GROUP BY agent_id ORDER BY first_seq")) {
                st.setString(1, scope);
                st.setString(2, session.value());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.put(new AgentId(rs.getString(1)), Usage.ZERO);
                    }
                }
            }
            for (java.util.Map.Entry<AgentId, Usage> e : out.entrySet()) {
                e.setValue(readUsage(c, session, e.getKey()));
            }
            return java.util.Collections.unmodifiableMap(out);
        });
    }

    /** Nothing to release: the store owns the connections. */
    @Override
    public void close() {}

    // ---- catalog ----

    @Override
    public SessionInfo create(NewSession session) {
        Objects.requireNonNull(session, "session");
        return db.write("create session " + session.id(), c -> {
            Instant now = now();
            try (PreparedStatement st = c.prepareStatement("INSERT INTO parley_log_sessions (scope_id, id, created_at,"
                    + " updated_at, title, origin, metadata) VALUES (?, ?, ?, ?, ?, ?, " + dialect.jsonParameter()
                    + ") ON CONFLICT (scope_id, id) DO NOTHING")) {
                st.setString(1, scope);
                st.setString(2, session.id().value());
                dialect.setInstant(st, 3, session.createdAtOr(now));
                dialect.setInstant(st, 4, session.updatedAtOr(now));
                st.setString(5, dialect.escape(session.title()));
                st.setString(6, dialect.escape(session.origin()));
                st.setString(7, Json.write(EntryCodec.encodeRawMap(session.metadata())));
                if (st.executeUpdate() == 0) {
                    throw new AlreadyExistsException("session " + session.id() + " already exists");
                }
            }
            return findInfo(c, session.id()).orElseThrow();
        });
    }

    @Override
    public Optional<SessionInfo> find(SessionId session) {
        Objects.requireNonNull(session, "session");
        return db.read("find session " + session, c -> findInfo(c, session));
    }

    @Override
    public SessionPage list(@Nullable String cursor, int limit) {
        CatalogCursor.checkLimit(limit);
        CatalogCursor after = CatalogCursor.decode(cursor);
        String sql = SESSION_COLUMNS + " WHERE scope_id = ?"
                // The keyset condition, spelt so that its first half bounds a range of the activity index (an OR
                // alone would make both databases scan the index from its start: deep pages would cost the depth).
                + (after == null ? "" : " AND updated_at <= ? AND (updated_at < ? OR id > ?)")
                + " ORDER BY updated_at DESC, id ASC LIMIT ?";
        return db.read("list sessions", c -> {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                int i = 1;
                st.setString(i++, scope);
                if (after != null) {
                    dialect.setInstant(st, i++, after.updatedAt());
                    dialect.setInstant(st, i++, after.updatedAt());
                    st.setString(i++, after.id().value());
                }
                st.setInt(i, limit + 1);
                List<SessionInfo> rows = readSessions(st);
                boolean more = rows.size() > limit;
                List<SessionInfo> page = more ? rows.subList(0, limit) : rows;
                return new SessionPage(page, more ? CatalogCursor.after(page.get(page.size() - 1)).encode() : null);
            }
        });
    }

    @Override
    public List<SessionInfo> findByOrigin(String origin) {
        Objects.requireNonNull(origin, "origin");
        return db.read("find sessions by origin", c -> {
            try (PreparedStatement st = c.prepareStatement(SESSION_COLUMNS
                    + " WHERE scope_id = ? AND origin = ? ORDER BY created_at, id")) {
                st.setString(1, scope);
                st.setString(2, dialect.escape(origin));
                return readSessions(st);
            }
        });
    }

    @Override
    public List<SessionId> findByPrefix(String prefix, int max) {
        Objects.requireNonNull(prefix, "prefix");
        if (max < 1) {
            throw new InvalidInputException("max must be positive");
        }
        return db.read("find sessions by prefix", c -> {
            // Ids are ASCII: every id that starts with the prefix sorts between it and the prefix followed by DEL.
            try (PreparedStatement st = c.prepareStatement("SELECT id FROM parley_log_sessions"
                    + " WHERE scope_id = ? AND id >= ? AND id < ? ORDER BY id LIMIT ?")) {
                st.setString(1, scope);
                st.setString(2, dialect.escape(prefix));
                st.setString(3, dialect.escape(prefix) + '\u007f');
                st.setInt(4, max);
                List<SessionId> out = new ArrayList<>();
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.add(new SessionId(rs.getString(1)));
                    }
                }
                return out;
            }
        });
    }

    @Override
    public boolean delete(SessionId session) {
        Objects.requireNonNull(session, "session");
        return db.write("delete session " + session, c -> {
            // Its entries and usage go with it (ON DELETE CASCADE).
            try (PreparedStatement st = c.prepareStatement(
                    "DELETE FROM parley_log_sessions WHERE scope_id = ? AND id = ?")) {
                st.setString(1, scope);
                st.setString(2, session.value());
                return st.executeUpdate() > 0;
            }
        });
    }

    // ---- internals ----

    private static final String SESSION_COLUMNS = "SELECT id, created_at, updated_at, title, origin, metadata,"
            + " entry_count, message_count FROM parley_log_sessions";

    private List<SessionInfo> readSessions(PreparedStatement st) throws SQLException {
        List<SessionInfo> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String id = rs.getString(1);
                String location = db.where() + " parley_log_sessions scope=" + scope + " id=" + id;
                try {
                    Map<String, RawJson> metadata =
                            EntryCodec.decodeRawMap(EntryCodec.parseRecord(rs.getString(6), location), location);
                    out.add(new SessionInfo(new SessionId(id), dialect.getInstant(rs, 2), dialect.getInstant(rs, 3),
                            dialect.unescape(rs.getString(4)), dialect.unescape(rs.getString(5)), rs.getLong(7),
                            rs.getLong(8), metadata));
                } catch (IllegalArgumentException e) {
                    throw new CorruptRecordException(location, e.getMessage(), e);
                }
            }
        }
        return out;
    }

    private Optional<SessionInfo> findInfo(Connection c, SessionId session) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(SESSION_COLUMNS + " WHERE scope_id = ? AND id = ?")) {
            st.setString(1, scope);
            st.setString(2, session.value());
            return readSessions(st).stream().findFirst();
        }
    }

    /** Decodes rows of (seq, entry_id, body). */
    private List<Entry> readEntries(PreparedStatement st) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(decode(rs.getLong(1), rs.getString(2), rs.getString(3)));
            }
        }
        return out;
    }

    /** Decodes a row read with its body ({@link #lastRow}). */
    private Entry decode(StoredRow row) {
        return decode(row.seq(), row.id().value(), Objects.requireNonNull(row.body(), "body"));
    }

    /** Decodes a row; a body that is not the row's entry is a {@link dev.parley.core.CorruptRecordException}. */
    private Entry decode(long seq, String entryId, String body) {
        return EntryCodec.decodeRow(body, seq, entryId,
                () -> db.where() + " parley_log_entries scope=" + scope + " seq=" + seq);
    }

    private Usage readUsage(Connection c, SessionId session, AgentId agent) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT input, output, cache_read, cache_write, reasoning,"
                + " cost_usd FROM parley_log_usage WHERE scope_id = ? AND session_id = ? AND agent_id = ?")) {
            st.setString(1, scope);
            st.setString(2, session.value());
            st.setString(3, agent.value());
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return Usage.ZERO;
                }
                try {
                    return new Usage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            dialect.getDecimal(rs, 6));
                } catch (NumberFormatException | InvalidInputException e) {
                    throw new CorruptRecordException(db.where() + " parley_log_usage scope=" + scope + " session="
                            + session + " agent=" + agent, String.valueOf(e.getMessage()), e);
                }
            }
        }
    }

    /**
     * Locks the session's catalog row until the transaction ends — creating it for a session's first append — and in
     * the same statement moves its activity time forward and adds {@code entries} and {@code messages} to its counts.
     */
    private void lockAndCount(Connection c, SessionId session, Instant now, long entries, long messages)
            throws SQLException {
        if (touched(c, session, now, entries, messages)) {
            return; // an UPDATE locks the row it changes, where rows are locked
        }
        try (PreparedStatement st = c.prepareStatement(CREATE_IF_ABSENT)) {
            bindCreate(st, 1, session, now);
            st.executeUpdate();
        }
        touched(c, session, now, entries, messages); // the row is there now: this writer's, or a concurrent first's
    }

    /** Creates a session's catalog row unless it exists: parameters from {@link #bindCreate}. */
    private static final String CREATE_IF_ABSENT = "INSERT INTO parley_log_sessions (scope_id, id, created_at,"
            + " updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (scope_id, id) DO NOTHING";

    /** Binds {@link #CREATE_IF_ABSENT} from parameter {@code i} on (four); the next parameter. */
    private int bindCreate(PreparedStatement st, int i, SessionId session, Instant now) throws SQLException {
        st.setString(i, scope);
        st.setString(i + 1, session.value());
        dialect.setInstant(st, i + 2, now);
        dialect.setInstant(st, i + 3, now);
        return i + 4;
    }

    /** Locks the session's catalog row, if it exists, until the transaction ends; whether it exists. */
    private boolean lockExisting(Connection c, SessionId session) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM parley_log_sessions WHERE scope_id = ? AND id = ?"
                + dialect.forUpdate())) {
            st.setString(1, scope);
            st.setString(2, session.value());
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Moves the session's activity time forward (never back) and adjusts its counts; whether its row exists. */
    private boolean touched(Connection c, SessionId session, Instant now, long entries, long messages)
            throws SQLException {
        try (PreparedStatement st = c.prepareStatement(TOUCH)) {
            bindTouch(st, 1, session, now, entries, messages);
            return st.executeUpdate() > 0;
        }
    }

    /** Moves a session's activity time forward and adjusts its counts: parameters from {@link #bindTouch}. */
    private static final String TOUCH = "UPDATE parley_log_sessions"
            + " SET updated_at = CASE WHEN updated_at < ? THEN ? ELSE updated_at END,"
            + " entry_count = entry_count + ?, message_count = message_count + ? WHERE scope_id = ? AND id = ?";

    /** Binds {@link #TOUCH} from parameter {@code i} on (six); the next parameter. */
    private int bindTouch(PreparedStatement st, int i, SessionId session, Instant now, long entries, long messages)
            throws SQLException {
        dialect.setInstant(st, i, now);
        dialect.setInstant(st, i + 1, now);
        st.setLong(i + 2, entries);
        st.setLong(i + 3, messages);
        st.setString(i + 4, scope);
        st.setString(i + 5, session.value());
        return i + 6;
    }

    /** Now, to the millisecond: catalog cursors carry milliseconds, so stored times must not be finer. */
    private Instant now() {
        return options.clock().instant().truncatedTo(ChronoUnit.MILLIS);
    }

    @Override
    public String toString() {
        return db.where() + " scope=" + scope;
    }
}
