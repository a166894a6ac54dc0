package dev.parley.files;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.core.store.StoreOptions;
import dev.parley.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A quick measuring main for the JSONL store, beside the raw medium measured in the same run (not a test, and not
 * {@code parley-bench}'s report): a single-writer append at session length 10, 1,000 and 10,000 against appending the
 * same bytes plus {@code fdatasync} to a file in the same directory; 1 against 16 writers on 16 sessions; loading a
 * 100,000-message session against reading its file and parsing each line with Jackson.
 *
 * <p>Run after {@code mvn -o -q -B -pl parley-files -am test-compile}, with the module's test class path:
 * {@code java -cp … dev.parley.files.JsonlMeasure [DIR] [--ops N] [--only append|writers|resume]}.
 */
public final class JsonlMeasure {
    private static final int WARMUP = 200;

    private JsonlMeasure() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0] : "parley-files/target/measure");
        int ops = 1000;
        String only = "";
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--ops")) {
                ops = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--only")) {
                only = args[++i];
            }
        }
        deleteTree(dir);
        Files.createDirectories(dir);
        if (only.isEmpty() || only.equals("append")) {
            for (int length : new int[] {10, 1_000, 10_000}) {
                appendCase(dir.resolve("append-" + length), length, ops);
            }
        }
        if (only.isEmpty() || only.equals("writers")) {
            double one = throughput(dir.resolve("w1"), 1, 3_000);
            double sixteen = throughput(dir.resolve("w16"), 16, 3_000);
            System.out.printf(Locale.ROOT, "writers: 1 -> %,.0f appends/s, 16 on 16 sessions -> %,.0f appends/s"
                    + " (%.2f x)%n", one, sixteen, sixteen / one);
        }
        if (only.isEmpty() || only.equals("resume")) {
            resume(dir.resolve("resume"), 100_000);
        }
        deleteTree(dir);
    }

    /** Parley's append (through an {@link AgentSession}, as an agent appends) beside raw append + fdatasync. */
    static void appendCase(Path where, int length, int ops) throws IOException {
        Files.createDirectories(where);
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        Random random = new Random(length);
        long[] parley = new long[ops];
        long[] raw = new long[ops];
        try (JsonlStore store = JsonlStore.open(where, options)) {
            MessageLog log = store.log();
            int sessions = length <= 10 ? ops + WARMUP : 1;
            List<AgentSession> handles = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                SessionId session = options.ids().newSessionId();
                fill(log, session, length, options.ids(), random);
                handles.add(new AgentSession(log, session, AgentId.MAIN, options.ids(), Clock.systemUTC()));
            }
            // The raw medium: the bytes of one Parley line appended to a file in the same directory, fdatasync each.
            byte[] line = (Json.write(dev.parley.json.EntryCodec.encode(new dev.parley.core.model.Entry(1,
                    new EntryId("x"), null, AgentId.MAIN, null, message(random), null))) + "\n").getBytes(StandardCharsets.UTF_8);
            try (FileChannel ch = FileChannel.open(where.resolve("raw.log"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                // Interleaved, so both see the same moments of a noisy machine.
                for (int i = -WARMUP; i < ops; i++) {
                    AgentSession handle = handles.get(sessions == 1 ? 0 : i + WARMUP);
                    Message m = message(random);
                    long t = System.nanoTime();
                    handle.appendMessages(List.of(m));
                    long p = System.nanoTime() - t;
                    t = System.nanoTime();
                    ch.write(ByteBuffer.wrap(line));
                    ch.force(false);
                    long r = System.nanoTime() - t;
                    if (i >= 0) {
                        parley[i] = p;
                        raw[i] = r;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "append at length %,6d: Parley mean %.1f µs p50 %.1f µs | raw mean %.1f µs"
                        + " p50 %.1f µs | ratio mean %.2f p50 %.2f%n", length, mean(parley), p50(parley), mean(raw),
                p50(raw), mean(parley) / mean(raw), p50(parley) / p50(raw));
    }

    /** Appends per second of {@code writers} threads, each on its own session, {@code total} appends in all. */
    static double throughput(Path where, int writers, int total) throws Exception {
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        try (JsonlStore store = JsonlStore.open(where, options)) {
            MessageLog log = store.log();
            List<AgentSession> handles = new ArrayList<>();
            Random random = new Random(writers);
            for (int w = 0; w < writers; w++) {
                SessionId session = options.ids().newSessionId();
                fill(log, session, 10, options.ids(), random);
                AgentSession h = new AgentSession(log, session, AgentId.MAIN, options.ids(), Clock.systemUTC());
                for (int i = 0; i < 20; i++) {
                    h.appendMessages(List.of(message(random)));
                }
                handles.add(h);
            }
            AtomicLong left = new AtomicLong(total);
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                AgentSession h = handles.get(w);
                Random r = new Random(w);
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                        while (left.getAndDecrement() > 0) {
                            h.appendMessages(List.of(message(r)));
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                t.start();
                threads.add(t);
            }
            long t0 = System.nanoTime();
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            return total / ((System.nanoTime() - t0) / 1e9);
        }
    }

    /** Loading a session of {@code messages} as entries, beside reading its file and parsing each line with Jackson. */
    static void resume(Path where, int messages) throws IOException {
        StoreOptions options = new StoreOptions(Clock.systemUTC(), IdGenerator.uuidV7());
        SessionId session = options.ids().newSessionId();
        Random random = new Random(7);
        try (JsonlStore store = JsonlStore.open(where, options)) {
            fill(store.log(), session, messages, options.ids(), random);
        }
        Path file = where.resolve(session.value() + ".jsonl");
        long[] parley = new long[5];
        long[] raw = new long[5];
        long[] decoded = new long[5];
        for (int round = -2; round < 5; round++) {
            long t = System.nanoTime();
            long count = rawReadAndParse(file, false);
            long r = System.nanoTime() - t;
            t = System.nanoTime();
            rawReadAndParse(file, true);
            long d = System.nanoTime() - t;
            try (JsonlStore store = JsonlStore.open(where, options)) {
                t = System.nanoTime();
                int n = store.log().load(session, null).size();
                long p = System.nanoTime() - t;
                if (n != messages || count != messages + 1) {
                    throw new IllegalStateException("loaded " + n + ", parsed " + count);
                }
                if (round >= 0) {
                    parley[round] = p;
                    raw[round] = r;
                    decoded[round] = d;
                }
            }
        }
        System.out.printf(Locale.ROOT, "resume of %,d messages (%,d bytes): Parley p50 %.0f ms | raw read + Jackson"
                        + " p50 %.0f ms | ratio %.2f | raw + EntryCodec.decode of each entry p50 %.0f ms (%.2f x raw)%n",
                messages, Files.size(file), p50(parley) / 1000, p50(raw) / 1000, p50(parley) / p50(raw),
                p50(decoded) / 1000, p50(decoded) / p50(raw));
    }

    /**
     * Reads the file in 1 MiB blocks and parses each line with Jackson into a tree; with {@code decode}, also decodes
     * each entry line with the shared codec (what any JSON store pays on top of parsing).
     */
    static long rawReadAndParse(Path file, boolean decode) throws IOException {
        long lines = 0;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 20];
            byte[] carry = new byte[0];
            int n;
            while ((n = in.read(buf)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        JsonNode node;
                        if (carry.length > 0) {
                            byte[] whole = Arrays.copyOf(carry, carry.length + i - start);
                            System.arraycopy(buf, start, whole, carry.length, i - start);
                            node = Json.mapper().readTree(whole);
                            carry = new byte[0];
                        } else {
                            node = Json.mapper().readTree(buf, start, i - start);
                        }
                        if (node.isObject()) {
                            lines++;
                            if (decode && "entry".equals(node.path("type").asText())) {
                                ((com.fasterxml.jackson.databind.node.ObjectNode) node).remove(List.of("type", "more"));
                                dev.parley.json.EntryCodec.decode(node, "line " + lines);
                            }
                        }
                        start = i + 1;
                    }
                }
                byte[] more = Arrays.copyOf(carry, carry.length + n - start);
                System.arraycopy(buf, start, more, carry.length, n - start);
                carry = more;
            }
        }
        return lines;
    }

    static void fill(MessageLog log, SessionId session, int length, IdGenerator ids, Random random) {
        EntryId parent = null;
        int done = 0;
        while (done < length) {
            int n = Math.min(1000, length - done);
            List<NewEntry> batch = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                EntryId id = ids.newEntryId();
                batch.add(NewEntry.of(id, parent, null, message(random)));
                parent = id;
            }
            log.append(session, AgentId.MAIN, batch);
            done += n;
        }
    }

    /** About 1 KB: text, a tool call, usage — the message {@code parley-bench} appends. */
    static Message message(Random random) {
        return Message.builder(Role.ASSISTANT)
                .add(new ContentBlock.Text("reply " + random.nextLong() + " " + "lorem ipsum dolor sit amet ".repeat(30)))
                .add(new ContentBlock.ToolCall("call_" + random.nextInt(1_000_000), "read",
                        RawJson.of("{\"path\":\"/src/Main.java\"}")))
                .provider("anthropic").model("claude-opus-4-5").usage(Usage.of(1200, 90)).build();
    }

    static double mean(long[] nanos) {
        return Arrays.stream(nanos).average().orElse(0) / 1000;
    }

    static double p50(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1000.0;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
