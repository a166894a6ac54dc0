/**
 * Opening stores from URIs, and the two stores every installation has: memory and null.
 *
 * <p>A store is named by one URI, the same in code, on the command line and in configuration:
 * {@code sqlite:PATH}, {@code jsonl:DIR}, {@code memory:}, {@code null:} (and {@code postgres:JDBC-URL},
 * {@code remote:URL} where those modules are present). Backends register a {@link
 * dev.parley.core.store.StoreProvider} through {@link java.util.ServiceLoader}.
 */
@NullMarked
package dev.parley.core.store;

import org.jspecify.annotations.NullMarked;
