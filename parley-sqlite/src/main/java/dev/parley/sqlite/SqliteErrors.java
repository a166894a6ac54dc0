package dev.parley.sqlite;

import dev.parley.core.CorruptRecordException;
import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Maps SQLite failures to Parley's errors; the SQL exception is always the cause. */
final class SqliteErrors {
    private SqliteErrors() {}

    static ParleyException map(SQLException e, String where, String doing) {
        if (e instanceof SQLiteException s) {
            SQLiteErrorCode code = s.getResultCode();
            if (code == SQLiteErrorCode.SQLITE_CORRUPT || code == SQLiteErrorCode.SQLITE_NOTADB
                    || code == SQLiteErrorCode.SQLITE_CORRUPT_INDEX || code == SQLiteErrorCode.SQLITE_CORRUPT_VTAB) {
                return new CorruptRecordException(where, "the database file is damaged (" + code + ") while trying to "
                        + doing, e);
            }
            if (code == SQLiteErrorCode.SQLITE_BUSY || code == SQLiteErrorCode.SQLITE_LOCKED) {
                return new UnavailableException(where + " is locked by another writer; could not " + doing, e);
            }
        }
        return new UnavailableException("could not " + doing + " in " + where + ": " + e.getMessage(), e);
    }
}
