package dev.parley.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The direct paths for the fixed form agree with {@code java.time}, and leave every other text to it. */
class InstantsTest {
    private static final DateTimeFormatter JAVA_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    @Test
    void format_andParse_agreeWithJavaTime_overRandomInstantsOfFourDigitYears() {
        Random random = new Random(12);
        long from = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
        long to = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
        for (int i = 0; i < 100_000; i++) {
            Instant at = Instant.ofEpochMilli(from + (long) (random.nextDouble() * (to - from)));
            String text = Instants.format(at);
            assertThat(text).isEqualTo(JAVA_TIME.format(at));
            assertThat(Instants.parseOrNull(text)).isEqualTo(Instant.parse(text)).isEqualTo(at);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "2024-02-29T12:00:00.001Z",
        "2000-02-29T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "0000-01-01T00:00:00.000Z"})
    void edgesOfTheCalendar_parseAsJavaTimeDoes(String text) {
        assertThat(Instants.parseOrNull(text)).isEqualTo(Instant.parse(text));
        assertThat(Instants.format(Instant.parse(text))).isEqualTo(text);
    }

    @Test
    void instantsOutsideFourDigitYears_areFormattedByJavaTime() {
        Instant far = Instant.parse("+12025-06-01T10:00:00.250Z");
        assertThat(Instants.format(far)).isEqualTo(JAVA_TIME.format(far));
        Instant before = Instant.parse("-0001-06-01T10:00:00.250Z");
        assertThat(Instants.format(before)).isEqualTo(JAVA_TIME.format(before));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-02-30T00:00:00.000Z", "2025-13-01T00:00:00.000Z",
        "2025-01-01T00:60:00.000Z", "2025-0a-01T00:00:00.000Z", "2025-01-01 00:00:00.000Z", "2025-01-01T00:00:00.000X",
        "not an instant", ""})
    void textThatIsNoInstant_isNull(String text) {
        assertThat(Instants.parseOrNull(text)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-01-01T00:00:00Z", "2025-01-01T00:00:00.123456789Z", "2025-01-01T02:00:00.000+02:00",
        "2016-12-31T23:59:60.000Z", "2025-01-01T24:00:00.000Z", "2025-01-01t00:00:00.000z"})
    void otherIsoForms_areLeftToJavaTime(String text) {
        Instant expected = text.endsWith("Z") || text.endsWith("z") ? Instant.parse(text)
                : java.time.OffsetDateTime.parse(text).toInstant();
        assertThat(Instants.parseOrNull(text)).isEqualTo(expected);
    }
}
