/**
 * The JDBC store that Parley's SQLite and PostgreSQL backends share: one implementation of the message log, its
 * catalog, the session records and the archives over the same tables, and the {@link dev.parley.jdbc.SqlDialect}
 * each backend supplies for what differs between the databases. Users open {@code sqlite:} or {@code postgres:}
 * stores; this module is what they have in common. {@code dev.parley.jdbc.internal} is not API.
 */
@NullMarked
package dev.parley.jdbc;

import org.jspecify.annotations.NullMarked;
