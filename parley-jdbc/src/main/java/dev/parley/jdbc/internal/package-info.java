/** The shared JDBC implementation. Not API: it may change in any release. */
@NullMarked
package dev.parley.jdbc.internal;

import org.jspecify.annotations.NullMarked;
