package com.example.mapstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.InvalidCursorException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** What the kit leaves to the adapter: its own cursor format rejects what it did not write. */
class MapCursorTest {
    static String base64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDamagedCursorIsRejectedWithTheTypedError() {
        var sessions = new MapStorage().sessions("s");
        for (String cursor : new String[] {"%%%", base64("not a cursor"), base64("v1\nmaybe\n0\nx"),
                base64("v1\ntrue\nyesterday\nx")}) {
            InvalidCursorException e = assertThrows(InvalidCursorException.class,
                    () -> sessions.list(new CatalogQuery(cursor, 10, null, null)), cursor);
            assertEquals("INVALID_CHAT_SESSION_CURSOR", e.stableCode());
        }
    }
}
