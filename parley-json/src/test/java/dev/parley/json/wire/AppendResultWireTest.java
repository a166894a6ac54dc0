package dev.parley.json.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.log.AppendResult;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The answer of an append: the stored entries and how many of them this call wrote. A client decodes it from a server
 * it may not trust to be Parley's, so what it cannot take is an {@link InvalidInputException} naming the field.
 */
class AppendResultWireTest {
    static final Entry STORED = new Entry(7, new EntryId("e1"), null, AgentId.MAIN, Instant.parse("2026-12-07T10:00:00Z"),
            Message.user("hello"), null);

    @Test
    void anAppendResult_comesBackAsSent() {
        AppendResult sent = new AppendResult(List.of(STORED), 1);
        assertThat(Wire.decodeAppendResult(Wire.parse(Wire.write(Wire.encodeAppendResult(sent)), "test")))
                .isEqualTo(sent);
    }

    /** "entries" that was not an array decoded as no entries, so a broken answer passed for an empty append. */
    @Test
    void entriesThatAreNotAnArray_areRefused() {
        for (String entries : new String[] {"\"e1\"", "3", "true", "{}"}) {
            String answer = "{\"entries\":" + entries + ",\"written\":0}";
            assertThatThrownBy(() -> Wire.decodeAppendResult(Wire.parse(answer, "test"))).as(answer)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("field 'entries' is");
        }
    }

    /**
     * A written count outside 0…entries came out of AppendResult's constructor as an IllegalArgumentException, and one
     * beyond the int range was cut by a cast.
     */
    @Test
    void aWrittenCountOutsideTheEntries_isRefusedAsInvalidInput() {
        ObjectNode good = Wire.encodeAppendResult(new AppendResult(List.of(STORED), 1));
        for (long written : new long[] {-1, 2, 1L << 32, (1L << 32) + 1}) {
            ObjectNode answer = good.deepCopy().put("written", written);
            assertThatThrownBy(() -> Wire.decodeAppendResult(answer)).as("written " + written)
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("\"written\" is " + written);
        }
    }
}
