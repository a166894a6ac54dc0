package dev.parley.core.repository;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of the catalog.
 *
 * @param items the entries, in catalog order, copied
 * @param nextCursor the cursor of the next page — present only when more entries exist — or null
 */
public record CatalogPage(List<CatalogEntry> items, @Nullable String nextCursor) {
    /**
     * Copies {@code items} into an unmodifiable list.
     *
     * @param items the entries, in catalog order
     * @param nextCursor the cursor of the next page, or null
     * @throws NullPointerException if {@code items} is null or holds a null
     */
    public CatalogPage {
        items = List.copyOf(items);
    }
}
