package dev.parley.server.browser;

/**
 * Makes stored text safe to show and honest about what it holds: control characters (NUL, the escape that starts a
 * terminal colour sequence, a bell…) become the visible Unicode control pictures ({@code ␀}, {@code ␛}, {@code ␇}),
 * never dropped, so a reader sees that they are there. Line feeds and tabs stay. HTML is not touched here: the
 * templates escape every string (jte's HTML content type).
 */
final class Visible {
    private Visible() {}

    /** The text with C0 controls (but line feed, tab and a CR before LF) and DEL replaced by their pictures. */
    public static String text(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String pic = null;
            if (c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n')) {
                pic = String.valueOf((char) (0x2400 + c));
            } else if (c == 0x7f) {
                pic = "\u2421";
            }
            if (pic != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                if (pic != null) {
                    out.append(pic);
                } else if (c != '\r') {
                    out.append(c);
                }
            }
        }
        return out == null ? s.replace("\r\n", "\n") : out.toString();
    }

    /** {@link #text} cut to {@code max} characters with an ellipsis, on one line: for titles and previews. */
    public static String line(String s, int max) {
        String one = text(s).replace('\n', ' ').replace('\t', ' ').strip();
        return one.length() <= max ? one : one.substring(0, max) + "\u2026";
    }
}
