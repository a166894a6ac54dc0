package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Regressions for faults an adversarial review found; each test is named for the fault it pins. */
class RegressionTest {
    @TempDir
    Path dir;

    static String pi(String id, String... messages) {
        StringBuilder s = new StringBuilder("{\"type\":\"session\",\"version\":3,\"id\":\"" + id
                + "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/\"}\n");
        String parent = null;
        for (int i = 0; i < messages.length; i++) {
            String eid = String.format(Locale.ROOT, "%08x", i);
            s.append("{\"type\":\"message\",\"id\":\"").append(eid).append("\",\"parentId\":")
                    .append(parent == null ? "null" : "\"" + parent + "\"").append(",\"timestamp\":\"2025-01-01T00:00:01.000Z\","
                    + "\"message\":{\"role\":\"user\",\"content\":").append(messages[i]).append(",\"timestamp\":1}}\n");
            parent = eid;
        }
        return s.toString();
    }

    Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    static Recorder importInto(Store log, Path... paths) {
        Recorder r = new Recorder();
        new Importer(log, IdGenerator.uuidV7()).importPaths(List.of(paths), null, r);
        return r;
    }

    /** Issue 14, break 9: a record that repeats a key was imported with the last value, the first silently lost. */
    @Test
    void duplicateKeysInASourceRecord_areRefusedNamingFileAndLine() throws Exception {
        String lines = pi("0199a1b2-c3d4-7e5f-8a9b-00000000d0b1", "\"first\"", "\"second\"");
        Path jsonl = write("in/dup.jsonl", lines.replace("\"content\":\"second\"",
                "\"content\":\"second\",\"content\":\"replaced\""));
        Path document = write("in/dup.json", "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n"
                + "  {\"role\": \"assistant\", \"content\": \"a\", \"role\": \"user\"}\n]}\n");
        try (Store store = Stores.open("sqlite:" + dir.resolve("p.db"))) {
            Recorder r = importInto(store, jsonl, document);
            assertThat(r.fatal()).hasSize(2);
            ImportProblem inLines = r.fatal().stream().filter(p -> p.file().equals(jsonl)).findFirst().orElseThrow();
            assertThat(inLines.line()).isEqualTo(3);
            assertThat(inLines.message()).contains("Duplicate field 'content'");
            ImportProblem inDocument = r.fatal().stream().filter(p -> p.file().equals(document)).findFirst()
                    .orElseThrow();
            assertThat(inDocument.message()).contains("Duplicate field 'role'");
            assertThat(inDocument.line() == 3 || inDocument.message().contains("line 3"))
                    .as("the line is named: %s", inDocument.describe()).isTrue();
            assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
        }
    }

    @Test
    void concurrentImportsOfTheSameSources_makeOneSessionEach() throws Exception {
        for (int i = 0; i < 12; i++) {
            write("in/s" + i + ".jsonl", pi(String.format(Locale.ROOT, "0199a1b2-c3d4-7e5f-8a9b-%012d", i), "\"hello " + i + "\""));
        }
        String uri = "sqlite:" + dir.resolve("p.db");
        Stores.open(uri).close();
        ConcurrentLinkedQueue<ImportProblem> problems = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try (Store log = Stores.open(uri)) {
                    problems.addAll(importInto(log, dir.resolve("in")).fatal());
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(problems).isEmpty();
        try (Store log = Stores.open(uri)) {
            List<SessionInfo> sessions = log.catalog().orElseThrow().list(null, 100).sessions();
            assertThat(sessions).hasSize(12).allSatisfy(s -> assertThat(s.entryCount()).isEqualTo(2));
        }
    }

    @Test
    void aForeignFileInAJsonlStore_doesNotHideTheOtherSessions() throws Exception {
        try (Store log = Stores.open("jsonl:" + dir.resolve("store"))) {
            importInto(log, write("a.jsonl", pi("0199a1b2-c3d4-7e5f-8a9b-000000000001", "\"hi\"")));
        }
        Files.writeString(dir.resolve("store/notes.jsonl"), "{\"not\":\"a session\"}\n");
        try (Store log = Stores.open("jsonl:" + dir.resolve("store"))) {
            assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
        }
    }

    @Test
    void deleteInAJsonlStore_leavesSessionsWhoseIdsExtendItsFileName() throws Exception {
        try (Store log = Stores.open("jsonl:" + dir.resolve("store"))) {
            importInto(log, write("1.jsonl", pi("s", "\"one\"")), write("2.jsonl", pi("s.jsonl", "\"two\"")),
                    write("3.jsonl", pi("s.jsonl.torn-5", "\"three\"")));
            assertThat(log.catalog().orElseThrow().delete(new SessionId("s"))).isTrue();
            assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).extracting(i -> i.id().value())
                    .containsExactlyInAnyOrder("s.jsonl", "s.jsonl.torn-5");
        }
    }

    @Test
    void deeplyNestedSource_isRejectedWithItsLine_orStoredReadably() throws Exception {
        String deep = "[".repeat(990) + "1" + "]".repeat(990);
        String tooDeep = "[".repeat(1100) + "1" + "]".repeat(1100);
        String ok = pi("0199a1b2-c3d4-7e5f-8a9b-00000000dee9", "\"a\"").replace("\"cwd\":\"/\"", "\"cwd\":" + deep);
        String bad = pi("0199a1b2-c3d4-7e5f-8a9b-00000000dee8", "\"a\"").replace("\"cwd\":\"/\"", "\"cwd\":" + tooDeep);
        try (Store log = Stores.open("sqlite:" + dir.resolve("p.db"))) {
            Recorder r = importInto(log, write("ok.jsonl", ok), write("bad.jsonl", bad));
            assertThat(r.fatal()).singleElement().satisfies(p -> {
                assertThat(p.file().getFileName().toString()).isEqualTo("bad.jsonl");
                assertThat(p.message()).contains("1101 levels deep");
            });
            String back = new Exporter(log).export(new SessionId("0199a1b2-c3d4-7e5f-8a9b-00000000dee9"), Format.PI, null);
            assertThat(Json.same(Json.parse(back.lines().findFirst().orElseThrow()), Json.parse(ok.lines().findFirst()
                    .orElseThrow()))).isTrue();
        }
    }

    /**
     * Found by a review: a last line without its newline that was whole but beyond the reader's limits (a message of
     * over 64 Mi characters, nesting deeper than the limit) was taken for a write cut short, left out with a warning,
     * and the rest of the file imported without it.
     */
    @Test
    void lastLineBeyondTheLimits_refusesTheFile_notLeftOutAsCutShort() throws Exception {
        int levels = Json.MAX_DEPTH + 100;
        String deep = "{\"type\":\"custom\",\"data\":" + "[".repeat(levels) + "]".repeat(levels) + "}";
        Path file = write("deep-last.jsonl", pi("0199a1b2-c3d4-7e5f-8a9b-00000000dee7", "\"a\"").strip() + "\n" + deep);
        Recorder r = importInto(MemoryStore.open(), file);
        assertThat(r.fatal()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(file);
            assertThat(p.message()).contains("too large to read");
        });
        assertThat(r.sessions).isEmpty();
    }

    @Test
    void contentTheModelRefuses_rejectsThatFileOnly_namingIt() throws Exception {
        Path blank = write("blank.json", "[{\"role\":\"\",\"content\":\"x\"}]");
        Path fine = write("fine.json", "[{\"role\":\"user\",\"content\":\"x\"}]");
        Store log = MemoryStore.open();
        Recorder r = importInto(log, blank, fine);
        assertThat(r.fatal()).singleElement().satisfies(p -> assertThat(p.file()).isEqualTo(blank));
        assertThat(r.sessions).hasSize(1);
    }

    @Test
    void piIdThatLooksSynthesized_doesNotCollide() throws Exception {
        String text = pi("0199a1b2-c3d4-7e5f-8a9b-000000000077", "\"a\"", "\"b\"")
                .replace("\"id\":\"00000001\"", "\"id\":\"line-2\"").replace("\"id\":\"00000000\"", "\"id\":\"bad id\"")
                .replace("\"parentId\":\"00000000\"", "\"parentId\":\"bad id\"");
        Recorder r = importInto(MemoryStore.open(), write("p.jsonl", text));
        assertThat(r.fatal()).isEmpty();
    }

    @Test
    void parleyExportWithADanglingParent_storesNothing() throws Exception {
        String export = "{\"type\":\"session\",\"version\":1,\"id\":\"x1\",\"createdAt\":\"2025-01-01T00:00:00.000Z\"}\n"
                + "{\"type\":\"entry\",\"seq\":1,\"id\":\"a\",\"parentId\":null,\"agent\":\"main\",\"kind\":\"message\","
                + "\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n"
                + "{\"type\":\"entry\",\"seq\":2,\"id\":\"b\",\"parentId\":\"ghost\",\"agent\":\"main\",\"kind\":\"message\","
                + "\"message\":{\"role\":\"user\",\"content\":\"y\"}}\n";
        Store log = MemoryStore.open();
        Recorder r = importInto(log, write("x.jsonl", export));
        assertThat(r.fatal()).singleElement().satisfies(p -> assertThat(p.line()).isEqualTo(3));
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
    }

    @Test
    void tornLastLineCutInsideACharacter_isAWarning() throws Exception {
        byte[] good = pi("0199a1b2-c3d4-7e5f-8a9b-000000000078", "\"a\"").getBytes(StandardCharsets.UTF_8);
        byte[] torn = "{\"type\":\"message\",\"text\":\"😀".getBytes(StandardCharsets.UTF_8);
        Path file = dir.resolve("t.jsonl");
        Files.write(file, good);
        Files.write(file, java.util.Arrays.copyOf(torn, torn.length - 2), StandardOpenOption.APPEND);
        Recorder r = importInto(MemoryStore.open(), file);
        assertThat(r.fatal()).isEmpty();
        assertThat(r.problems).singleElement().satisfies(p -> assertThat(p.fatal()).isFalse());
    }

    /**
     * {@code --format claude-code} took any file of JSON objects for a session: {@code {"foo":1}} (or an empty file)
     * was stored as a session of 1 entry and 0 messages, where pi, Codex or the chat formats refuse it. Every forced
     * format now refuses a file it does not fit, and says so the same way.
     */
    @Test
    void forcedClaudeCodeFormat_storedAFileOfNoClaudeCodeRecordsAsASession() throws Exception {
        Path random = write("in/random.json", "{\"foo\":1}\n");
        Path empty = write("in/empty.jsonl", "");
        Store store = MemoryStore.open();
        Recorder claude = importForced(store, Format.CLAUDE_CODE, random);
        assertThat(claude.sessions).isEmpty();
        assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
        assertThat(claude.fatal()).singleElement().satisfies(p -> assertThat(p.describe()).isEqualTo(random
                + ":1: --format claude-code does not fit: a Claude Code session file has records with a \"uuid\", "
                + "\"sessionId\" or \"parentUuid\""));
        for (Format forced : Format.values()) {
            for (Path file : List.of(random, empty)) {
                Recorder r = importForced(store, forced, file);
                String as = file.getFileName() + " as " + forced;
                assertThat(r.sessions).as(as).isEmpty();
                assertThat(r.fatal()).as(as).singleElement().satisfies(p -> assertThat(p.message()).as(as)
                        .matches(file == empty ? "--format " + forced + " does not fit: .*|not valid JSON: .*"
                                : "--format " + forced + " does not fit: .*"));
            }
        }
        assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
    }

    static Recorder importForced(Store store, Format forced, Path file) {
        Recorder r = new Recorder();
        new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(file), forced, r);
        return r;
    }

    @Test
    void malformedFileInADirectory_isAnError_notASkip() throws Exception {
        write("d/broken.jsonl", "{\"type\": oops\n");
        write("d/package.json", "{\"name\":\"not a transcript\"}");
        Recorder r = importInto(MemoryStore.open(), dir.resolve("d"));
        assertThat(r.fatal()).singleElement().satisfies(p -> assertThat(p.file().getFileName().toString())
                .isEqualTo("broken.jsonl"));
        assertThat(r.problems).anySatisfy(p -> assertThat(p.message()).startsWith("skipped"));
    }

    @Test
    void chatFileThatGrewInPlace_isUpdated_notDuplicated() throws Exception {
        Path file = write("c.json", "[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":\"b\"}]");
        Store log = MemoryStore.open();
        importInto(log, file);
        Files.writeString(file, "[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":\"b\"},"
                + "{\"role\":\"user\",\"content\":\"c\"}]");
        Recorder again = importInto(log, file);
        assertThat(again.sessions.get(0).status()).isEqualTo(ImportResult.Status.UPDATED);
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).singleElement().satisfies(s -> assertThat(s.entryCount()).isEqualTo(3));
    }

    @Test
    void claudeMainFileByPath_bringsItsSubagents() throws Exception {
        String sid = "aaaaaaaa-0000-4000-8000-000000000000";
        Path main = write(sid + ".jsonl", ImporterTest.U1);
        write(sid + "/subagents/agent-a7.jsonl", "{\"type\":\"user\",\"uuid\":\"22222222-0000-4000-8000-000000000001\","
                + "\"parentUuid\":null,\"isSidechain\":true,\"agentId\":\"a7\",\"sessionId\":\"" + sid
                + "\",\"message\":{\"role\":\"user\",\"content\":\"side\"}}");
        Recorder r = importInto(MemoryStore.open(), main);
        assertThat(r.sessions.get(0).agents()).extracting(a -> a.agent().value()).containsExactly("main", "a7");
    }

    @Test
    void aJsonlStoresOwnFiles_canBeImported() throws Exception {
        SessionId s = new SessionId("0199a1b2-c3d4-7e5f-8a9b-000000000079");
        try (Store log = Stores.open("jsonl:" + dir.resolve("store"))) {
            importInto(log, write("p.jsonl", pi(s.value(), "\"a\"", "\"b\"", "\"c\"")));
            log.log().persistUsage(s, AgentId.MAIN, dev.parley.core.model.Usage.of(5, 6));
        }
        try (Store sqlite = Stores.open("sqlite:" + dir.resolve("p.db"))) {
            Recorder r = importInto(sqlite, dir.resolve("store").resolve(s.value() + ".jsonl"));
            assertThat(r.fatal()).isEmpty();
            assertThat(sqlite.log().load(s, null)).hasSize(4);
        }
    }

    @Test
    void loneSurrogates_roundTripExactly() throws Exception {
        String text = pi("0199a1b2-c3d4-7e5f-8a9b-000000000080", "\"\\ud800 lone \\udfff and 😀\"");
        for (String store : List.of("sqlite:" + dir.resolve("s.db"), "jsonl:" + dir.resolve("j"))) {
            try (Store log = Stores.open(store)) {
                importInto(log, write("lone.jsonl", text));
                String back = new Exporter(log).export(new SessionId("0199a1b2-c3d4-7e5f-8a9b-000000000080"), Format.PI, null);
                assertThat(Json.same(Json.parse(back.split("\n")[1]), Json.parse(text.split("\n")[1]))).as(store).isTrue();
            }
        }
    }

    /** Found by a newcomer's trial: an export's note read "a openai-chat conversation is one path of the tree". */
    @Test
    void formatNames_takeTheirArticle() {
        assertThat(Format.OPENAI_CHAT.withArticle()).isEqualTo("an openai-chat");
        assertThat(Format.AIDER.withArticle()).isEqualTo("an aider");
        assertThat(Format.CODEX.withArticle()).isEqualTo("a codex");
        assertThat(Format.CLAUDE_CODE.withArticle()).isEqualTo("a claude-code");
    }
}
