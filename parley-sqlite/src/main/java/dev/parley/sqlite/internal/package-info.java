/** What the SQLite backend contributes to the conformance kit. Not API. */
@NullMarked
package dev.parley.sqlite.internal;

import org.jspecify.annotations.NullMarked;
