/**
 * Parley's canonical JSON: the one encoding of the model that every text-based backend stores (SQLite bodies,
 * JSONL lines, PostgreSQL {@code json} columns) and that {@code parley export --format parley} writes.
 *
 * <p>Decoding is strict: an unknown key, a missing required field or a value of the wrong type is a
 * {@link dev.parley.core.CorruptRecordException} naming where. Encoding then decoding gives back an equal value,
 * which is what lets {@link dev.parley.json.JsonResidual source residuals} reproduce imported records exactly.
 */
@NullMarked
package dev.parley.json;

import org.jspecify.annotations.NullMarked;
