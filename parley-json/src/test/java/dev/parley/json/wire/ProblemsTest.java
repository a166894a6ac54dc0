package dev.parley.json.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.InvalidInputException;
import dev.parley.core.log.EntryTooLargeException;
import org.junit.jupiter.api.Test;

class ProblemsTest {
    /** Issue 14, break 1: the server answers an entry too large to store with 413, and the client raises it again. */
    @Test
    void entryTooLarge_is413_andComesBackAsTheSameException() {
        ObjectNode problem = Problems.of(new EntryTooLargeException("entry e1 is too large"));
        assertThat(problem.get("status").asInt()).isEqualTo(413);
        assertThat(problem.get("errorCode").asText()).isEqualTo("INVALID_INPUT");
        assertThat(problem.get("code").asText()).isEqualTo("LOG_ENTRY_TOO_LARGE");
        assertThat(Problems.toException(problem, "POST /entries")).isInstanceOf(EntryTooLargeException.class)
                .hasMessage("entry e1 is too large");
    }

    @Test
    void otherInvalidInput_staysA400() {
        ObjectNode problem = Problems.of(new InvalidInputException("bad"));
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(Problems.toException(problem, "x")).isExactlyInstanceOf(InvalidInputException.class);
    }
}
