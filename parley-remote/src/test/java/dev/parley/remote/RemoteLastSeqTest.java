package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code MessageLog.lastSeq} through {@code remote:}: the seq alone is asked for ({@code GET …/last-seq}), not the
 * entry, and a server of an earlier Parley, which has no such route, still gets the right answer asked of it.
 */
class RemoteLastSeqTest {
    static final SessionId SESSION = new SessionId("s1");
    static final IdGenerator IDS = IdGenerator.uuidV7();

    @TempDir
    Path dir;

    /**
     * A loopback proxy in front of a real server that records the paths asked for; with {@code earlier}, it plays a
     * server without the last-seq route by asking the real one for a path it does not route.
     */
    static final class Proxy implements AutoCloseable {
        final HttpServer http;
        final Set<String> paths = ConcurrentHashMap.newKeySet();

        Proxy(String target, boolean earlier) throws IOException {
            HttpClient client = HttpClient.newHttpClient();
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.createContext("/", exchange -> {
                String path = exchange.getRequestURI().getRawPath();
                paths.add(path);
                String query = exchange.getRequestURI().getRawQuery();
                String forwarded = earlier && path.endsWith("/last-seq") ? path + "-unrouted" : path;
                HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + forwarded
                        + (query == null ? "" : "?" + query)))
                        .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(
                                exchange.getRequestBody().readAllBytes()));
                exchange.getRequestHeaders().forEach((name, values) -> {
                    if (Set.of("authorization", "content-type", "accept").contains(name.toLowerCase())) {
                        values.forEach(v -> request.header(name, v));
                    }
                });
                try {
                    HttpResponse<byte[]> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                    answer.headers().firstValue("content-type").ifPresent(
                            v -> exchange.getResponseHeaders().set("Content-Type", v));
                    byte[] body = answer.body();
                    exchange.sendResponseHeaders(answer.statusCode(), body.length == 0 ? -1 : body.length);
                    exchange.getResponseBody().write(body);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    exchange.sendResponseHeaders(502, -1);
                } finally {
                    exchange.close();
                }
            });
            http.start();
        }

        String url() {
            return "http://127.0.0.1:" + http.getAddress().getPort();
        }

        @Override
        public void close() {
            http.stop(0);
        }
    }

    private static long appendOne(Store store, String text) {
        return store.log().append(SESSION, AgentId.MAIN, List.of(NewEntry.of(IDS.newEntryId(), null, Instant.now(),
                Message.user(text))), Usage.ZERO).entries().get(0).seq();
    }

    @Test
    void lastSeq_asksForTheSeqAlone_notTheEntry() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             Proxy proxy = new Proxy(served.url(), false);
             Store store = Stores.open(TestServers.remote(proxy.url(), dir, ""))) {
            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEmpty();
            long seq = appendOne(store, "x".repeat(100_000));

            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEqualTo(OptionalLong.of(seq));
            assertThat(store.log().lastSeq(SESSION, new AgentId("other"))).isEmpty();
            assertThat(proxy.paths).anyMatch(p -> p.endsWith("/agents/main/last-seq"))
                    .noneMatch(p -> p.endsWith("/last"));
        }
    }

    /** Without the fallback to the entry, a client would take an earlier server's 404 for "no entry". */
    @Test
    void lastSeq_ofAServerWithoutTheRoute_isTheLastEntrysSeq_notEmpty() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             Proxy earlier = new Proxy(served.url(), true);
             Store store = Stores.open(TestServers.remote(earlier.url(), dir, ""))) {
            long seq = appendOne(store, "hello");

            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEqualTo(OptionalLong.of(seq));
            assertThat(store.log().lastSeq(SESSION, new AgentId("other"))).isEmpty();
            assertThat(earlier.paths).anyMatch(p -> p.endsWith("/agents/main/last"));
            assertThat(((RemoteStore) store).stats().fallbacks()).isZero();
        }
    }
}
