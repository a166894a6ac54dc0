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

    /**
     * Found by a newcomer's trial: the schemas of the log API were placeholders ({"type":"object"}), so the document
     * could not teach the API. Each published schema now validates what the server really writes (through the same
     * Wire encoders), and refuses a document with a field the wire does not have.
     */
    @Test
    void logApiSchemas_validateWhatTheWireWrites() throws Exception {
        String doc;
        try (var in = ParleyServer.class.getResourceAsStream("openapi.json")) {
            doc = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String base = "https://parley.invalid/openapi.json";
        com.networknt.schema.SchemaRegistry registry = com.networknt.schema.SchemaRegistry.withDefaultDialect(
                com.networknt.schema.SpecificationVersion.DRAFT_2020_12, b -> b.schemas(java.util.Map.of(base, doc)));
        java.util.function.Function<String, com.networknt.schema.Schema> schema = name -> registry.getSchema(
                com.networknt.schema.SchemaLocation.of(base + "#/components/schemas/" + name));

        dev.parley.core.model.Message rich = dev.parley.core.model.Message.builder(dev.parley.core.model.Role.ASSISTANT)
                .add(new dev.parley.core.model.ContentBlock.Thinking("hmm", "sig"))
                .add(new dev.parley.core.model.ContentBlock.ToolCall("c1", "read", dev.parley.core.RawJson.of(
                        "{\"path\":\"a\"}")))
                .add(new dev.parley.core.model.ContentBlock.ToolResult("c0", "ls", java.util.List.of(
                        new dev.parley.core.model.ContentBlock.Image("image/png", "AAAA", null)), true, false))
                .provider("anthropic").model("m").usage(dev.parley.core.model.Usage.of(3, 1))
                .stopReason("toolUse").putMetadata("k", dev.parley.core.RawJson.of("[1]")).build();
        java.time.Instant at = java.time.Instant.parse("2025-12-08T22:41:05.306Z");
        dev.parley.core.model.NewEntry first = dev.parley.core.model.NewEntry.of(new dev.parley.core.EntryId("e1"),
                null, at, dev.parley.core.model.Message.user("hello"));
        dev.parley.core.model.NewEntry second = dev.parley.core.model.NewEntry.of(new dev.parley.core.EntryId("e2"),
                new dev.parley.core.EntryId("e1"), at, rich);
        dev.parley.core.AgentId main = dev.parley.core.AgentId.MAIN;
        java.util.List<dev.parley.core.model.Entry> entries = java.util.List.of(
                new dev.parley.core.model.Entry(1, first.id(), null, main, at, first.payload(), null),
                new dev.parley.core.model.Entry(2, second.id(), first.id(), main, at, second.payload(),
                        new dev.parley.core.model.SourceRecord("claude-code", dev.parley.core.RawJson.of("{\"cwd\":\"/p\"}"))),
                new dev.parley.core.model.Entry(3, new dev.parley.core.EntryId("e3"), second.id(), main, at,
                        new dev.parley.core.model.EntryPayload.Compaction("s", first.id(), 10L), null));
        dev.parley.core.log.SessionInfo info = new dev.parley.core.log.SessionInfo(new dev.parley.core.SessionId("s1"),
                at, at, "a title", null, 3, 2, java.util.Map.of("k", dev.parley.core.RawJson.of("true")));
        java.util.Map<String, JsonNode> written = new java.util.LinkedHashMap<>();
        written.put("Entries", dev.parley.json.wire.Wire.encodeEntries(entries));
        written.put("AppendResult", dev.parley.json.wire.Wire.encodeAppendResult(
                new dev.parley.core.log.AppendResult(entries, 2)));
        written.put("Batch", dev.parley.json.wire.Wire.encodeBatch(main, java.util.List.of(first, second),
                dev.parley.core.model.Usage.of(5, 2), true, null));
        written.put("SessionInfo", dev.parley.json.wire.Wire.encodeSessionInfo(info));
        written.put("SessionPage", dev.parley.json.wire.Wire.encodeSessionPage(
                new dev.parley.core.log.SessionPage(java.util.List.of(info), "cursor")));
        written.put("SessionList", dev.parley.json.wire.Wire.encodeSessionList(java.util.List.of(info)));
        written.put("NewSession", dev.parley.json.wire.Wire.encodeNewSession(new dev.parley.core.log.NewSession(
                new dev.parley.core.SessionId("s2"), "t", "o", java.util.Map.of())));
        written.put("Usage", dev.parley.json.wire.Wire.encodeUsage(dev.parley.core.model.Usage.of(5, 2)));
        for (var e : written.entrySet()) {
            assertThat(schema.apply(e.getKey()).validate(e.getValue())).as(e.getKey() + ": " + e.getValue()).isEmpty();
        }
        com.fasterxml.jackson.databind.node.ObjectNode stray = written.get("SessionInfo").deepCopy();
        stray.put("colour", "red");
        assertThat(schema.apply("SessionInfo").validate(stray)).isNotEmpty();
        com.fasterxml.jackson.databind.node.ObjectNode missing = written.get("Entries").get("entries").get(0).deepCopy();
        missing.remove("kind");
        assertThat(schema.apply("Entry").validate(missing)).isNotEmpty();
    }
}
