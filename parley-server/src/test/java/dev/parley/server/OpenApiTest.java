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
        Set<String> gets = new TreeSet<>();
        Set<String> heads = new TreeSet<>();
        try (Store store = MemoryStore.open()) {
            Api api = new Api(store, Clock.systemUTC(), dev.parley.core.IdGenerator.uuidV7(), new Signals());
            Javalin app = Javalin.create(c -> Routes.declare(c.routes, api,
                    new Access(t -> Optional.empty(), true, "*", 1024, "127.0.0.1"),
                    new Browser(store, Tokens.none(), true, "*", new Signals(), 100), 100));
            for (var e : app.unsafe.internalRouter.allHttpHandlers()) {
                HandlerType m = e.endpoint.method;
                (m == HandlerType.GET ? gets : m == HandlerType.HEAD ? heads : new TreeSet<String>())
                        .add(e.endpoint.path);
                // the JSON API; the session browser's HTML pages are documented in docs/10-session-browser.md
                // HEAD mirrors every GET route (Routes.get): the document lists the GETs
                if (m.isHttpMethod() && m != HandlerType.HEAD && (e.endpoint.path.startsWith("/v1/") || e.endpoint.path.equals("/openapi.json"))) {
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
        assertThat(heads).as("a HEAD route for every GET route").isEqualTo(gets);
        assertThat(documented).isEqualTo(routed);
    }

    /**
     * Found by a breaker: the document's entry kinds were the payloads' keys (modelChange, branchSummary…), which the
     * server refuses as kinds ("unknown entry kind 'modelChange'"); the kinds are the wire names (model_change…).
     */
    @Test
    void entryKinds_areTheWireNamesTheServerTakes() throws Exception {
        JsonNode doc;
        try (var in = ParleyServer.class.getResourceAsStream("openapi.json")) {
            doc = dev.parley.json.wire.Wire.parse(new String(in.readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8), "openapi.json");
        }
        Set<String> wire = new TreeSet<>();
        for (dev.parley.core.model.EntryKind k : dev.parley.core.model.EntryKind.values()) {
            wire.add(k.wireName());
        }
        for (String schema : java.util.List.of("Entry", "NewEntry")) {
            Set<String> documented = new TreeSet<>();
            doc.path("components").path("schemas").path(schema).path("properties").path("kind").path("enum")
                    .forEach(k -> documented.add(k.asText()));
            assertThat(documented).as(schema + ".kind").isEqualTo(wire);
        }
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
        written.put("LastSeq", dev.parley.json.wire.Wire.encodeLastSeq(java.util.OptionalLong.of(3)));
        for (var e : written.entrySet()) {
            assertThat(schema.apply(e.getKey()).validate(e.getValue())).as(e.getKey() + ": " + e.getValue()).isEmpty();
        }
        assertThat(schema.apply("LastSeq").validate(dev.parley.json.wire.Wire.encodeLastSeq(
                java.util.OptionalLong.empty()))).isEmpty();
        com.fasterxml.jackson.databind.node.ObjectNode stray = written.get("SessionInfo").deepCopy();
        stray.put("colour", "red");
        assertThat(schema.apply("SessionInfo").validate(stray)).isNotEmpty();
        com.fasterxml.jackson.databind.node.ObjectNode missing = written.get("Entries").get("entries").get(0).deepCopy();
        missing.remove("kind");
        assertThat(schema.apply("Entry").validate(missing)).isNotEmpty();
    }

    /**
     * Regression: the schemas of the records, archives and service API were placeholders ({"type":"object"}), and
     * every documented query parameter a string. Now no object schema is without its properties, and a real server's
     * traffic through every one of those routes fits the document: each request body the schema of its route, each
     * answer the schema of its status (a problem document, of the Problem schema).
     */
    @Test
    void recordsArchivesAndServiceSchemas_validateRealTraffic() throws Exception {
        String doc;
        try (var in = ParleyServer.class.getResourceAsStream("openapi.json")) {
            doc = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        JsonNode tree = dev.parley.json.wire.Wire.parse(doc, "openapi.json");
        tree.path("components").path("schemas").fields().forEachRemaining(e ->
                assertThat(!e.getValue().path("type").asText().equals("object") || e.getValue().has("properties"))
                        .as("schema " + e.getKey() + " has its properties").isTrue());
        String base = "https://parley.invalid/openapi.json";
        com.networknt.schema.SchemaRegistry registry = com.networknt.schema.SchemaRegistry.withDefaultDialect(
                com.networknt.schema.SpecificationVersion.DRAFT_2020_12, b -> b.schemas(java.util.Map.of(base, doc)));
        java.util.List<String> checked = new java.util.ArrayList<>();
        ParleyServer server = ParleyServer.start(MemoryStore.open(), ServerConfig.defaults().withPort(0));
        try {
            class Traffic {
                JsonNode call(String method, String path, String query, String body, int expected) throws Exception {
                    return call(method, path, path, query, body, expected);
                }

                /** {@code template}: the documented path; {@code path}: the request's. */
                JsonNode call(String method, String template, String path, String query, String body, int expected)
                        throws Exception {
                    JsonNode operation = tree.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
                    assertThat(operation.isObject()).as(method + " " + template + " is documented").isTrue();
                    if (body != null) {
                        fits(operation.path("requestBody").path("content").path("application/json").path("schema"),
                                dev.parley.json.wire.Wire.parse(body, "request"), method + " " + path + " request");
                    }
                    Http.Answer a = Http.send(server, method, path + query, null, body);
                    assertThat(a.status()).as(method + " " + path + query + ": " + a.body()).isEqualTo(expected);
                    JsonNode answer = a.body().isEmpty() ? null : a.json();
                    JsonNode documented = operation.path("responses").path(String.valueOf(expected));
                    if (documented.isMissingNode()) {
                        assertThat(a.contentType()).startsWith("application/problem+json");
                        String problem = operation.path("responses").path("default").path("$ref").asText();
                        fits(tree.at(problem.substring(1)).path("content").path("application/problem+json")
                                .path("schema"), answer, method + " " + path + " problem");
                    } else if (answer != null) {
                        fits(documented.path("content").path("application/json").path("schema"), answer,
                                method + " " + path + " " + expected);
                    }
                    return answer;
                }

                void fits(JsonNode schema, JsonNode value, String what) {
                    assertThat(schema.isObject()).as(what + ": a schema is documented").isTrue();
                    String pointer = schema.has("$ref") ? schema.get("$ref").asText() : null;
                    assertThat(pointer).as(what + ": the schema is a named component").isNotNull();
                    var errors = registry.getSchema(com.networknt.schema.SchemaLocation.of(base + pointer))
                            .validate(value);
                    assertThat(errors).as(what + ": " + value).isEmpty();
                    checked.add(pointer.substring(pointer.lastIndexOf('/') + 1));
                }
            }
            Traffic t = new Traffic();
            String record = """
                    {"id":"r1","name":"Refactor","retention":"keep","workspaceId":"w1","pinned":true,
                     "history":[{"role":"user","content":"read a"},
                                {"role":"assistant","content":"","toolCalls":[{"id":"c1","tool":"read","input":{"path":"a"}}],
                                 "providerContinuation":{"responseId":"r-9"}},
                                {"role":"tool","content":"A","toolCallId":"c1"}],
                     "messages":[{"id":"l1","role":"user","text":"read a","isPending":false,"directShellResult":{"code":0}}],
                     "turns":[{"id":"t1","prompt":"read a","outcome":"done","summary":"read it","steps":2,
                               "traceFile":"t1.jsonl","events":["start","end"],"agent":{"name":"main"}}],
                     "createdAt":"2025-12-08T22:41:05.306Z","updatedAt":"2025-12-08T22:41:06.000Z",
                     "model":"m-1","reasoningEffort":"high","driftEnabled":false,"lastContinuePrompt":"go on",
                     "context":{"cwd":"/p"},"archives":[],"leaseEpoch":0,
                     "queuedPrompts":[{"id":"q1","prompt":"then b","agentSnapshot":{"v":1},
                                       "createdAt":"2025-12-08T22:41:05.306Z","updatedAt":"2025-12-08T22:41:05.306Z"}]}""";
            t.call("GET", "/v1/health", "", null, 200);
            t.call("POST", "/v1/log/sessions", "", "{\"id\":\"s1\",\"title\":\"t\"}", 201);
            assertThat(t.call("GET", "/v1/log/by-prefix", "?prefix=s&max=5", null, 200).path("ids")).hasSize(1);
            t.call("POST", "/v1/records", "", record, 201);
            t.call("GET", "/v1/records", "?limit=10&archived=false", null, 200);
            t.call("GET", "/v1/record", "?id=r1", null, 200);
            t.call("PUT", "/v1/record", "?id=r1&expectedRevision=1", record, 200);
            t.call("PUT", "/v1/record", "?id=r1&expectedRevision=1", record, 409);
            JsonNode archived = t.call("POST", "/v1/archives", "", """
                    {"sessionId":"r1","archive":{"id":"a1","path":"pending","summaryPath":"pending",
                     "shortDescription":"the start","messageCount":2,"createdAt":"2025-12-08T22:41:07.000Z"},
                     "messages":[{"index":0,"role":"user","content":"read a"},
                                 {"index":1,"role":"tool","content":"A","toolCallId":"c1"}],
                     "summary":"read a"}""", 201);
            t.call("GET", "/v1/archives/manifest", "?session=r1", null, 200);
            String locator = java.net.URLEncoder.encode(archived.path("archive").path("path").asText(),
                    java.nio.charset.StandardCharsets.UTF_8);
            String summaryLocator = java.net.URLEncoder.encode(archived.path("archive").path("summaryPath").asText(),
                    java.nio.charset.StandardCharsets.UTF_8);
            t.call("GET", "/v1/archives/messages", "?locator=" + locator, null, 200);
            t.call("GET", "/v1/archives/summary", "?locator=" + summaryLocator, null, 200);
            // the dequeued prompt keeps its agent snapshot (the answer's own encoder left it out)
            assertThat(t.call("POST", "/v1/service/dequeue", "?id=r1", null, 200).path("prompt").path("agentSnapshot")
                    .path("v").asInt()).isEqualTo(1);
            t.call("POST", "/v1/service/ensure", "?id=r2", null, 200);
            t.call("POST", "/v1/service/queue", "?id=r2", "{\"prompt\":\"first\"}", 200);
            JsonNode dequeued = t.call("POST", "/v1/service/dequeue", "?id=r2", null, 200);
            assertThat(dequeued.path("prompt").path("prompt").asText()).isEqualTo("first");
            assertThat(t.call("POST", "/v1/service/dequeue", "?id=r2", null, 200).path("prompt").isNull()).isTrue();
            JsonNode claim = t.call("POST", "/v1/service/lease", "?id=r2",
                    "{\"kind\":\"daemon\",\"ownerId\":\"o1\",\"hostId\":\"h1\"}", 200);
            t.call("POST", "/v1/service/lease/refresh", "", dev.parley.json.wire.Wire.write(claim), 204);
            t.call("DELETE", "/v1/record", "?id=r1&expectedRevision=3", null, 200);
            t.call("DELETE", "/v1/log/sessions/{session}", "/v1/log/sessions/s1", "", null, 200);
        } finally {
            server.close();
        }
        assertThat(checked).contains("Health", "Ids", "ChatSession", "StoredSession", "CatalogPage", "ArchiveAppend",
                "ArchiveResult", "Manifest", "ArchivedMessages", "Summary", "Prompt", "Position", "Dequeued",
                "LeaseOwner", "LeaseClaim", "Deleted", "Problem");
    }
}
