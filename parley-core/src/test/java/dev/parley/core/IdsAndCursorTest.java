package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.log.CatalogCursor;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdsAndCursorTest {
    @Test
    void ids_rejectPathEscapesControlCharactersAndOverlongValues() {
        assertThat(Ids.isValid("4d5611e5-241a-462a-8d15-5122611a9569")).isTrue();
        assertThat(Ids.isValid("ses_stage0_small")).isTrue();
        for (String bad : new String[] {"", ".", "..", "../x", "a/b", "a\\b", "-rf", "a b", "a\u0000", "é", "x".repeat(129)}) {
            assertThat(Ids.isValid(bad)).as(bad).isFalse();
        }
        assertThatThrownBy(() -> new SessionId("../../etc/passwd"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("invalid session id");
        assertThatThrownBy(() -> new EntryId("x".repeat(200)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("200 characters");
    }

    @Test
    void ids_acceptExactlyTheCharactersOfTheDocumentedRule_firstAndLater() {
        java.util.regex.Pattern rule = java.util.regex.Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
        for (int code = 0; code <= Character.MAX_VALUE; code++) {
            char c = (char) code;
            String first = c + "a";
            String later = "a" + c;
            assertThat(Ids.isValid(first)).as("U+%04X first", (int) c).isEqualTo(rule.matcher(first).matches());
            assertThat(Ids.isValid(later)).as("U+%04X later", (int) c).isEqualTo(rule.matcher(later).matches());
        }
        assertThat(Ids.isValid("x".repeat(Ids.MAX_LENGTH))).isTrue();
    }

    @Test
    void cursor_roundTripsAndRejectsDamage() {
        CatalogCursor c = new CatalogCursor(Instant.ofEpochMilli(1_700_000_000_123L), new SessionId("abc"));
        assertThat(CatalogCursor.decode(c.encode())).isEqualTo(c);
        String damaged = c.encode().substring(0, 5) + "!" + c.encode().substring(6);
        assertThatThrownBy(() -> CatalogCursor.decode(damaged)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> CatalogCursor.decode("YWJj")).isInstanceOf(InvalidInputException.class);
        assertThat(CatalogCursor.decode(null)).isNull();
        // found by a breaker: the message carried Java's own words ("For input string: "abc"") for a bad time
        String badTime = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("c1|abc|x".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> CatalogCursor.decode(badTime)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("not a cursor").hasMessageNotContaining("input string");
    }
}
