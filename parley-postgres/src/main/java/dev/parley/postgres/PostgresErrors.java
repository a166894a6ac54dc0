package dev.parley.postgres;

import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import java.sql.SQLException;

/** Maps PostgreSQL failures to Parley's errors; the SQL exception is always the cause. */
final class PostgresErrors {
    /** {@code unique_violation}. */
    static final String UNIQUE_VIOLATION = "23505";
    /** {@code foreign_key_violation}. */
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private PostgresErrors() {}

    static ParleyException map(SQLException e, String where, String doing) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String kind;
        if (state.startsWith("08")) {
            kind = "the connection failed";
        } else if (state.equals("40001") || state.equals("40P01")) {
            kind = "the transaction was rolled back by the server (serialization failure or deadlock); retry";
        } else if (state.equals("57014")) {
            kind = "the statement timed out";
        } else if (state.startsWith("57P")) {
            kind = "the server is shutting down or restarting";
        } else if (state.startsWith("53")) {
            kind = "the server is out of resources";
        } else {
            kind = "SQL state " + state;
        }
        return new UnavailableException("could not " + doing + " in " + where + ": " + kind + ": " + e.getMessage(), e);
    }
}
