/**
 * The hosted, multi-replica store: the message log, its catalog, the session records and the archives in one
 * PostgreSQL database, every row scoped to a tenant, versioned by Flyway migrations. Open it with the URI
 * {@code postgres:JDBC-URL} or {@link dev.parley.postgres.PostgresStore#open}.
 */
@NullMarked
package dev.parley.postgres;

import org.jspecify.annotations.NullMarked;
