package dev.parley.formats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.IoErrors;
import dev.parley.json.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a JSONL source file: one JSON object per line, blank lines ignored. A malformed line fails the whole file
 * with its line number, except a malformed <em>last</em> line without a final newline — a write cut short by a
 * crash — which is reported as a warning and left out.
 */
final class JsonLines {
    /** One parsed line. */
    record Line(int number, ObjectNode node) {}

    private JsonLines() {}

    static List<Line> read(Path file, List<ImportProblem> warnings) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new SourceFileException(file, 0, "cannot read: " + IoErrors.describe(e), e);
        }
        List<Line> out = new ArrayList<>();
        int start = bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
                && (bytes[2] & 0xff) == 0xBF ? 3 : 0; // a UTF-8 byte-order mark is tolerated
        int number = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            number++;
            boolean last = end >= bytes.length;
            String text;
            try {
                text = decode(bytes, start, end, file, number);
            } catch (SourceFileException e) {
                if (last) {
                    warnings.add(ImportProblem.warning(file, number,
                            "the last line is incomplete (cut inside a character) and was left out"));
                    break;
                }
                throw e;
            }
            start = end + 1;
            if (text.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = Json.parseSource(text);
            } catch (JsonProcessingException e) {
                // A last line beyond the limits is whole (it parsed that far): refused, not left out as cut short
                if (last && !Json.beyondLimits(e)) {
                    warnings.add(ImportProblem.warning(file, number,
                            "the last line is incomplete (a write cut short?) and was left out: " + Json.problem(e)));
                    break;
                }
                throw new SourceFileException(file, number, Json.unreadable(e), e);
            }
            if (!node.isObject()) {
                throw new SourceFileException(file, number, "expected a JSON object, found " + node.getNodeType());
            }
            checkDepth(node, file, number);
            out.add(new Line(number, (ObjectNode) node));
        }
        return out;
    }

    /** @throws SourceFileException if the value nests deeper than Parley stores */
    static void checkDepth(JsonNode node, Path file, int line) {
        int depth = Json.depth(node);
        if (depth > Json.MAX_SOURCE_DEPTH) {
            throw new SourceFileException(file, line, "nested " + depth + " levels deep (at most "
                    + Json.MAX_SOURCE_DEPTH + ")");
        }
    }

    private static String decode(byte[] bytes, int from, int to, Path file, int line) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, from, to - from))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new SourceFileException(file, line, "not valid UTF-8", e);
        }
    }
}
