package dev.parley.formats;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Content digests for the origin of sources that carry no id of their own. */
final class Hashing {
    private Hashing() {}

    static String sha256(List<JsonLines.Line> lines) {
        MessageDigest digest = digest();
        for (JsonLines.Line l : lines) {
            digest.update(Json.write(l.node()).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    static String sha256(JsonNode node) {
        return HexFormat.of().formatHex(digest().digest(Json.write(node).getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
