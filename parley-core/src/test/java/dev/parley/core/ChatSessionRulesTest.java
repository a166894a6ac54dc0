package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.Scopes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The record rules every backend relies on: ids and scopes that survive UTF-8, instants that sort as text. */
class ChatSessionRulesTest {
    @Test
    void idsAndScopesMustSurviveUtf8() {
        for (String bad : new String[] {"", "a\u0000b", "\uD800", "x\uDC00", "\uDC00\uD800"}) {
            assertThatThrownBy(() -> ChatSession.requireId(bad, "session id")).as(bad)
                    .isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> Scopes.require(bad)).as(bad).isInstanceOf(InvalidInputException.class);
        }
        assertThatThrownBy(() -> ArchiveRecord.draft("\uD800", null, 0, Instant.EPOCH, null))
                .isInstanceOf(InvalidInputException.class);
        assertThat(ChatSession.requireId("😀 \uE000 ok", "session id")).isEqualTo("😀 \uE000 ok");
        assertThat(Scopes.require("x".repeat(128))).hasSize(128);
        assertThatThrownBy(() -> Scopes.require("x".repeat(129))).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void instantsLieInFourDigitYearsAndKeepMilliseconds() {
        assertThatThrownBy(() -> ChatSession.builder("s", Instant.parse("+10000-01-01T00:00:00Z")).build())
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("0000 to 9999");
        assertThatThrownBy(() -> ChatSession.builder("s", Instant.parse("-0001-12-31T00:00:00Z")).build())
                .isInstanceOf(InvalidInputException.class);
        ChatSession s = ChatSession.builder("s", Instant.parse("9999-12-31T23:59:59.999999Z")).build();
        assertThat(s.updatedAt()).isEqualTo(Instant.parse("9999-12-31T23:59:59.999Z"));
    }

    @Test
    void aPointReleaseCountsAsTheNextVersion() {
        assertThat(dev.parley.core.store.SchemaVersions.newest(java.util.List.of("1", "2"))).isEqualTo(2);
        assertThat(dev.parley.core.store.SchemaVersions.newest(java.util.List.of("1", "2.0", "2.1"))).isEqualTo(3);
        assertThat(dev.parley.core.store.SchemaVersions.newest(java.util.List.of("<< baseline >>", "99999999999")))
                .isZero();
    }

    @Test
    void optionalLists_keepNullForAbsent_andCopyWhatIsGiven() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        ChatSession absent = ChatSession.builder("s", t).build();
        assertThat(absent.archives()).isNull();
        assertThat(absent.archivesOrEmpty()).isEmpty();
        assertThat(absent.toBuilder().build()).isEqualTo(absent);
        assertThat(CatalogEntry.of(absent, 1).archives()).isNull();

        List<ArchiveRecord> given = new ArrayList<>();
        ChatSession empty = ChatSession.builder("s", t).archives(given).build();
        given.add(new ArchiveRecord("a", "p", "sp", null, 0, t, null));
        assertThat(empty.archives()).isEmpty();
        assertThat(empty).isNotEqualTo(absent);
        assertThatThrownBy(() -> empty.archives().add(given.get(0))).isInstanceOf(UnsupportedOperationException.class);
        assertThat(CatalogEntry.of(empty, 1).archives()).isEmpty();

        assertThat(ChatMessage.of("assistant", "").toolCalls()).isNull();
        assertThat(ChatMessage.of("assistant", "").toolCallsOrEmpty()).isEmpty();
        ChatMessage noCalls = new ChatMessage("assistant", "", List.of(), null, null);
        assertThat(noCalls.toolCalls()).isEmpty();
        assertThat(noCalls).isNotEqualTo(ChatMessage.of("assistant", ""));
    }
}
