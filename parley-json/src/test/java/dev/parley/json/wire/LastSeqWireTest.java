package dev.parley.json.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The answer of {@code GET …/last-seq}: a positive integer seq, or null when the agent has none. */
class LastSeqWireTest {
    @Test
    void aSeqAndItsAbsence_comeBackAsSent() {
        assertThat(Wire.decodeLastSeq(Wire.encodeLastSeq(OptionalLong.of(42)))).isEqualTo(OptionalLong.of(42));
        assertThat(Wire.decodeLastSeq(Wire.encodeLastSeq(OptionalLong.empty()))).isEmpty();
        assertThat(Wire.write(Wire.encodeLastSeq(OptionalLong.empty()))).isEqualTo("{\"seq\":null}");
    }

    @Test
    void anythingButAPositiveIntegerOrNull_isRefused() {
        for (String answer : new String[] {"{\"seq\":3.0}", "{\"seq\":1e2}", "{\"seq\":0}", "{\"seq\":-1}",
                "{\"seq\":\"7\"}", "{}", "[]", "{\"seq\":99999999999999999999}"}) {
            assertThatThrownBy(() -> Wire.decodeLastSeq(Wire.parse(answer, "test")))
                    .as(answer).isInstanceOf(InvalidInputException.class);
        }
    }
}
