package dev.parley.json.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.InvalidCursorException;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Catalog cursors: base64url (no padding) of the JSON {@code {"id":…,"pinned":…,"updatedAt":…}} of the last listed
 * entry, decoded strictly both ways — any decoding, JSON or shape failure is an {@link InvalidCursorException}.
 */
public final class CatalogCursorCodec {
    private static final Set<String> KEYS = Set.of("id", "pinned", "updatedAt");

    private CatalogCursorCodec() {}

    /** The cursor text of a position. */
    public static String encode(CatalogOrder.Position p) {
        ObjectNode o = Json.object();
        o.put("id", p.id());
        o.put("pinned", p.pinned());
        o.put("updatedAt", Instants.format(p.updatedAt()));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.write(o).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The position a cursor encodes, or null for null.
     *
     * @throws InvalidCursorException if the text is not a cursor
     */
    public static CatalogOrder.@Nullable Position decode(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(cursor);
            JsonNode node = Json.parse(new String(bytes, StandardCharsets.UTF_8));
            if (!node.isObject() || node.size() != 3) {
                throw new InvalidCursorException("not a cursor object", null);
            }
            Iterator<String> names = node.fieldNames();
            while (names.hasNext()) {
                if (!KEYS.contains(names.next())) {
                    throw new InvalidCursorException("unexpected field", null);
                }
            }
            JsonNode id = node.get("id");
            JsonNode pinned = node.get("pinned");
            JsonNode updated = node.get("updatedAt");
            if (!id.isTextual() || id.textValue().isEmpty() || !pinned.isBoolean() || !updated.isTextual()) {
                throw new InvalidCursorException("wrong field types", null);
            }
            Instant at = Instants.parseOrNull(updated.textValue());
            if (at == null || !Instants.format(at).equals(updated.textValue())) {
                throw new InvalidCursorException("updatedAt is not a fixed-millisecond instant", null);
            }
            return new CatalogOrder.Position(id.textValue(), pinned.booleanValue(), at);
        } catch (IllegalArgumentException | JsonProcessingException e) {
            throw new InvalidCursorException("not base64url JSON", e);
        }
    }

    /**
     * One page of a catalog held whole in memory (the memory and file backends): sorts {@code entries} in catalog
     * order, applies the query's filters, then its cursor, and cuts at its limit; the next cursor is set only when
     * more entries match.
     *
     * @param entries every entry of the scope, in any order (the list is not changed)
     * @throws dev.parley.core.repository.InvalidCursorException if the query's cursor is damaged
     */
    public static CatalogPage page(List<CatalogEntry> entries,
                                                              CatalogQuery query) {
        CatalogOrder.Position after = decode(query.cursor());
        List<CatalogEntry> sorted = new ArrayList<>(entries);
        sorted.sort(CatalogOrder.ENTRIES);
        List<CatalogEntry> page = new ArrayList<>();
        for (CatalogEntry e : sorted) {
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
}
