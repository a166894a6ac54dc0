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
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
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
        /** Every path asked for, in order. */
        final List<String> paths = new CopyOnWriteArrayList<>();

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
                    if (Set.of("authorization", "content-type", "accept").contains(name.toLowerCase(Locale.ROOT))) {
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

    private static long asked(Proxy proxy, String suffix) {
        return proxy.paths.stream().filter(p -> p.endsWith(suffix)).count();
    }

    @Test
    void lastSeq_isOneRequestForTheSeqAlone_notTheEntry() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             Proxy proxy = new Proxy(served.url(), false);
             Store store = Stores.open(TestServers.remote(proxy.url(), dir, ""))) {
            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEmpty();
            long seq = appendOne(store, "hello");

            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEqualTo(OptionalLong.of(seq));
            assertThat(store.log().lastSeq(SESSION, new AgentId("other"))).isEmpty();
            assertThat(asked(proxy, "/last-seq")).isEqualTo(3);
            assertThat(asked(proxy, "/last")).isZero();
        }
    }

    /**
     * An earlier server answers the new route with 404 NO_SUCH_ROUTE: the client then asks for the entry, which
     * such a server has always answered — and asks for it at once from then on, not first for a route it knows fails.
     */
    @Test
    void lastSeq_ofAServerWithoutTheRoute_isTheLastEntrysSeq_askedOnceForTheRoute() throws Exception {
        try (TestServers.Served served = TestServers.serve("sqlite:" + dir.resolve("server.db"));
             Proxy earlier = new Proxy(served.url(), true);
             Store store = Stores.open(TestServers.remote(earlier.url(), dir, ""))) {
            long seq = appendOne(store, "hello");

            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEqualTo(OptionalLong.of(seq));
            assertThat(store.log().lastSeq(SESSION, new AgentId("other"))).isEmpty();
            assertThat(store.log().lastSeq(SESSION, AgentId.MAIN)).isEqualTo(OptionalLong.of(seq));
            assertThat(asked(earlier, "/last-seq")).isEqualTo(1);
            assertThat(asked(earlier, "/last")).isEqualTo(3);
            assertThat(((RemoteStore) store).stats().fallbacks()).isZero();
        }
    }
}
