package dev.parley.sqlite;

import dev.parley.core.InvalidInputException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreProvider;
import java.nio.file.Path;

/** Serves {@code sqlite:PATH}: the database file at PATH, created with its directories if absent. */
public final class SqliteStoreProvider implements StoreProvider {
    @Override
    public String scheme() {
        return "sqlite";
    }

    @Override
    public MessageLog open(String location, StoreOptions options) {
        if (location.isBlank()) {
            throw new InvalidInputException("sqlite: needs a file path, e.g. sqlite:/var/lib/app/parley.db");
        }
        return SqliteMessageLog.open(Path.of(location), options);
    }
}
