package dev.parley.sqlite;

import dev.parley.core.InvalidInputException;
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

    /** Whether the database file exists. */
    @Override
    public boolean exists(StoreUri uri) {
        return java.nio.file.Files.exists(file(uri));
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
        if (uri.location().isBlank()) {
            throw new InvalidInputException("sqlite: needs a file path, e.g. sqlite:/var/lib/app/parley.db");
        }
        return Path.of(uri.location());
    }

    @Override
    public Store open(StoreUri uri, String scope, boolean scopePinned, StoreOptions options) {
        return SqliteStore.open(file(uri), scope, scopePinned, options);
    }
}
