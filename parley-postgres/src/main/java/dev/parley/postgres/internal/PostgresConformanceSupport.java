package dev.parley.postgres.internal;

import dev.parley.jdbc.internal.JdbcConformanceSupport;

/** Damage injection for the conformance kit against {@code postgres:} stores. Test support only; not API. */
public final class PostgresConformanceSupport extends JdbcConformanceSupport {
    @Override
    public String scheme() {
        return "postgres";
    }
}
