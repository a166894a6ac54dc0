package dev.parley.postgres;

import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL's {@code text} cannot hold U+0000. Parley keeps every string exactly (SQLite and the file stores do), so
 * free text bound to a text column (titles, origins, workspace ids, summaries) goes through an injective escape:
 * U+E000 (a private-use character) becomes U+E000 U+E000 and U+0000 becomes U+E000 {@code 0}. Strings without either
 * character — nearly all — are stored unchanged, and equality survives the escape, so a filter on an escaped column
 * compares escaped values. JSON documents need no escape: their text spells NUL as {@code \u0000}, which the
 * {@code json} type keeps.
 */
final class PgText {
    static final char MARK = '\uE000';

    private PgText() {}

    /** The stored form of {@code s}. */
    static @Nullable String escape(@Nullable String s) {
        if (s == null || s.indexOf('\0') < 0 && s.indexOf(MARK) < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == MARK) {
                out.append(MARK).append(MARK);
            } else if (c == '\0') {
                out.append(MARK).append('0');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The string a stored form came from.
     *
     * @throws IllegalArgumentException if {@code stored} is not an escaped form (a lone or unknown escape)
     */
    static @Nullable String unescape(@Nullable String stored) {
        if (stored == null || stored.indexOf(MARK) < 0) {
            return stored;
        }
        StringBuilder out = new StringBuilder(stored.length());
        for (int i = 0; i < stored.length(); i++) {
            char c = stored.charAt(i);
            if (c != MARK) {
                out.append(c);
                continue;
            }
            char next = i + 1 < stored.length() ? stored.charAt(i + 1) : 'x';
            if (next == MARK) {
                out.append(MARK);
            } else if (next == '0') {
                out.append('\0');
            } else {
                throw new IllegalArgumentException("a stray escape mark at offset " + i);
            }
            i++;
        }
        return out.toString();
    }
}
