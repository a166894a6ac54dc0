package dev.parley.files.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Ids as file-name segments: every byte of the id's UTF-8 outside {@code [A-Za-z0-9_-]} is percent-encoded (so
 * {@code .}, {@code ..}, separators and NUL can never appear), and a segment that would be too long for a file
 * system keeps a readable prefix and a SHA-256 of the whole id. Deterministic and injective in practice.
 */
final class PathSegments {
    /** Encoded segments longer than this are shortened (file names are at most 255 bytes). */
    static final int MAX = 180;

    private PathSegments() {}

    static String encode(String id) {
        StringBuilder out = new StringBuilder();
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        if (out.length() <= MAX) {
            return out.toString();
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return out.substring(0, 100) + "~" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
