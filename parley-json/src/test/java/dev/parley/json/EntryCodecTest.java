package dev.parley.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.EntryLimits;
import dev.parley.core.log.EntryTooLargeException;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.SourceRecord;
import dev.parley.core.model.Usage;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryCodecTest {
    static Entry entry(long seq, EntryPayload payload) {
        return new Entry(seq, new EntryId("e" + seq), seq > 1 ? new EntryId("e" + (seq - 1)) : null, AgentId.MAIN,
                Instant.parse("2025-12-08T22:41:05.306Z"), payload, null);
    }

    @Test
    void decodeRow_takesTheSeqOfTheRowsColumn_evenOverASeqInTheBody() {
        Entry stored = entry(7, Message.user("hello"));
        String body = EntryCodec.encodeRow(stored);
        assertThat(body).doesNotContain("\"seq\"");
        assertThat(EntryCodec.decodeRow(body, 7, "e7", "row 7")).isEqualTo(stored);
        String withSeq = "{\"seq\":999," + body.substring(1);
        assertThat(EntryCodec.decodeRow(withSeq, 7, "e7", "row 7").seq()).isEqualTo(7);
    }

    @Test
    void decodeRow_ofABodyNamingAnotherId_isACorruptRecordNamingTheRow() {
        String body = EntryCodec.encodeRow(entry(7, Message.user("hello")));
        assertThatThrownBy(() -> EntryCodec.decodeRow(body, 7, "e8", "row 7"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("row 7").hasMessageContaining("e8");
        assertThatThrownBy(() -> EntryCodec.decodeRow("[1]", 7, "e7", "row 7"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("row 7");
    }

    @Test
    void encodeThenDecode_givesTheSameEntry_forEveryKindAndBlock() {
        Message rich = Message.builder(Role.ASSISTANT)
                .add(new ContentBlock.Thinking("", "c2ln"))
                .add(new ContentBlock.Text(""))
                .add(new ContentBlock.ToolCall("call_1", "grep", RawJson.of("{ \"q\" : 1 }")))
                .add(new ContentBlock.ToolCall(null, "noid", RawJson.of("{\"$json\":\"x\"}")))
                .add(new ContentBlock.ToolResult("call_0", "read", List.of(new ContentBlock.Image("image/png", "AAAA", null)),
                        true, false))
                .add(new ContentBlock.File(null, null, "https://x.invalid/a.pdf", "a.pdf"))
                .add(new ContentBlock.ProviderItem("fallback", RawJson.of("{\"type\":\"fallback\",\"n\":1.50}")))
                .provider("anthropic").model("m").usage(new Usage(1, 2, 3, 4, 5, new BigDecimal("0.0100")))
                .stopReason("toolUse").errorMessage("boom").createdAt(Instant.parse("2025-01-01T00:00:00Z"))
                .responseId("msg_1").putMetadata("k", RawJson.of("[null,\"😀\\u0000\"]")).build();
        List<EntryPayload> payloads = List.of(rich, Message.user("plain \u0000 text"),
                new EntryPayload.Compaction(null, null, null), new EntryPayload.Compaction("s", new EntryId("e1"), 10L),
                new EntryPayload.ModelChange(null, "gpt"), new EntryPayload.ThinkingLevelChange("high"),
                new EntryPayload.Label(new EntryId("e1"), null), new EntryPayload.BranchSummary(null, "b"),
                new EntryPayload.SessionName(null), new EntryPayload.Custom("progress", RawJson.of("\"text\"")));
        long seq = 1;
        for (EntryPayload p : payloads) {
            Entry e = new Entry(seq, new EntryId("e" + seq), null, AgentId.MAIN, null, p,
                    new SourceRecord("pi", seq % 2 == 0 ? null : RawJson.of("{\"a\":1}")));
            assertThat(EntryCodec.decode(Json.write(EntryCodec.encode(e)), "test")).isEqualTo(e);
            seq++;
        }
    }

    /**
     * Issue 14, break 1: the reader's limits must be at least the append check's ({@link EntryLimits}), or an
     * acknowledged entry is unreadable. A metadata key over Jackson's default name limit (50,000 characters) was
     * stored and then failed every read of its session.
     */
    @Test
    void entriesAtEveryLimitOfTheAppendCheck_readBack() {
        String longest = "x".repeat(EntryLimits.MAX_TEXT_CHARS - 1 - Role.USER.name().length()); // the role counts
        String longKey = "k".repeat(60_000);
        int deep = EntryLimits.MAX_RAW_DEPTH - 2;
        RawJson deepest = RawJson.of("[".repeat(deep) + "]".repeat(deep));
        List<EntryPayload> payloads = List.of(
                Message.user(longest),
                Message.builder(Role.USER).plainText("m").putMetadata(longKey, RawJson.of("1")).build(),
                Message.assistant(List.of(new ContentBlock.ToolResult("c", null,
                        List.of(new ContentBlock.ToolCall("c", "deep", deepest)), false, false))),
                new EntryPayload.Custom("big", RawJson.of("{ \"not compact\": \"" + "y".repeat(1 << 20) + "\" }")));
        long seq = 1;
        for (EntryPayload p : payloads) {
            Entry e = entry(seq++, p);
            EntryLimits.check(new SessionId("s"), 0, e.toNewEntry());
            assertThat(EntryCodec.decode(Json.write(EntryCodec.encode(e)), "test")).isEqualTo(e);
        }
    }

    /**
     * Found by a Javadoc audit: a message's role, any text, was not counted by the append check, so a role longer
     * than the reader's string limit was acknowledged and then failed every read of its session.
     */
    @Test
    void aRoleOverTheTextLimit_isRefusedByTheAppendCheck() {
        Message longRole = Message.builder(new Role("r".repeat(EntryLimits.MAX_TEXT_CHARS + 1))).plainText("m").build();
        assertThatThrownBy(() -> EntryLimits.check(new SessionId("s"), 0, entry(1, longRole).toNewEntry()))
                .isInstanceOf(EntryTooLargeException.class);
    }

    /**
     * What an import compares ({@link Json#same} of these): raw values as the JSON they hold — key order and spacing
     * aside — but a number's scale, a string against a number, and a nested object that merely looks like the
     * {"$json": …} wrapper all count.
     */
    @Test
    void comparable_ignoresKeyOrderAndSpacingOfRawValues_butNotWhatTheySay() {
        java.util.function.BiPredicate<String, String> sameCall = (x, y) -> Json.same(call(x), call(y));
        assertThat(sameCall.test("{ \"a\": 1, \"b\": [2] }", "{\"b\":[2],\"a\":1}")).isTrue();
        assertThat(sameCall.test("{\"a\":1.0}", "{\"a\":1.00}")).isFalse();
        assertThat(sameCall.test("{\"a\":\"1\"}", "{\"a\":1}")).isFalse();
        assertThat(sameCall.test("{\"k\":{\"$json\":\"1\"}}", "{\"k\":1}")).isFalse();
        assertThat(Json.same(EntryCodec.comparable(new SourceRecord("pi", RawJson.of("{\"x\": 1,\"y\":2}"))),
                EntryCodec.comparable(new SourceRecord("pi", RawJson.of("{\"y\":2,\"x\":1}"))))).isTrue();
        assertThat(Json.same(EntryCodec.comparable(new SourceRecord("pi", RawJson.of("{\"x\":1}"))),
                EntryCodec.comparable(new SourceRecord("pi", RawJson.of("{\"x\":2}"))))).isFalse();
    }

    private static com.fasterxml.jackson.databind.JsonNode call(String arguments) {
        return EntryCodec.comparable(Message.assistant(List.of(new ContentBlock.ToolCall("c", "f",
                RawJson.of(arguments)))));
    }

    @Test
    void plainTextContent_isWrittenAsAString() {
        assertThat(Json.write(EntryCodec.encodeMessage(Message.user("hi"))))
                .isEqualTo("{\"role\":\"user\",\"content\":\"hi\"}");
    }

    @Test
    void decode_rejectsUnknownFields_namingWhere() {
        String text = "{\"seq\":1,\"id\":\"a\",\"parentId\":null,\"agent\":\"main\",\"kind\":\"message\","
                + "\"message\":{\"role\":\"user\",\"content\":\"x\",\"colour\":\"red\"}}";
        assertThatThrownBy(() -> EntryCodec.decode(text, "f.jsonl:3"))
                .isInstanceOf(CorruptRecordException.class)
                .hasMessageContaining("f.jsonl:3")
                .hasMessageContaining("colour");
    }

    @Test
    void decode_rejectsMissingFieldsAndInvalidIds() {
        assertThatThrownBy(() -> EntryCodec.decode("{\"seq\":1,\"id\":\"a\",\"agent\":\"main\",\"kind\":\"message\"}", "x"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("message");
        assertThatThrownBy(() -> EntryCodec.decode("{\"seq\":1,\"id\":\"../a\",\"agent\":\"main\",\"kind\":\"custom\","
                + "\"custom\":{\"customType\":\"t\",\"data\":1}}", "x"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("invalid entry id");
        assertThatThrownBy(() -> EntryCodec.decode("not json", "x:9"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("x:9");
    }

    @Test
    void instants_haveFixedMilliseconds() {
        assertThat(Instants.format(Instant.parse("2025-01-01T00:00:00Z"))).isEqualTo("2025-01-01T00:00:00.000Z");
        assertThat(Instants.format(Instant.parse("2025-01-01T00:00:00.123456Z"))).isEqualTo("2025-01-01T00:00:00.123Z");
    }
}
