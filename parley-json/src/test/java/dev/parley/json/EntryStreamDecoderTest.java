package dev.parley.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.SourceRecord;
import dev.parley.core.model.Usage;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The one-pass decoder is a shortcut of the tree decoder: on every record it returns what the tree returns, or
 * declines (null). Checked on the codec's own samples and on many thousand records mutated from them.
 */
class EntryStreamDecoderTest {
    private static final Instant AT = Instant.parse("2025-12-08T22:41:05.306Z");

    static List<Entry> samples() {
        Message rich = Message.builder(Role.ASSISTANT)
                .add(new ContentBlock.Thinking("hmm", "c2ln"))
                .add(new ContentBlock.Text("text"))
                .add(new ContentBlock.ToolCall("call_1", "grep", RawJson.of("{ \"q\" : 1.50 }")))
                .add(new ContentBlock.ToolResult("call_0", "read", List.of(new ContentBlock.Text("out")), false, false))
                .provider("anthropic").model("m").usage(new Usage(1, 2, 3, 4, 5, new BigDecimal("0.0100")))
                .stopReason("toolUse").errorMessage("boom").createdAt(Instant.parse("2025-01-01T00:00:00Z"))
                .responseId("msg_1").putMetadata("k", RawJson.of("[null,\"😀\\u0000\"]")).build();
        List<Entry> out = new ArrayList<>();
        out.add(new Entry(1, new EntryId("a1"), null, AgentId.MAIN, AT, Message.user("plain \u0000 \"text\""), null));
        out.add(new Entry(2, new EntryId("a2"), new EntryId("a1"), new AgentId("worker-1"), null, rich,
                new SourceRecord("pi", RawJson.of("{\"a\":[1,2.0]}"))));
        out.add(new Entry(3, new EntryId("a3"), new EntryId("a2"), AgentId.MAIN, AT,
                Message.builder(Role.of("tool")).plainText("").build(), new SourceRecord("claude", null)));
        out.add(new Entry(4, new EntryId("a4"), new EntryId("a3"), AgentId.MAIN, AT,
                new EntryPayload.Compaction("s", new EntryId("a2"), 10L), null));
        out.add(new Entry(5, new EntryId("a5"), new EntryId("a4"), AgentId.MAIN, AT,
                new EntryPayload.Custom("progress", RawJson.of("\"text\"")), null));
        return out;
    }

    @Test
    void messageEntries_streamToTheTreesEntry_andOtherKindsAreLeftToTheTree() throws IOException {
        for (Entry e : samples()) {
            String text = Json.write(EntryCodec.encode(e));
            Entry streamed = EntryStreamDecoder.decodeRecord(parser(text), null);
            assertThat(EntryCodec.decode(Json.parse(text), "t")).isEqualTo(e);
            if (e.payload() instanceof Message) {
                assertThat(streamed).as(text).isEqualTo(e);
                assertThat(EntryStreamDecoder.decodeRow(parser(EntryCodec.encodeRow(e)), e.seq())).isEqualTo(e);
            } else {
                assertThat(streamed).as(text).isNull();
            }
        }
    }

    /**
     * Found by a review: a row's body is decoded with the row's seq, and the stream skipped the body's seq field
     * without reading it, so a value that the tree's parse refuses (a float beyond BigDecimal's exponent) was taken.
     */
    @Test
    void decodeRow_ofABodyWhoseSeqFieldTheParserRefuses_isACorruptRecord() {
        String body = "{\"seq\":1e9999999999,\"id\":\"a1\",\"agent\":\"main\",\"kind\":\"message\","
                + "\"message\":{\"role\":\"user\",\"content\":\"hi\"}}";
        assertThatThrownBy(() -> EntryCodec.decodeRow(body, 7, "a1", "row 7"))
                .isInstanceOf(CorruptRecordException.class).hasMessageContaining("row 7");
        String sound = body.replace("1e9999999999", "3");
        assertThat(EntryCodec.decodeRow(sound, 7, "a1", "row 7").seq()).isEqualTo(7);
    }

    @Test
    void anEnvelopesFields_areTheReadersAndAnyOtherFieldDeclines() {
        Entry e = samples().get(0);
        ObjectNode line = Json.object().put("type", "entry");
        line.setAll(EntryCodec.encode(e));
        byte[] bytes = Json.write(line).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        List<String> read = new ArrayList<>();
        EntryCodec.EnvelopeReader takesType = (name, p) -> name.equals("type") && read.add(p.getText());
        assertThat(EntryCodec.tryDecode(bytes, 0, bytes.length, takesType)).isEqualTo(e);
        assertThat(read).containsExactly("entry");
        assertThat(EntryCodec.tryDecode(bytes, 0, bytes.length, (name, p) -> false)).isNull();
    }

    /**
     * Records mutated from the samples — a field dropped, nulled, retyped, repeated or added, text cut or spliced —
     * are each decoded both ways: the one-pass decoder never accepts a record the tree refuses and never returns
     * another entry than the tree; and every message entry that the tree reads from a mutated record is taken by the
     * one-pass decoder once written in canonical form (the shortcut is not a shortcut that declines everything).
     */
    @Test
    void onMutatedRecords_theStreamNeverAcceptsWhatTheTreeRefuses_norDiffersFromIt() throws IOException {
        Random random = new Random(20261202);
        List<String> seeds = new ArrayList<>();
        for (Entry e : samples()) {
            seeds.add(Json.write(EntryCodec.encode(e)));
        }
        int accepted = 0;
        int declined = 0;
        for (int i = 0; i < 30_000; i++) {
            String text = mutate(seeds.get(random.nextInt(seeds.size())), random);
            boolean row = random.nextBoolean();
            Entry tree = treeDecode(text, row);
            Entry streamed = row ? EntryStreamDecoder.decodeRow(parser(text), 7)
                    : EntryStreamDecoder.decodeRecord(parser(text), null);
            if (streamed == null) {
                declined++;
            } else {
                accepted++;
                assertThat(tree).as("the tree refuses what the stream accepted: %s", text).isNotNull();
                assertThat(streamed).as(text).isEqualTo(tree);
            }
            if (tree != null && tree.payload() instanceof Message) {
                String canonical = Json.write(EntryCodec.encode(tree));
                assertThat(EntryStreamDecoder.decodeRecord(parser(canonical), null)).as(canonical).isEqualTo(tree);
            }
        }
        assertThat(accepted).isGreaterThan(1_000);
        assertThat(declined).isGreaterThan(1_000);
    }

    /** The tree's reading: an entry, or null where it throws. A row takes its seq from the row (7), not the body. */
    private static @Nullable Entry treeDecode(String text, boolean row) {
        try {
            JsonNode node = Json.parse(text);
            if (row && node.isObject()) {
                ((ObjectNode) node).put("seq", 7);
            }
            return EntryCodec.decode(node, "t");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static final String[] VALUES = {"null", "1", "1.5", "-3", "99999999999999999999", "true", "\"x\"", "\"\"",
        "{}", "[]", "\"2025-12-08T22:41:05.306Z\"", "\"user\"", "\"message\"", "\"compaction\"", "{\"a\":1}",
        "[{\"type\":\"text\",\"text\":\"t\"}]", "\"main\"", "\"../x\"", "\"text\"", "\"toolCall\"",
        "\"thinking\"", "0.0100", "1e400", "1e9999999999", "false", "-9223372036854775808"};
    private static final String[] KEYS = {"seq", "id", "parentId", "agent", "timestamp", "kind", "message", "source",
        "role", "content", "provider", "usage", "metadata", "createdAt", "compaction", "colour", "input", "output",
        "costUsd", "format", "type", "text", "signature", "name", "arguments", "model", "stopReason", "errorMessage",
        "responseId", "cacheRead", "cacheWrite", "reasoning", "residual", "more"};

    /** One to three random edits of the record's text or of its tree. */
    private static String mutate(String text, Random random) throws IOException {
        int edits = 1 + random.nextInt(3);
        for (int n = 0; n < edits; n++) {
            switch (random.nextInt(6)) {
                case 0 -> { // cut or splice characters
                    int at = random.nextInt(text.length());
                    text = random.nextBoolean() ? text.substring(0, at) + text.substring(at + 1)
                            : text.substring(0, at) + "{}[]\",:0 n"
                                    .charAt(random.nextInt(10)) + text.substring(at);
                }
                case 1 -> { // repeat a key, before or after its first place: the tree keeps the last value
                    String key = KEYS[random.nextInt(KEYS.length)];
                    int at = text.indexOf("\"" + key + "\":");
                    String repeat = "\"" + key + "\":" + VALUES[random.nextInt(VALUES.length)];
                    if (at > 0 && random.nextBoolean()) {
                        text = text.substring(0, at) + repeat + "," + text.substring(at);
                    } else if (at > 0) {
                        int close = text.indexOf('}', at);
                        text = text.substring(0, close) + "," + repeat + text.substring(close);
                    }
                }
                case 2 -> { // trailing text
                    text = text + (random.nextBoolean() ? " " : " {}");
                }
                default -> { // a field of some object set, removed or added
                    JsonNode root;
                    try {
                        root = Json.parse(text);
                    } catch (IOException e) {
                        continue;
                    }
                    List<ObjectNode> objects = new ArrayList<>();
                    collect(root, objects);
                    if (objects.isEmpty()) {
                        continue;
                    }
                    ObjectNode o = objects.get(random.nextInt(objects.size()));
                    String key = KEYS[random.nextInt(KEYS.length)];
                    if (random.nextInt(3) == 0) {
                        o.remove(key);
                    } else {
                        try {
                            o.set(key, Json.parse(VALUES[random.nextInt(VALUES.length)]));
                        } catch (IOException e) {
                            continue; // a value only text can hold (a number beyond BigDecimal): spliced by case 1
                        }
                    }
                    text = Json.write(root);
                }
            }
        }
        return text;
    }

    private static void collect(JsonNode node, List<ObjectNode> out) {
        if (node instanceof ObjectNode o) {
            out.add(o);
        }
        for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
            collect(it.next(), out);
        }
    }

    private static JsonParser parser(String text) throws IOException {
        return Json.mapper().getFactory().createParser(text);
    }
}
