package com.example.mapstore;

import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.InvalidCursorException;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link ChatSessionRepository} over one scope's map. Compare-and-swap is {@link ConcurrentMap#compute}, which runs
 * atomically per key; the catalog sorts a snapshot with Parley's {@link CatalogOrder}. The cursor is this adapter's
 * own: base64url of {@code v1 LF pinned LF updated-at-millis LF id}, decoded strictly.
 */
final class MapSessionRepository implements ChatSessionRepository {
    private final ConcurrentMap<String, MapStorage.Row> rows;

    MapSessionRepository(ConcurrentMap<String, MapStorage.Row> rows) {
        this.rows = rows;
    }

    @Override
    public CatalogPage list(CatalogQuery query) {
        CatalogOrder.Position after = query.cursor() == null ? null : decode(query.cursor());
        List<CatalogEntry> all = new ArrayList<>();
        for (MapStorage.Row row : rows.values()) {
            all.add(CatalogEntry.of(session(row), row.revision()));
        }
        all.sort(CatalogOrder.ENTRIES);
        List<CatalogEntry> page = new ArrayList<>();
        for (CatalogEntry e : all) {
            if (!query.matches(e) || after != null && !after.isBefore(e)) {
                continue;
            }
            if (page.size() == query.limit()) {
                return new CatalogPage(page, encode(CatalogOrder.Position.of(page.get(page.size() - 1))));
            }
            page.add(e);
        }
        return new CatalogPage(page, null);
    }

    @Override
    public Optional<StoredSession> read(String sessionId) {
        MapStorage.Row row = rows.get(sessionId);
        return row == null ? Optional.empty() : Optional.of(new StoredSession(session(row), row.revision()));
    }

    @Override
    public StoredSession create(ChatSession session) {
        MapStorage.Row row = new MapStorage.Row(session, 1, false);
        if (rows.putIfAbsent(session.id(), row) != null) {
            throw new SessionAlreadyExistsException(session.id());
        }
        return new StoredSession(session, 1);
    }

    @Override
    public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
        MapStorage.Row written = rows.computeIfPresent(session.id(), (id, current) -> {
            if (current.revision() != expectedRevision) {
                throw new RevisionConflictException(id, expectedRevision, current.revision());
            }
            return new MapStorage.Row(session, expectedRevision + 1, false);
        });
        return Optional.ofNullable(written).map(row -> new StoredSession(row.session(), row.revision()));
    }

    @Override
    public boolean delete(String sessionId, long expectedRevision) {
        AtomicBoolean deleted = new AtomicBoolean();
        rows.computeIfPresent(sessionId, (id, current) -> {
            if (current.revision() != expectedRevision) {
                throw new RevisionConflictException(id, expectedRevision, current.revision());
            }
            deleted.set(true);
            return null;
        });
        return deleted.get();
    }

    private static ChatSession session(MapStorage.Row row) {
        if (row.damaged()) {
            throw new StorageCorruptionException("map record " + row.session().id(), "the stored record is damaged",
                    null, false);
        }
        return row.session();
    }

    static String encode(CatalogOrder.Position p) {
        String text = "v1\n" + p.pinned() + "\n" + p.updatedAt().toEpochMilli() + "\n" + p.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static CatalogOrder.Position decode(String cursor) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = text.split("\n", 4);
            if (parts.length != 4 || !parts[0].equals("v1") || !parts[1].matches("true|false")) {
                throw new InvalidCursorException("not a cursor of this store", null);
            }
            return new CatalogOrder.Position(parts[3], Boolean.parseBoolean(parts[1]),
                    Instant.ofEpochMilli(Long.parseLong(parts[2])));
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException("not a cursor of this store: " + e.getMessage(), e);
        }
    }
}
