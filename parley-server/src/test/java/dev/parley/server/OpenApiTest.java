package dev.parley.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.server.browser.Browser;
import dev.parley.server.internal.Access;
import dev.parley.server.internal.Api;
import dev.parley.server.internal.Routes;
import dev.parley.server.internal.Signals;
import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import java.time.Clock;
import java.util.Iterator;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The OpenAPI document the server serves describes exactly the API routes it registers. */
class OpenApiTest {

    @Test
    void openapi_documentsEveryRoute_andEveryDocumentedPathIsRouted() throws Exception {
        Set<String> routed = new TreeSet<>();
        try (Store store = MemoryStore.open()) {
            Api api = new Api(store, Clock.systemUTC(), dev.parley.core.IdGenerator.uuidV7(), new Signals());
            Javalin app = Javalin.create(c -> Routes.declare(c.routes, api,
                    new Access(t -> Optional.empty(), true, "*", 1024),
                    new Browser(store, t -> Optional.empty(), true, "*", new Signals(), 100), 100));
            for (var e : app.unsafe.internalRouter.allHttpHandlers()) {
                HandlerType m = e.endpoint.method;
                // the JSON API; the session browser's HTML pages are documented in docs/10-session-browser.md
                if (m.isHttpMethod() && (e.endpoint.path.startsWith("/v1/") || e.endpoint.path.equals("/openapi.json"))) {
                    routed.add(m.name() + " " + e.endpoint.path);
                }
            }
        }
        ParleyServer server = ParleyServer.start(MemoryStore.open(), ServerConfig.defaults().withPort(0));
        Set<String> documented = new TreeSet<>();
        try {
            Http.Answer a = Http.get(server, "/openapi.json", null);
            assertThat(a.status()).isEqualTo(200);
            JsonNode doc = a.json();
            assertThat(doc.path("openapi").asText()).startsWith("3.");
            Iterator<java.util.Map.Entry<String, JsonNode>> paths = doc.path("paths").fields();
            while (paths.hasNext()) {
                var p = paths.next();
                p.getValue().fieldNames().forEachRemaining(m -> documented.add(m.toUpperCase(Locale.ROOT) + " "
                        + p.getKey()));
            }
        } finally {
            server.close();
        }

        assertThat(routed).hasSizeGreaterThan(30);
        assertThat(documented).isEqualTo(routed);
    }
}
