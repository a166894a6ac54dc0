package dev.parley.json;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * Instants as text: always {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'} in UTC, fixed width, so that text order is time
 * order. ({@link Instant#toString()} drops zero milliseconds, which breaks byte-order comparison.)
 */
public final class Instants {
    private static final DateTimeFormatter FIXED =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Instants() {}

    /** The fixed-millisecond text of the instant (finer precision is truncated). */
    public static String format(Instant instant) {
        return FIXED.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * Parses an ISO-8601 instant (any precision, {@code Z} or an offset).
     *
     * @return the instant, or null if the text is not an instant
     */
    public static @Nullable Instant parseOrNull(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            try {
                return java.time.OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }
}
