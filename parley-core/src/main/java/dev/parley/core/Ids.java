package dev.parley.core;

/**
 * The one validation rule for every identifier Parley stores (sessions, agents, entries), applied at the
 * boundary and identical on every backend.
 *
 * <p>An id is 1 to {@value #MAX_LENGTH} characters from {@code [A-Za-z0-9._-]}, and starts with a letter, a digit
 * or {@code _}. So an id can never be {@code .} or {@code ..}, never start with {@code -} (an option on a command
 * line), never contain a path separator, and is safe as a file name or a URL path segment on every platform.
 * UUIDs, ULIDs, pi's 8-hex entry ids and Claude Code's ids all satisfy it.
 */
public final class Ids {
    /** The longest id accepted, in characters. */
    public static final int MAX_LENGTH = 128;

    private Ids() {}

    /**
     * Whether {@code value} is a valid id. Never throws.
     *
     * @param value the text to check; null answers false
     * @return true if it follows the rule of this class
     */
    public static boolean isValid(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        // [A-Za-z0-9_][A-Za-z0-9._-]*, by hand: every stored entry's ids pass here on each load
        char first = value.charAt(0);
        if (!isLetterOrDigit(first) && first != '_') {
            return false;
        }
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!isLetterOrDigit(c) && c != '.' && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code c} is an ASCII letter or digit. */
    private static boolean isLetterOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /**
     * Returns {@code value} if it is a valid id.
     *
     * @param kind what the id identifies ("session id", "agent id", …), used in the message
     * @param value the text to check; null is reported as a missing id
     * @return {@code value} itself
     * @throws InvalidInputException naming the kind and the (abbreviated) value if it is not valid
     */
    public static String requireValid(String kind, String value) {
        if (value == null) {
            throw new InvalidInputException(kind + " is missing");
        }
        if (!isValid(value)) {
            String reason = value.isEmpty() ? "it is empty"
                    : value.length() > MAX_LENGTH ? "it is " + value.length() + " characters long (at most " + MAX_LENGTH + ")"
                    : "only letters, digits, '.', '_' and '-' are allowed, and it must start with a letter, digit or '_'";
            throw new InvalidInputException("invalid " + kind + " '" + abbreviate(value) + "': " + reason);
        }
        return value;
    }

    static String abbreviate(String value) {
        String shown = value.length() > 60 ? value.substring(0, 57) + "..." : value;
        StringBuilder out = new StringBuilder(shown.length());
        shown.codePoints().forEach(cp -> {
            if (cp < 0x20 || cp == 0x7f) {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04x", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.toString();
    }
}
