package dev.parley.jdbc.internal;

import dev.parley.core.UnavailableException;
import dev.parley.jdbc.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs work on a dialect's database: reads in auto-commit mode, writes in one transaction that commits on success
 * and rolls back on any failure, every {@link SQLException} mapped by the dialect. Shared by a store and all its
 * scope views; closed once, with the root store. Thread-safe.
 */
public final class Database {
    /** Work on a connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private final SqlDialect dialect;
    private volatile boolean closed;

    public Database(SqlDialect dialect) {
        this.dialect = dialect;
    }

    public SqlDialect dialect() {
        return dialect;
    }

    /** Where the database is, for messages. */
    public String where() {
        return dialect.where();
    }

    /** Runs a read: one or more statements, each seeing what was committed when it started. */
    public <T> T read(String doing, Work<T> work) {
        checkOpen();
        try {
            return dialect.withConnection(work::run);
        } catch (SQLException e) {
            throw dialect.map(e, doing);
        }
    }

    /**
     * Runs work in one write transaction: all of it is committed, or — when it throws — none of it.
     *
     * @throws UnavailableException if the database failed (mapped by the dialect) or the store is closed
     */
    public <T> T write(String doing, Work<T> work) {
        checkOpen();
        try {
            return dialect.withConnection(c -> {
                c.setAutoCommit(false); // SQLite: BEGIN IMMEDIATE, the database's write lock
                try {
                    T result = work.run(c);
                    c.commit();
                    return result;
                } catch (SQLException | RuntimeException | Error e) {
                    try {
                        c.rollback();
                    } catch (SQLException rollback) {
                        e.addSuppressed(rollback);
                    }
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            });
        } catch (SQLException e) {
            throw dialect.map(e, doing);
        }
    }

    void close() {
        if (!closed) {
            closed = true;
            dialect.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new UnavailableException(dialect.where() + " is closed", null);
        }
    }
}
