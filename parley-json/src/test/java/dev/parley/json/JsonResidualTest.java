package dev.parley.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class JsonResidualTest {
    static final JsonNodeFactory F = JsonNodeFactory.withExactBigDecimals(true);

    static JsonNode parse(String json) throws Exception {
        return Json.parse(json);
    }

    @Test
    void diff_ofEqualValues_isNull() throws Exception {
        assertThat(JsonResidual.diff(parse("{\"a\":[1,{\"b\":null}]}"), parse("{\"a\":[1,{\"b\":null}]}"))).isNull();
    }

    @Test
    void diff_keepsUnknownFieldsVerbatim() throws Exception {
        JsonNode source = parse("{\"type\":\"user\",\"cwd\":\"/home/u\",\"version\":\"2.1.39\",\"message\":{\"role\":\"user\",\"x\":{\"$y\":1}}}");
        JsonNode encoded = parse("{\"type\":\"user\",\"message\":{\"role\":\"user\"}}");
        JsonNode residual = JsonResidual.diff(source, encoded);
        assertThat(Json.write(residual)).isEqualTo("{\"cwd\":\"/home/u\",\"version\":\"2.1.39\",\"message\":{\"x\":{\"$y\":1}}}");
        assertThat(Json.same(JsonResidual.apply(encoded, residual), source)).isTrue();
    }

    @Test
    void diff_recordsKeysTheSourceLacks_andEscapesDollarKeys() throws Exception {
        JsonNode source = parse("{\"$delete\":1,\"a\":2}");
        JsonNode encoded = parse("{\"a\":2,\"id\":\"x\"}");
        JsonNode residual = JsonResidual.diff(source, encoded);
        assertThat(Json.write(residual)).isEqualTo("{\"$$delete\":1,\"$delete\":[\"id\"]}");
        assertThat(Json.same(JsonResidual.apply(encoded, residual), source)).isTrue();
    }

    @Test
    void numbersCompareByValueAndScale() throws Exception {
        assertThat(Json.same(parse("1"), F.numberNode(1L))).isTrue();
        assertThat(Json.same(parse("1.0"), parse("1"))).isFalse();
        assertThat(Json.same(parse("1.10"), F.numberNode(new BigDecimal("1.10")))).isTrue();
        assertThat(Json.write(parse("0.013875000000000002"))).isEqualTo("0.013875000000000002");
    }

    /** apply(encoded, diff(source, encoded)) equals source, for random pairs; the seed is in the test name. */
    @RepeatedTest(300)
    void applyOfDiff_restoresTheSource(RepetitionInfo info) {
        long seed = 7919L * info.getCurrentRepetition();
        Random random = new Random(seed);
        JsonNode source = randomValue(random, 0);
        JsonNode encoded = random.nextInt(4) == 0 ? randomValue(random, 0) : mutate(source, random);
        JsonNode residual = JsonResidual.diff(source, encoded);
        JsonNode restored = JsonResidual.apply(encoded, residual == null ? null : roundTrip(residual));
        assertThat(Json.same(restored, source)).as("seed %d: source %s encoded %s residual %s", seed, source, encoded,
                residual).isTrue();
    }

    static JsonNode roundTrip(JsonNode node) {
        try {
            return Json.parse(Json.write(node));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static JsonNode randomValue(Random r, int depth) {
        int kind = depth > 3 ? r.nextInt(5) : r.nextInt(7);
        return switch (kind) {
            case 0 -> F.nullNode();
            case 1 -> F.booleanNode(r.nextBoolean());
            case 2 -> r.nextBoolean() ? F.numberNode(r.nextInt(100)) : F.numberNode(new BigDecimal(r.nextInt(1000)).movePointLeft(2));
            case 3, 4 -> F.textNode(List.of("", "a", "$x", "😀", "\u0000", "$replace", "$items", "$delete").get(r.nextInt(8)));
            case 5 -> {
                ArrayNode a = F.arrayNode();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    a.add(randomValue(r, depth + 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = F.objectNode();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    o.set(List.of("a", "b", "$delete", "$replace", "$items", "$$x", "type").get(r.nextInt(7)),
                            randomValue(r, depth + 1));
                }
                yield o;
            }
        };
    }

    static JsonNode mutate(JsonNode source, Random r) {
        JsonNode copy = source.deepCopy();
        if (copy.isObject()) {
            ObjectNode o = (ObjectNode) copy;
            if (r.nextBoolean() && o.size() > 0) {
                o.remove(o.fieldNames().next());
            }
            if (r.nextBoolean()) {
                o.set("extra", randomValue(r, 2));
            }
            o.fields().forEachRemaining(e -> {
                if (r.nextInt(3) == 0) {
                    e.setValue(mutate(e.getValue(), r));
                }
            });
            return o;
        }
        if (copy.isArray()) {
            ArrayNode a = (ArrayNode) copy;
            for (int i = 0; i < a.size(); i++) {
                if (r.nextInt(3) == 0) {
                    a.set(i, mutate(a.get(i), r));
                }
            }
            if (r.nextInt(4) == 0) {
                a.add(randomValue(r, 2));
            }
            return a;
        }
        return r.nextBoolean() ? copy : randomValue(r, 2);
    }

    private static final class List {
        @SafeVarargs
        static <T> java.util.List<T> of(T... items) {
            return java.util.List.of(items);
        }
    }

    /**
     * Found by a breaker: valid JSON beyond Parley's limits (a string over 64 Mi characters, nesting deeper than the
     * limit) was reported as "not valid JSON".
     */
    @Test
    void jsonBeyondTheLimits_isTooLargeToRead_notInvalid() {
        String deep = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);
        JsonProcessingException tooDeep = catchThrowableOfType(
                JsonProcessingException.class, () -> Json.parse(deep));
        assertThat(Json.unreadable(tooDeep)).startsWith("too large to read: ");
        JsonProcessingException broken = catchThrowableOfType(
                JsonProcessingException.class, () -> Json.parse("{\"a\":"));
        assertThat(Json.unreadable(broken)).startsWith("not valid JSON: ");
    }
}
