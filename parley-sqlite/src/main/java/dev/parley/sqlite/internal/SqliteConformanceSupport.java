package dev.parley.sqlite.internal;

import dev.parley.jdbc.internal.JdbcConformanceSupport;

/** Damage injection for the conformance kit against {@code sqlite:} stores. Test support only; not API. */
public final class SqliteConformanceSupport extends JdbcConformanceSupport {
    @Override
    public String scheme() {
        return "sqlite";
    }
}
