package dev.parley.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a JVM that is appending through an {@link Agent} with SIGKILL at random points, {@value #KILLS} times per
 * backend, resuming in a new JVM each time. After every kill: every acknowledged entry is in the log exactly once,
 * the log loads, no prompt or tool result was written twice, and the resumed conversation is provider-valid.
 */
class CrashRecoveryTest {
    static final int KILLS = 50;
    static final SessionId SESSION = new SessionId("0199c0de-0000-7000-8000-00000000c0de");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "jsonl"})
    void sigkillAtRandomPoints_losesNothingAcknowledged(String backend) throws Exception {
        String uri = backend.equals("sqlite") ? "sqlite:" + dir.resolve("crash.db") : "jsonl:" + dir.resolve("crash");
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Set<EntryId> acknowledged = new HashSet<>();
        int totalAcks = 0;
        for (int kill = 1; kill <= KILLS; kill++) {
            List<String> acks = new java.util.concurrent.CopyOnWriteArrayList<>();
            // The child's temporary files (sqlite-jdbc extracts its native library there) die with the test.
            java.nio.file.Files.createDirectories(dir.resolve("tmp"));
            Process child = new ProcessBuilder(javaBinary(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                    "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(), uri, SESSION.value())
                    .redirectError(dir.resolve("child-" + kill + ".err").toFile()).start();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        acks.add(line);
                    }
                } catch (Exception e) {
                    // the pipe breaks when the child dies
                }
            });
            reader.start();
            int target = random.nextInt(14);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (acks.stream().filter(l -> l.startsWith("ACK ")).count() < target && System.nanoTime() < deadline
                    && child.isAlive()) {
                Thread.sleep(1);
            }
            Thread.sleep(random.nextInt(25));
            assertThat(child.isAlive()).as("seed %d kill %d: the child died on its own: %s", seed, kill,
                    java.nio.file.Files.readString(dir.resolve("child-" + kill + ".err"))).isTrue();
            child.destroyForcibly(); // SIGKILL on Unix
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            reader.join(5_000);
            for (String line : new ArrayList<>(acks)) {
                if (line.startsWith("ACK ")) {
                    acknowledged.add(new EntryId(line.substring(4).trim()));
                    totalAcks++;
                }
            }
            check(uri, acknowledged, "seed " + seed + " kill " + kill);
        }
        assertThat(totalAcks).as("appends acknowledged over all runs").isGreaterThan(KILLS);
    }

    static void check(String uri, Set<EntryId> acknowledged, String where) {
        try (Store root = Stores.open(uri)) {
            MessageLog log = root.log();
            List<Entry> entries = log.load(SESSION, null);
            Map<EntryId, Integer> count = new HashMap<>();
            entries.forEach(e -> count.merge(e.id(), 1, Integer::sum));
            for (EntryId id : acknowledged) {
                assertThat(count.get(id)).as("%s: acknowledged entry %s present exactly once", where, id).isEqualTo(1);
            }
            Set<String> prompts = new HashSet<>();
            Set<String> results = new HashSet<>();
            for (Entry e : entries) {
                Message m = e.message();
                if (m != null && m.role().equals(Role.USER)) {
                    assertThat(prompts.add(m.text())).as("%s: prompt written twice: %s", where, m.text()).isTrue();
                }
                if (m != null) {
                    for (ContentBlock.ToolResult r : m.toolResults()) {
                        assertThat(results.add(r.callId())).as("%s: tool result written twice: %s", where, r.callId())
                                .isTrue();
                    }
                }
            }
            LoadedConversation c = ConversationBuilder.build(SESSION, entries, AgentId.MAIN,
                    ConversationOptions.PROVIDER_VALID);
            assertProviderValid(c.messages(), where);
        }
    }

    /** What Anthropic and OpenAI accept: alternating turns, every call answered right after it, no stray result. */
    static void assertProviderValid(List<Message> messages, String where) {
        Set<String> open = new HashSet<>();
        Role previous = null;
        for (Message m : messages) {
            Role role = m.role();
            if (role.equals(Role.TOOL)) {
                assertThat(previous).as("%s: a tool result follows an assistant message or a result", where)
                        .isIn(Role.ASSISTANT, Role.TOOL);
                for (ContentBlock.ToolResult r : m.toolResults()) {
                    assertThat(open.remove(r.callId())).as("%s: result %s answers an open call", where, r.callId()).isTrue();
                }
            } else {
                assertThat(open).as("%s: every call is answered before the next message", where).isEmpty();
                if (role.equals(Role.USER)) {
                    assertThat(previous).as("%s: no two user messages in a row", where).isNotEqualTo(Role.USER);
                }
                m.toolCalls().forEach(c -> open.add(c.id()));
            }
            previous = role;
        }
        assertThat(open).as("%s: no call without a result at the end", where).isEmpty();
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
