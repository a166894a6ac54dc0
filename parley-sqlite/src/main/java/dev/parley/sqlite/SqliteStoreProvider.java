package dev.parley.sqlite;

import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import dev.parley.core.store.StoreUri;
import java.nio.file.Path;

/**
 * Serves {@code sqlite:PATH}: a {@link SqliteStore} on the database file at PATH, created with its directories if
 * absent. Takes no Parley parameter besides {@code parley.scope}.
 */
public final class SqliteStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "sqlite";
    }

    /**
     * Whether the database file exists and is not empty: SQLite takes an empty file for an empty database, but
     * nothing was ever stored there (a command that only reads must not write the schema into it).
     */
    @Override
    public boolean exists(StoreUri uri) {
        Path file = file(uri);
        try {
            return java.nio.file.Files.exists(file)
                    && !(java.nio.file.Files.isRegularFile(file) && java.nio.file.Files.size(file) == 0);
        } catch (java.io.IOException e) {
            return true; // there is something: opening it says what is wrong
        }
    }

    @Override
    public void backup(StoreUri uri, Path to) {
        SqliteBackup.backup(file(uri), to);
    }

    @Override
    public void restore(Path from, StoreUri uri) {
        SqliteBackup.restore(from, file(uri));
    }

    private static Path file(StoreUri uri) {
        return uri.path("a file path", "/var/lib/app/parley.db");
    }

    @Override
    public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
        return SqliteStore.open(file(uri), scope, scopePinned, options);
    }
}
