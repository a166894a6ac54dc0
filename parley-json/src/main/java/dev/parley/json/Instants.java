package dev.parley.json;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Instants as text: always {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'} in UTC, fixed width, so that text order is time
 * order. ({@link Instant#toString()} drops zero milliseconds, which breaks byte-order comparison.)
 *
 * <p>Every stored entry carries one, so both directions take a direct path for that fixed form (a session of 100,000
 * messages spent a fifth of its load in {@link Instant#parse}); any other text goes through {@code java.time}.
 * Stateless and thread-safe.
 */
public final class Instants {
    private static final DateTimeFormatter FIXED =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    /** The fixed form with its digits still to fill in. */
    private static final String SHAPE = "0000-00-00T00:00:00.000Z";
    private static final int FIXED_LENGTH = SHAPE.length();
    private static final int SECONDS_PER_DAY = 86_400;

    private Instants() {}

    /**
     * The fixed-millisecond text of the instant (finer precision is truncated).
     *
     * @param instant the instant
     * @return {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}, 24 characters for the years 0000 to 9999 (other years get a sign
     *     or a fifth digit)
     */
    public static String format(Instant instant) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
        if (t.getYear() < 0 || t.getYear() > 9999) {
            return FIXED.format(instant.truncatedTo(ChronoUnit.MILLIS)); // a sign or a fifth digit
        }
        char[] out = SHAPE.toCharArray();
        digits(out, 0, t.getYear(), 4);
        digits(out, 5, t.getMonthValue(), 2);
        digits(out, 8, t.getDayOfMonth(), 2);
        digits(out, 11, t.getHour(), 2);
        digits(out, 14, t.getMinute(), 2);
        digits(out, 17, t.getSecond(), 2);
        digits(out, 20, instant.getNano() / 1_000_000, 3);
        return new String(out);
    }

    /**
     * Parses an ISO-8601 instant (any precision, {@code Z} or an offset).
     *
     * @param text the text to parse
     * @return the instant, or null if the text is not an instant
     */
    public static @Nullable Instant parseOrNull(String text) {
        Instant fixed = parseFixed(text);
        if (fixed != null) {
            return fixed;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** The instant written in the fixed form, or null for any other text (which {@code java.time} then judges). */
    private static @Nullable Instant parseFixed(String text) {
        if (text.length() != FIXED_LENGTH || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || text.charAt(19) != '.'
                || text.charAt(23) != 'Z') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        int millis = number(text, 20, 3);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0
                || second > 59 || millis < 0) {
            return null; // not digits, or a leap second: java.time's rules decide
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            return null;
        }
        return Instant.ofEpochSecond(epochDay * SECONDS_PER_DAY + hour * 3_600L + minute * 60L + second,
                millis * 1_000_000L);
    }

    /** The decimal number of {@code length} ASCII digits at {@code from}, or -1 if any is not one. */
    private static int number(String text, int from, int length) {
        int value = 0;
        for (int i = from; i < from + length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** Writes {@code value} as {@code length} decimal digits, zero-padded, at {@code from}. */
    private static void digits(char[] out, int from, int value, int length) {
        for (int i = from + length - 1; i >= from; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
