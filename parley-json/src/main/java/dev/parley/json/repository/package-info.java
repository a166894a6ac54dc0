/**
 * JSON codecs of the session-record contract: the session record (strict for stores that must fail on a bad record,
 * tolerant for legacy local files), the catalog projection, the catalog cursor, and the archive manifest
 * (Heddle's {@code ChatSessionPersistenceCodec} and {@code ChatArchivePersistenceCodec}).
 */
@NullMarked
package dev.parley.json.repository;

import org.jspecify.annotations.NullMarked;
