package dev.parley.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import dev.parley.jdbc.SqlDialect;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL's side of the shared JDBC store: connections borrowed from a data source (a HikariCP pool when opened
 * from a URI), writers serialized per session by the row lock on its catalog row (an append's {@code UPDATE}, or
 * {@code SELECT … FOR UPDATE}), {@code json} parameters cast
 * from text (json, not jsonb: the exact text is kept), times as {@code timestamptz}, decimals as {@code numeric},
 * and free text escaped so that NUL survives ({@link PgText}).
 */
final class PostgresDialect extends SqlDialect {
    static final String LOCATOR_PREFIX = "postgres-archive:";

    private static final Spelling SPELLING = new Spelling(" FOR UPDATE", "?::json", "%s = ANY (?)", LOCATOR_PREFIX);

    private final DataSource dataSource;
    private final @Nullable AutoCloseable owned;

    /**
     * @param owned what closing the store closes (the pool it opened), or null when the host owns the data source
     */
    PostgresDialect(String where, DataSource dataSource, @Nullable AutoCloseable owned) {
        super(where, SPELLING);
        this.dataSource = dataSource;
        this.owned = owned;
    }

    DataSource dataSource() {
        return dataSource;
    }

    @Override
    public <T> T withConnection(ConnectionWork<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        }
    }

    /**
     * Half the pool's maximum size, from 1 to 4, when the data source is (or wraps) a HikariCP pool — a store opened
     * from a URI has 8 connections by default, so 4 lanes; 1 for any other data source, whose size is not known. Half,
     * so that the lanes' groups leave the other connections to the reads and the other writes (lanes cap the
     * connections group commit uses at once; they reserve none); at most 4, because more lanes split the same writers
     * into smaller groups, each paying a WAL flush of its own.
     */
    @Override
    public int groupCommitLanes() {
        HikariDataSource pool = hikari(dataSource);
        return pool == null ? 1 : Math.min(4, Math.max(1, pool.getMaximumPoolSize() / 2));
    }

    /** Every statement is a round trip to the server. */
    @Override
    public boolean statementsCostRoundTrips() {
        return true;
    }

    /**
     * pgjdbc — the driver the backend is built on, and that a host's data source must lend connections of — sends the
     * statements of a text together (extended protocol, one sync) and reads their results in turn.
     */
    @Override
    public boolean sendsStatementsAtOnce() {
        return true;
    }

    private static @Nullable HikariDataSource hikari(DataSource dataSource) {
        if (dataSource instanceof HikariDataSource pool) {
            return pool;
        }
        try {
            return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class) : null;
        } catch (SQLException e) {
            return null; // a wrapper that cannot tell: its size is not known
        }
    }

    @Override
    public void bindStrings(Connection c, PreparedStatement st, int index, Collection<String> values)
            throws SQLException {
        st.setArray(index, c.createArrayOf("text", values.toArray()));
    }

    @Override
    public void setInstant(PreparedStatement st, int index, Instant instant) throws SQLException {
        st.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    @Override
    public Instant getInstant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    @Override
    public void setDecimal(PreparedStatement st, int index, @Nullable BigDecimal value) throws SQLException {
        st.setBigDecimal(index, value);
    }

    @Override
    public @Nullable BigDecimal getDecimal(ResultSet rs, int column) throws SQLException {
        return rs.getBigDecimal(column);
    }

    @Override
    public @Nullable String escape(@Nullable String text) {
        return PgText.escape(text);
    }

    @Override
    public @Nullable String unescape(@Nullable String stored) {
        return PgText.unescape(stored);
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return PostgresErrors.UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    @Override
    public ParleyException map(SQLException e, String doing) {
        return PostgresErrors.map(e, where(), doing);
    }

    @Override
    public void close() {
        if (owned == null) {
            return;
        }
        try {
            owned.close();
        } catch (Exception e) {
            throw new UnavailableException("closing the connection pool of " + where() + " failed: " + e.getMessage(), e);
        }
    }
}
