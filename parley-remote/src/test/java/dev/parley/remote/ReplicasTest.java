package dev.parley.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import dev.parley.tck.process.MultiProcessCas;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many replicas: two servers on one PostgreSQL give the guarantees of one. The multi-process check's worker JVMs reach
 * them through a TCP balancer on loopback that hands each new connection to the next server in turn, so the workers'
 * concurrent compare-and-swap updates and appends arrive through both.
 */
class ReplicasTest {
    @TempDir
    Path dir;

    /** Hands each accepted connection to the next of the servers, piping bytes both ways. */
    static final class Balancer implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger[] connections;

        Balancer(List<Integer> ports) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            connections = new AtomicInteger[ports.size()];
            for (int i = 0; i < connections.length; i++) {
                connections[i] = new AtomicInteger();
            }
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        Socket client = socket.accept();
                        int i = Math.floorMod(next.getAndIncrement(), ports.size());
                        connections[i].incrementAndGet();
                        Socket server = new Socket(InetAddress.getLoopbackAddress(), ports.get(i));
                        pipe(client, server);
                        pipe(server, client);
                    }
                } catch (IOException closed) {
                    // closed by the test
                }
            });
            t.setDaemon(true);
            t.start();
        }

        private static void pipe(Socket from, Socket to) {
            Thread t = new Thread(() -> {
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    in.transferTo(out);
                } catch (IOException e) {
                    // one side closed
                } finally {
                    try {
                        from.close();
                        to.close();
                    } catch (IOException ignored) {
                        // closing
                    }
                }
            });
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void multiProcessCas_throughTwoServersOnOnePostgres_losesNoWrite() throws Exception {
        String backend = "postgres:" + TestServers.newPostgresDatabase();
        try (Store a = Stores.open(backend); Store b = Stores.open(backend);
             ParleyServer first = ParleyServer.start(a, ServerConfig.defaults().withPort(0));
             ParleyServer second = ParleyServer.start(b, ServerConfig.defaults().withPort(0));
             Balancer balancer = new Balancer(List.of(first.port(), second.port()))) {
            String uri = TestServers.remote("http://127.0.0.1:" + balancer.socket.getLocalPort(), dir, "");

            MultiProcessCas.Report report = MultiProcessCas.run(uri, "replicas", 2, 3, Duration.ofSeconds(3),
                    dir.resolve("work"), true);

            assertThat(report.problems(11, true)).isEmpty();
            assertThat(balancer.connections[0].get()).isPositive();
            assertThat(balancer.connections[1].get()).isPositive();
        }
    }
}
