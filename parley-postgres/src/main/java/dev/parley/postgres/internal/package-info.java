/** What the PostgreSQL backend contributes to the conformance kit. Not API. */
@NullMarked
package dev.parley.postgres.internal;

import org.jspecify.annotations.NullMarked;
