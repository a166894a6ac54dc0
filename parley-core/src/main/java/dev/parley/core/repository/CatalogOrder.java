package dev.parley.core.repository;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * The catalog order of session records: pinned first, then {@code updatedAt} descending, then id ascending by UTF-8
 * bytes — which for valid text is code-point order, not {@link String#compareTo} (UTF-16 order puts
 * {@code "😀"} before {@code "\uE000"}; UTF-8 order, like PostgreSQL's {@code collate "C"}, puts it after).
 */
public final class CatalogOrder {
    private CatalogOrder() {}

    /** Compares two strings by their code points (equivalently, by their UTF-8 bytes). */
    public static int compareUtf8(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** The catalog order of entries. */
    public static final Comparator<CatalogEntry> ENTRIES = (x, y) -> compare(x.pinned(), x.updatedAt(), x.id(),
            y.pinned(), y.updatedAt(), y.id());

    /** The order of two positions: negative when the first comes first. */
    public static int compare(boolean pinnedA, Instant updatedA, String idA, boolean pinnedB, Instant updatedB,
                              String idB) {
        if (pinnedA != pinnedB) {
            return pinnedA ? -1 : 1;
        }
        int byTime = updatedB.compareTo(updatedA);
        if (byTime != 0) {
            return byTime;
        }
        return compareUtf8(idA, idB);
    }

    /**
     * A position in the catalog: what a cursor encodes (the last listed entry).
     *
     * @param id the entry's id
     * @param pinned whether it is pinned
     * @param updatedAt its activity time
     */
    public record Position(String id, boolean pinned, Instant updatedAt) {
        public Position {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(updatedAt, "updatedAt");
        }

        /** The position of an entry. */
        public static Position of(CatalogEntry e) {
            return new Position(e.id(), e.pinned(), e.updatedAt());
        }

        /** Whether the entry comes strictly after this position. */
        public boolean isBefore(CatalogEntry e) {
            return compare(pinned, updatedAt, id, e.pinned(), e.updatedAt(), e.id()) < 0;
        }
    }
}
