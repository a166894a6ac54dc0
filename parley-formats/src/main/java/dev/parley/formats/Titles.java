package dev.parley.formats;

/** Catalog titles made from the first user prompt. */
final class Titles {
    static final int MAX = 80;

    private Titles() {}

    /** The first non-blank line of the text, whitespace collapsed, at most {@value #MAX} characters. */
    static String of(String text) {
        String line = text.strip().lines().filter(l -> !l.isBlank()).findFirst().orElse("").strip()
                .replaceAll("\\s+", " ");
        return line.length() <= MAX ? line : line.substring(0, MAX - 1) + "…";
    }
}
