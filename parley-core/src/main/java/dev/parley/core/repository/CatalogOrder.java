package dev.parley.core.repository;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The catalog order of session records: pinned first, then {@code updatedAt} descending, then id ascending by UTF-8
 * bytes — which for valid text is code-point order, not {@link String#compareTo} (UTF-16 order puts
 * {@code "😀"} before {@code "\uE000"}; UTF-8 order, like PostgreSQL's {@code collate "C"}, puts it after).
 */
public final class CatalogOrder {
    private CatalogOrder() {}

    /**
     * Compares two strings by their code points (equivalently, by their UTF-8 bytes).
     *
     * @param a the first string
     * @param b the second string
     * @return negative, zero or positive as {@code a} sorts before, equal to or after {@code b}
     */
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

    /**
     * The order of two positions: negative when the first comes first.
     *
     * @param pinnedA whether the first is pinned
     * @param updatedA the first's activity time
     * @param idA the first's id
     * @param pinnedB whether the second is pinned
     * @param updatedB the second's activity time
     * @param idB the second's id
     * @return negative when the first comes first, positive when the second does, 0 for the same position
     */
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
        /**
         * @param id the entry's id
         * @param pinned whether it is pinned
         * @param updatedAt its activity time
         * @throws NullPointerException if {@code id} or {@code updatedAt} is null
         */
        public Position {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(updatedAt, "updatedAt");
        }

        /**
         * The position of an entry.
         *
         * @param e the entry
         * @return its id, pinned flag and activity time
         */
        public static Position of(CatalogEntry e) {
            return new Position(e.id(), e.pinned(), e.updatedAt());
        }

        /**
         * Whether the entry comes strictly after this position.
         *
         * @param e the entry
         * @return true if {@code e} sorts after this position in catalog order
         */
        public boolean isBefore(CatalogEntry e) {
            return compare(pinned, updatedAt, id, e.pinned(), e.updatedAt(), e.id()) < 0;
        }
    }

    private static final String CURSOR_VERSION = "r1";

    /**
     * The cursor text of a position: opaque base64url (no padding) text that only {@link #decode} reads. The same
     * on every backend.
     *
     * @param p the position
     * @return the cursor text; the activity time is kept to the millisecond
     */
    public static String encode(Position p) {
        String plain = CURSOR_VERSION + "|" + (p.pinned() ? 1 : 0) + "|" + p.updatedAt().toEpochMilli() + "|" + p.id();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The position a cursor encodes, or null for null.
     *
     * @param cursor the cursor text, or null
     * @return the position, or null when {@code cursor} is null
     * @throws InvalidCursorException if the text is not a cursor {@link #encode} wrote
     */
    public static @Nullable Position decode(@Nullable String cursor) {
        if (cursor == null) {
            return null;
        }
        try {
            String plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = plain.split("\\|", 4);
            if (parts.length != 4 || !parts[0].equals(CURSOR_VERSION) || !(parts[1].equals("0") || parts[1].equals("1"))
                    || parts[3].isEmpty() || !encode(new Position(parts[3], parts[1].equals("1"),
                            Instant.ofEpochMilli(Long.parseLong(parts[2])))).equals(cursor)) {
                throw new InvalidCursorException("not a cursor this version wrote", null);
            }
            return new Position(parts[3], parts[1].equals("1"), Instant.ofEpochMilli(Long.parseLong(parts[2])));
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            throw new InvalidCursorException("not a cursor this version wrote", e);
        }
    }

    /**
     * One page of a catalog held whole in memory (the memory and file backends): sorts {@code entries} in catalog
     * order, applies the query's filters, then its cursor, and cuts at its limit; the next cursor is set only when
     * more entries match.
     *
     * @param entries every entry of the scope, in any order (the list is not changed)
     * @param query the filters, the cursor and the limit
     * @return at most {@code query.limit()} entries in catalog order, with the cursor of the next page (the position of
     *     the page's last entry), or null when no more entries match
     * @throws InvalidCursorException if the query's cursor is damaged
     */
    public static CatalogPage page(List<CatalogEntry> entries, CatalogQuery query) {
        Position after = decode(query.cursor());
        List<CatalogEntry> sorted = new ArrayList<>(entries);
        sorted.sort(ENTRIES);
        List<CatalogEntry> page = new ArrayList<>();
        for (CatalogEntry e : sorted) {
            if (!query.matches(e) || after != null && !after.isBefore(e)) {
                continue;
            }
            if (page.size() == query.limit()) {
                return new CatalogPage(page, encode(Position.of(page.get(page.size() - 1))));
            }
            page.add(e);
        }
        return new CatalogPage(page, null);
    }
}
