package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import dev.parley.core.store.StoreUri;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings' ranges, checked where settings are made, whichever way they are made. */
class RemoteSettingsTest {
    static final URI SERVER = URI.create("http://127.0.0.1:8420");
    static final Path JOURNAL = Path.of("journal.jsonl");

    static RemoteSettings settings(URI server, Duration timeout, int failures, int window, Duration open,
                                   Duration replay) {
        return new RemoteSettings(server, timeout, null, "sqlite:fallback.db", JOURNAL, failures, window, open, replay);
    }

    /**
     * Found by a reading of the Javadoc: the constructor checked only the body limit, so settings made without a URI
     * (a zero timeout, a window of no calls) were accepted and failed later, inside the HTTP client or the breaker.
     */
    @Test
    void constructor_refusesEveryPartOutOfItsRange_namingTheUriParameter() {
        Duration second = Duration.ofSeconds(1);
        assertThatThrownBy(() -> settings(SERVER, Duration.ZERO, 50, 10, second, second))
                .isInstanceOf(InvalidInputException.class).hasMessage("parley.timeout must be from 1 to 600000 ms, got 0");
        assertThatThrownBy(() -> settings(SERVER, second, 0, 10, second, second))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("parley.breaker.failures must be");
        assertThatThrownBy(() -> settings(SERVER, second, 50, 0, second, second))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("parley.breaker.window must be");
        assertThatThrownBy(() -> settings(SERVER, second, 50, 10, Duration.ofDays(365), second))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("parley.breaker.open must be");
        assertThatThrownBy(() -> settings(SERVER, second, 50, 10, second, Duration.ofMillis(9)))
                .isInstanceOf(InvalidInputException.class).hasMessage("parley.replay must be from 10 to 3600000 ms, got 9");
        assertThatThrownBy(() -> settings(SERVER, Duration.ofSeconds(Long.MAX_VALUE), 50, 10, second, second))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("parley.timeout must be");
        // found by a review: Duration.abs() overflowed here, an ArithmeticException instead of the range's error
        assertThatThrownBy(() -> settings(SERVER, Duration.ofSeconds(Long.MIN_VALUE), 50, 10, second, second))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("parley.timeout must be");
        assertThatThrownBy(() -> settings(URI.create("ftp://127.0.0.1"), second, 50, 10, second, second))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("needs an http(s) URL");
        assertThatThrownBy(() -> new RemoteSettings(SERVER, second, null, "remote:http://other", JOURNAL, 50, 10,
                second, second)).isInstanceOf(InvalidInputException.class).hasMessageContaining("must be a local store");
        assertThat(settings(SERVER, Duration.ofMillis(1), 100, 10_000, Duration.ofMillis(1), Duration.ofMillis(10))
                .timeout()).isEqualTo(Duration.ofMillis(1));
    }

    /** Found by a review: a value out of range was named as clamped to an int, or as an ISO duration, not as typed. */
    @Test
    void from_checksTheSameRanges_namingTheValueAsTyped() {
        assertThatThrownBy(() -> RemoteSettings.from(StoreUri.parse("remote:http://h:1?parley.timeout=0"), Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessage("parley.timeout must be from 1 to 600000 ms, got 0");
        assertThatThrownBy(() -> RemoteSettings.from(StoreUri.parse("remote:http://h:1?parley.breaker.window=4294967297"),
                Map.of())).isInstanceOf(InvalidInputException.class)
                .hasMessage("parley.breaker.window must be from 1 to 10000 calls, got 4294967297");
        assertThatThrownBy(() -> RemoteSettings.from(StoreUri.parse("remote:http://h:1?parley.timeout=1000000000000000"),
                Map.of())).isInstanceOf(InvalidInputException.class)
                .hasMessage("parley.timeout must be from 1 to 600000 ms, got 1000000000000000");
        assertThatThrownBy(() -> RemoteSettings.from(StoreUri.parse("remote:http://h:1?parley.replay=soon"), Map.of()))
                .isInstanceOf(InvalidInputException.class).hasMessage("parley.replay must be an integer, not 'soon'");
        RemoteSettings defaults = RemoteSettings.from(StoreUri.parse("remote:http://h:1/"), Map.of());
        assertThat(defaults.server()).isEqualTo(URI.create("http://h:1"));
        assertThat(defaults.timeout()).isEqualTo(RemoteSettings.DEFAULT_TIMEOUT);
        assertThat(defaults.replayInterval()).isEqualTo(Duration.ofSeconds(1));
    }
}
