/**
 * The embedded default store: one SQLite database file ({@code $PARLEY_HOME/parley.db} by default) in WAL mode
 * with {@code synchronous=FULL}, so every acknowledged write survives a crash of the process and a power loss.
 * Open it with the URI {@code sqlite:PATH} or {@link dev.parley.sqlite.SqliteStore#open}.
 */
@NullMarked
package dev.parley.sqlite;

import org.jspecify.annotations.NullMarked;
