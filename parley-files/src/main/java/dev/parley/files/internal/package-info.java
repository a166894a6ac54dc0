/**
 * The workings of the {@code jsonl:} store: the session files and their index, file locks, durable replacement, the
 * JSON file store of session records and archives, the on-disk layout of scopes, and the conformance kit's damage
 * injection. Not API: these types may change in any release; use {@link dev.parley.files.JsonlStore}.
 */
@NullMarked
package dev.parley.files.internal;

import org.jspecify.annotations.NullMarked;
