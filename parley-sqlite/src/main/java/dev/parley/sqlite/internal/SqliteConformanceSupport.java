package dev.parley.sqlite.internal;

import dev.parley.jdbc.internal.JdbcConformanceSupport;
import java.nio.file.Path;
import java.util.Optional;

/** Damage injection and new stores for the conformance kit against {@code sqlite:} stores. Test support only; not API. */
public final class SqliteConformanceSupport extends JdbcConformanceSupport {
    @Override
    public String scheme() {
        return "sqlite";
    }

    /** A database file, not yet created, in {@code dir}. */
    @Override
    public Optional<String> freshStore(Path dir) {
        return Optional.of("sqlite:" + dir.toAbsolutePath().resolve("parley.db"));
    }
}
