/**
 * The file store: {@link dev.parley.files.JsonlStore}, opened with the URI {@code jsonl:DIR} or
 * {@link dev.parley.files.JsonlStore#open}. It keeps each session of the message log in one JSONL file —
 * human-readable, greppable, one durable line per entry — and session records and archives as JSON files, every scope
 * apart. {@code dev.parley.files.internal} is not API.
 */
@NullMarked
package dev.parley.files;

import org.jspecify.annotations.NullMarked;
