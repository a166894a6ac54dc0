package dev.parley.cli;

/**
 * Makes untrusted text safe to print on a terminal: transcripts carry tool output with escape sequences, and an
 * operating-system command or a screen clear must not reach the user's terminal. Control characters other than
 * newline and tab are shown as their Unicode control pictures ({@code ␛} for ESC).
 */
final class Terminal {
    private static final java.util.regex.Pattern LINE_BREAKS =
            java.util.regex.Pattern.compile("[\\r\\n\\t\\u2028\\u2029\\u0085]");

    private Terminal() {}

    static String safe(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c >= 0x80 && c <= 0x9f;
            if (control) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(c == 0x7f ? '\u2421' : c < 0x20 ? (char) (0x2400 + c) : '\uFFFD');
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    /**
     * {@link #safe} on one line: line breaks and tabs become spaces first, so an entry's text cannot make up lines of
     * its own in a one-line-per-entry listing.
     */
    static String line(String text) {
        return safe(LINE_BREAKS.matcher(text).replaceAll(" "));
    }

    /** A word as a POSIX shell reads it back: unchanged when it is plain, else single-quoted. */
    static String shellQuote(String word) {
        if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:=@%+,-]+")) {
            return word;
        }
        return "'" + safe(word).replace("'", "'\\''") + "'";
    }

    /** A count with its noun in the right number: {@code count(1, "entry", "entries")} is {@code "1 entry"}. */
    static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
