package dev.parley.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.NewSession;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Found by a reading of the Javadoc: {@code Message.Builder.metadata(Map)} (and the records' constructors) kept a null
 * key or value that {@code putMetadata} refuses; a codec then failed on it at write time, far from where it came in.
 */
class MetadataTest {
    @Test
    void nullKeyOrValue_isRefusedWhereTheMetadataComesIn_naming_it() {
        Map<String, RawJson> nullValue = new HashMap<>();
        nullValue.put("source", null);
        Map<String, RawJson> nullKey = new HashMap<>();
        nullKey.put(null, RawJson.of("1"));

        assertThatThrownBy(() -> Message.builder(Role.USER).plainText("hi").metadata(nullValue).build())
                .isInstanceOf(NullPointerException.class).hasMessage("metadata has a null value for 'source'");
        assertThatThrownBy(() -> Message.builder(Role.USER).plainText("hi").metadata(nullKey).build())
                .isInstanceOf(NullPointerException.class).hasMessage("metadata has a null key");
        assertThatThrownBy(() -> new NewSession(new SessionId("s1"), null, null, nullValue))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("'source'");
    }

    @Test
    void metadata_isCopiedInOrder_andUnmodifiable() {
        Map<String, RawJson> given = new LinkedHashMap<>();
        given.put("b", RawJson.of("2"));
        given.put("a", RawJson.of("1"));
        Message m = Message.builder(Role.USER).plainText("hi").metadata(given).build();
        given.put("c", RawJson.of("3"));

        assertThat(m.metadata().keySet()).containsExactly("b", "a");
        assertThatThrownBy(() -> m.metadata().put("d", RawJson.NULL)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(Message.user("hi").metadata()).isEmpty();
    }
}
