package dev.parley.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.json.wire.Wire;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live event stream and the session service, through the real API. */
class ServerApiTest {
    @TempDir
    Path dir;
    Store store;
    ParleyServer server;

    @BeforeEach
    void start() {
        store = Stores.open("sqlite:" + dir.resolve("server.db"));
        server = ParleyServer.start(store, ServerConfig.defaults().withPort(0));
    }

    @AfterEach
    void stop() {
        server.close();
        store.close();
    }

    private void append(String session, String text) throws Exception {
        NewEntry e = NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user(text));
        assertThat(Http.send(server, "POST", "/v1/log/sessions/" + session + "/agents/main/entries", null,
                Wire.write(Wire.encodeBatch(AgentId.MAIN, List.of(e), Usage.ZERO))).status()).isEqualTo(200);
    }

    /** Reads a stream's events (id and text) into a queue on a thread of its own. */
    private BlockingQueue<String> listen(String target, String lastEventId, List<Stream<String>> open) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.uri() + target))
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> r = HttpClient.newHttpClient().send(b.build(),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        open.add(r.body());
        BlockingQueue<String> events = new ArrayBlockingQueue<>(100);
        Thread t = new Thread(() -> {
            String id = null;
            Iterator<String> it = r.body().iterator();
            try {
                while (it.hasNext()) {
                    String line = it.next();
                    if (line.startsWith("id:")) {
                        id = line.substring(3).strip();
                    } else if (line.startsWith("data:")) {
                        JsonNode entry = Wire.parse(line.substring(5).strip(), "event");
                        events.add(id + " " + entry.path("message").path("content").asText());
                    }
                }
            } catch (RuntimeException closed) {
                // the test closed the stream
            }
        });
        t.setDaemon(true);
        t.start();
        return events;
    }

    /**
     * Found by a newcomer's trial: {@code GET …/entries?limit=1} answered every entry of the session. A window
     * ({@code after}, {@code limit}) now pages through a long session.
     */
    @Test
    void entries_withAfterAndLimit_answerOneWindow() throws Exception {
        for (String text : List.of("one", "two", "three")) {
            append("w", text);
        }
        Http.Answer first = Http.get(server, "/v1/log/sessions/w/entries?limit=2", null);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().findValuesAsText("content")).containsExactly("one", "two");
        long last = first.json().get("entries").get(1).get("seq").asLong();
        Http.Answer rest = Http.get(server, "/v1/log/sessions/w/entries?after=" + last, null);
        assertThat(rest.json().findValuesAsText("content")).containsExactly("three");
        assertThat(Http.get(server, "/v1/log/sessions/w/entries?limit=99999999", null).json()
                .findValuesAsText("content")).containsExactly("one", "two", "three");
        assertThat(Http.get(server, "/v1/log/sessions/w/entries?limit=0", null).status()).isEqualTo(400);
        assertThat(Http.get(server, "/v1/log/sessions/w/entries?limit=-4294967295", null).status()).isEqualTo(400);
        assertThat(Http.get(server, "/v1/log/sessions/w/entries?after=-1", null).status()).isEqualTo(400);
        assertThat(Http.get(server, "/v1/log/sessions/w/entries?limit=2&agent=main", null).status()).isEqualTo(400);
    }

    @Test
    void events_deliverEveryEntryAfterTheSeq_andResumeWithLastEventId() throws Exception {
        append("live", "one");
        append("live", "two");
        List<Stream<String>> open = new ArrayList<>();
        try {
            BlockingQueue<String> events = listen("/v1/log/sessions/live/events?after=1", null, open);
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("2 two");
            append("live", "three");
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("3 three");

            BlockingQueue<String> resumed = listen("/v1/log/sessions/live/events", "2", open);
            assertThat(resumed.poll(10, TimeUnit.SECONDS)).isEqualTo("3 three");
            append("live", "four");
            assertThat(resumed.poll(10, TimeUnit.SECONDS)).isEqualTo("4 four");
            assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("4 four");
        } finally {
            open.forEach(Stream::close);
        }
    }

    /** Regression: a bad start or session id of an event stream was answered 200, inside the stream. */
    @Test
    void events_withABadStartOrSessionId_areA400ProblemDocument() throws Exception {
        for (String target : new String[] {"/v1/log/sessions/live/events?after=x", "/v1/log/sessions/live/events?after=-1",
                "/v1/log/sessions/not%20an%20id/events"}) {
            Http.Answer a = Http.get(server, target, null);
            assertThat(a.status()).as(target).isEqualTo(400);
            assertThat(a.contentType()).as(target).startsWith("application/problem+json");
        }
    }

    @Test
    void service_ensureQueueAndLease_workThroughTheApi() throws Exception {
        JsonNode ensured = Http.send(server, "POST", "/v1/service/ensure?id=chat%201", null, null).json();
        assertThat(ensured.path("revision").asLong()).isEqualTo(1);
        assertThat(ensured.path("session").path("id").asText()).isEqualTo("chat 1");

        assertThat(Http.send(server, "POST", "/v1/service/queue?id=chat%201", null, "{\"prompt\":\"first\"}")
                .json().path("position").asInt()).isEqualTo(1);
        JsonNode dequeued = Http.send(server, "POST", "/v1/service/dequeue?id=chat%201", null, null).json();
        assertThat(dequeued.path("prompt").path("prompt").asText()).isEqualTo("first");
        assertThat(Http.send(server, "POST", "/v1/service/dequeue?id=chat%201", null, null).json()
                .path("prompt").isNull()).isTrue();

        String owner = "{\"kind\":\"daemon\",\"ownerId\":\"w1\"}";
        JsonNode claim = Http.send(server, "POST", "/v1/service/lease?id=chat%201", null, owner).json();
        assertThat(claim.path("fencingToken").isIntegralNumber()).isTrue();
        assertThat(Http.send(server, "POST", "/v1/service/lease/refresh", null, Wire.write(claim)).status())
                .isEqualTo(204);
        assertThat(Http.send(server, "POST", "/v1/service/lease/release", null, Wire.write(claim)).status())
                .isEqualTo(204);
        JsonNode second = Http.send(server, "POST", "/v1/service/lease?id=chat%201", null,
                "{\"kind\":\"daemon\",\"ownerId\":\"w2\"}").json();
        assertThat(second.path("fencingToken").asLong()).isGreaterThan(claim.path("fencingToken").asLong());

        Http.Answer stale = Http.send(server, "POST", "/v1/service/lease/refresh", null, Wire.write(claim));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.contentType()).startsWith("application/problem+json");
        assertThat(stale.json().path("code").asText()).isEqualTo("CHAT_SESSION_LEASE_LOST");
    }

    @Test
    void revisionConflict_isProblemDocumentWithBothRevisions() throws Exception {
        Http.send(server, "POST", "/v1/service/ensure?id=r", null, null);
        JsonNode record = Http.get(server, "/v1/record?id=r", null).json().path("session");
        assertThat(Http.send(server, "PUT", "/v1/record?id=r&expectedRevision=1", null, Wire.write(record)).status())
                .isEqualTo(200);

        Http.Answer conflict = Http.send(server, "PUT", "/v1/record?id=r&expectedRevision=1", null,
                Wire.write(record));

        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.json().path("code").asText()).isEqualTo("CHAT_SESSION_REVISION_CONFLICT");
        assertThat(conflict.json().path("expectedRevision").asLong()).isEqualTo(1);
        assertThat(conflict.json().path("actualRevision").asLong()).isEqualTo(2);
    }

    /**
     * Regression: problem documents went out as ISO-8859-1 (a String result of a media type without a charset), so
     * an id outside ASCII came back as a byte that is not UTF-8; and a request body that was not UTF-8 was decoded with
     * replacement characters and stored.
     */
    @Test
    void textTravelsAsUtf8_andABodyThatIsNotUtf8_isRefused() throws Exception {
        Http.Answer problem = Http.get(server, "/v1/log/sessions/caf%C3%A9", null);
        assertThat(problem.status()).isEqualTo(400);
        assertThat(problem.body()).contains("café");

        byte[] body = ("{\"entries\":[{\"id\":\"u1\",\"kind\":\"message\",\"message\":{\"role\":\"user\","
                + "\"content\":\"caf").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] tail = "\"}}]}".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] bad = java.util.Arrays.copyOf(body, body.length + 3 + tail.length);
        bad[body.length] = (byte) 0xe9; // Latin-1 é
        bad[body.length + 1] = ' ';
        bad[body.length + 2] = (byte) 0xff;
        System.arraycopy(tail, 0, bad, body.length + 3, tail.length);
        Http.Answer refused = Http.sendBytes(server, "POST", "/v1/log/sessions/utf/agents/main/entries", null, bad);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("the request body is not JSON").contains("UTF-8");
        assertThat(Http.get(server, "/v1/log/sessions/utf", null).status()).isEqualTo(404);

        // and a key repeated in one object, which could only be stored by dropping one of its values
        Http.Answer repeated = Http.send(server, "POST", "/v1/log/sessions/utf/agents/main/entries", null,
                "{\"entries\":[{\"id\":\"u1\",\"kind\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":"
                        + "[{\"type\":\"toolCall\",\"id\":\"c1\",\"name\":\"f\",\"arguments\":{\"a\":1,\"a\":2}}]}}]}");
        assertThat(repeated.status()).isEqualTo(400);
        assertThat(repeated.body()).contains("Duplicate field 'a'");
        assertThat(Http.get(server, "/v1/log/sessions/utf", null).status()).isEqualTo(404);
    }

    /** Regression: a page size past the int range was cut to its low 32 bits ({@code limit=4294967297} gave one). */
    @Test
    void pageSizesBeyondTheIntRange_areRefused_notWrapped() throws Exception {
        for (String target : new String[] {"/v1/log/sessions?limit=4294967297", "/v1/records?limit=4294967296",
                "/v1/log/by-prefix?prefix=a&max=4294967297"}) {
            Http.Answer a = Http.get(server, target, null);
            assertThat(a.status()).as(target).isEqualTo(400);
            assertThat(a.json().path("detail").asText()).as(target).contains("out of range: 429496729");
        }
    }

    /**
     * Found by a review: a cost written {@code 1e10000000} was accepted, stored written out in full (ten million
     * digits) and read back with the store's lock held, freezing every other request; a createdAt in the year
     * -999999999 was a 500 (an epoch-millisecond overflow). Both are 400 now, and nothing is stored.
     */
    @Test
    void costWithAHugeExponent_andACreatedAtOutsideTheYears0000To9999_areRefusedWith400() throws Exception {
        NewEntry user = NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(), Message.user("hi"));
        String batch = Wire.write(Wire.encodeBatch(AgentId.MAIN, List.of(user),
                new Usage(1, 0, 0, 0, 0, new java.math.BigDecimal("0.123456789"))));
        Http.Answer cost = Http.send(server, "POST", "/v1/log/sessions/c/agents/main/entries", null,
                batch.replace("0.123456789", "1e10000000"));
        assertThat(cost.status()).isEqualTo(400);
        assertThat(cost.json().path("detail").asText()).contains("cost of scale -10000000").contains("the limit is 1000");
        assertThat(Http.get(server, "/v1/log/sessions/c", null).status()).isEqualTo(404);

        NewEntry answer = NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(),
                Message.builder(dev.parley.core.model.Role.ASSISTANT).plainText("hi")
                        .usage(new Usage(0, 1, 0, 0, 0, new java.math.BigDecimal("0.987654321"))).build());
        Http.Answer inEntry = Http.send(server, "POST", "/v1/log/sessions/c/agents/main/entries", null,
                Wire.write(Wire.encodeBatch(AgentId.MAIN, List.of(answer), Usage.ZERO))
                        .replace("0.987654321", "1e-10000000"));
        assertThat(inEntry.status()).isEqualTo(400);
        assertThat(Http.get(server, "/v1/log/sessions/c", null).status()).isEqualTo(404);

        Http.Answer farPast = Http.send(server, "POST", "/v1/log/sessions/c/agents/main/entries", null,
                batch.replace("0.123456789", "0.5").replaceFirst("\"timestamp\":\"[^\"]+\"",
                        "\"timestamp\":\"-999999999-01-01T00:00:00Z\""));
        assertThat(farPast.status()).isEqualTo(400);
        assertThat(farPast.json().path("detail").asText()).contains("outside the years 0000 to 9999");

        Http.Answer past = Http.send(server, "POST", "/v1/log/sessions", null,
                "{\"id\":\"old\",\"createdAt\":\"-999999999-01-01T00:00:00Z\"}");
        assertThat(past.status()).isEqualTo(400);
        assertThat(past.json().path("detail").asText()).contains("outside the years 0000 to 9999");
        assertThat(Http.get(server, "/v1/log/sessions/old", null).status()).isEqualTo(404);
    }
}
