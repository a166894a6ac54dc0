/**
 * File stores. {@link dev.parley.files.JsonlMessageLog} keeps each session in {@code DIR/<session-id>.jsonl}:
 * human-readable, greppable, one durable line per entry. Open it with the URI {@code jsonl:DIR}.
 */
@NullMarked
package dev.parley.files;

import org.jspecify.annotations.NullMarked;
