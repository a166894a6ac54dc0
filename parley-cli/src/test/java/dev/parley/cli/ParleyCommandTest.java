package dev.parley.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.agent.memory.MemoryIds;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.NewSession;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.json.Json;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.MessageLogScenarios;
import dev.parley.tck.Scenario;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line, run in-process against real SQLite and JSONL stores in a temporary directory. */
class ParleyCommandTest {
    @TempDir
    Path dir;

    CliRun parley(String... args) {
        return CliRun.run(args);
    }

    Path write(String name, String... lines) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    static String piSession(String id, int turns) {
        StringBuilder s = new StringBuilder("{\"type\":\"session\",\"version\":3,\"id\":\"" + id
                + "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n");
        String parent = null;
        for (int i = 0; i < turns; i++) {
            String u = String.format(Locale.ROOT, "%08x", i * 2);
            String a = String.format(Locale.ROOT, "%08x", i * 2 + 1);
            s.append("{\"type\":\"message\",\"id\":\"").append(u).append("\",\"parentId\":")
                    .append(parent == null ? "null" : "\"" + parent + "\"")
                    .append(",\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"q")
                    .append(i).append("\",\"timestamp\":1735689601000}}\n");
            s.append("{\"type\":\"message\",\"id\":\"").append(a).append("\",\"parentId\":\"").append(u)
                    .append("\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"message\":{\"role\":\"assistant\",")
                    .append("\"content\":[{\"type\":\"text\",\"text\":\"a").append(i)
                    .append("\"}],\"provider\":\"anthropic\",\"model\":\"m\",\"stopReason\":\"stop\",\"timestamp\":1735689602000}}\n");
            parent = a;
        }
        return s.toString();
    }

    @Test
    void importSessionsShowExportDelete_onSqlite() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        for (int i = 0; i < 7; i++) {
            write("in/s" + i + ".jsonl", piSession(String.format(Locale.ROOT, "0199a1b2-c3d4-7e5f-8a9b-%012d", i), 2 + i).strip());
        }
        CliRun imported = parley("--store", store, "import", "--json", dir.resolve("in").toString());
        assertThat(imported.exit()).as(imported.err()).isZero();
        List<JsonNode> rows = new ArrayList<>();
        for (String line : imported.out().split("\n")) {
            rows.add(Json.parse(line));
        }
        assertThat(rows).hasSize(7).allSatisfy(r -> {
            assertThat(r.get("status").asText()).isEqualTo("imported");
            assertThat(r.get("format").asText()).isEqualTo("pi");
            assertThat(r.get("agents").get(0).get("source").asText()).endsWith(".jsonl");
        });
        assertThat(rows.get(0).get("entries").asInt()).isEqualTo(5);

        // --store after the subcommand works too; the walk visits every session exactly once
        Set<String> seen = new HashSet<>();
        String cursor = null;
        int pages = 0;
        do {
            CliRun page = cursor == null ? parley("sessions", "--store", store, "--limit", "3", "--json")
                    : parley("sessions", "--store", store, "--limit", "3", "--json", "--cursor", cursor);
            JsonNode o = Json.parse(page.out());
            o.get("sessions").forEach(s -> assertThat(seen.add(s.get("session").asText())).isTrue());
            cursor = o.get("nextCursor").isNull() ? null : o.get("nextCursor").asText();
            pages++;
        } while (cursor != null);
        assertThat(seen).hasSize(7);
        assertThat(pages).isEqualTo(3);

        CliRun show = parley("--store", store, "show", "0199a1b2-c3d4-7e5f-8a9b-000000000003", "--json");
        JsonNode conversation = Json.parse(show.out());
        assertThat(conversation.get("messages")).hasSize(10);
        assertThat(conversation.get("danglingUser").isNull()).isTrue();
        assertThat(parley("--store", store, "show", "0199a1b2-c3d4-7e5f-8a9b-000000000003").out()).contains("─── user");

        Path out = dir.resolve("back.jsonl");
        assertThat(parley("--store", store, "export", "0199a1b2-c3d4-7e5f-8a9b-000000000002", "--format", "pi",
                "-o", out.toString()).exit()).isZero();
        List<String> back = Files.readAllLines(out);
        List<String> source = Files.readAllLines(dir.resolve("in/s2.jsonl"));
        assertThat(back).hasSameSizeAs(source);
        for (int i = 0; i < source.size(); i++) {
            assertThat(Json.same(Json.parse(back.get(i)), Json.parse(source.get(i)))).as("line %d", i + 1).isTrue();
        }

        assertThat(parley("--store", store, "import", dir.resolve("in").toString()).out())
                .contains("unchanged").doesNotContain("imported ");

        CliRun ambiguous = parley("--store", store, "show", "0199a1b2");
        assertThat(ambiguous.exit()).isEqualTo(2);
        assertThat(ambiguous.err()).contains("matches several sessions");

        assertThat(parley("--store", store, "delete", "0199a1b2-c3d4-7e5f-8a9b-000000000006").exit()).isZero();
        CliRun gone = parley("--store", store, "show", "0199a1b2-c3d4-7e5f-8a9b-000000000006");
        assertThat(gone.exit()).isEqualTo(3);
        assertThat(gone.err()).contains("no session");
    }

    /**
     * A LangChain4j or Spring AI memory id that is no session id ({@code alice@example.com}) was refused as an invalid
     * session id; the commands that read or delete a session find the session its memory is stored in, and only one
     * whose catalog metadata names that memory.
     */
    @Test
    void show_aFrameworkMemoryIdThatIsNoSessionId_showsTheSessionItsMemoryIsStoredIn() {
        String store = "sqlite:" + dir.resolve("memory.db");
        SessionId alice = MemoryIds.sessionId("alice@example.com");
        SessionId notBobs = MemoryIds.sessionId("bob@example.com");
        try (Store s = Stores.open(store)) {
            s.catalog().orElseThrow().create(new NewSession(alice, "langchain4j memory alice@example.com", null,
                    Map.of(MemoryIds.METADATA_KEY, RawJson.of("{\"id\":\"alice@example.com\",\"framework\":\"langchain4j\"}"))));
            s.log().append(alice, new AgentId("memory"), List.of(NewEntry.of(new EntryId("m1"), null, Instant.now(),
                    Message.user("remember the milk"))), Usage.ZERO);
            s.log().append(notBobs, AgentId.MAIN, List.of(NewEntry.of(new EntryId("m2"), null, Instant.now(),
                    Message.user("a session under bob's hashed id, made by other means"))), Usage.ZERO);
        }
        CliRun show = parley("--store", store, "show", "alice@example.com");
        assertThat(show.exit()).as(show.err()).isZero();
        assertThat(show.out()).contains(alice.value()).contains("remember the milk");

        CliRun bob = parley("--store", store, "show", "bob@example.com");
        assertThat(bob.exit()).isEqualTo(dev.parley.core.ErrorCode.INVALID_INPUT.exitCode());
        assertThat(bob.err()).contains("invalid session id 'bob@example.com'")
                .contains("nor is it the id of a LangChain4j or Spring AI memory stored here").contains(notBobs.value());
        CliRun chat = parley("--store", store, "chat", "alice@example.com", "--prompt", "hi");
        assertThat(chat.exit()).as("chat writes: it does not take a memory id").isNotZero();
        assertThat(chat.err()).contains("invalid session id 'alice@example.com'");
    }

    @Test
    void badInput_exitsNonZero_namesFileAndLine_andStillImportsTheOthers() throws Exception {
        String store = "jsonl:" + dir.resolve("store");
        Path good = write("good.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-000000000001", 1).strip());
        String[] lines = piSession("0199a1b2-c3d4-7e5f-8a9b-000000000002", 2).split("\n");
        lines[2] = "{not json";
        Path bad = write("bad.jsonl", lines);
        CliRun r = parley("--store", store, "import", good.toString(), bad.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains(bad + ":3");
        assertThat(r.out()).contains("0199a1b2-c3d4-7e5f-8a9b-000000000001");
        CliRun list = parley("--store", store, "sessions", "--json");
        assertThat(Json.parse(list.out()).get("sessions")).hasSize(1);
    }

    /**
     * Found by a newcomer's trial: the README says a framework memory's original id is kept in its session's
     * metadata, but {@code sessions --json} did not show a session's metadata at all.
     */
    @Test
    void sessionsJson_showsTheSessionsMetadata() throws Exception {
        String store = "sqlite:" + dir.resolve("meta.db");
        try (dev.parley.core.store.Store opened = dev.parley.core.store.Stores.open(store)) {
            opened.catalog().orElseThrow().create(new dev.parley.core.log.NewSession(
                    new dev.parley.core.SessionId("with-meta"), null, null,
                    java.util.Map.of("parley.memory", dev.parley.core.RawJson.of("{\"id\":\"alice@example.com\"}"))));
            opened.catalog().orElseThrow().create(new dev.parley.core.log.NewSession(
                    new dev.parley.core.SessionId("without"), null, null, java.util.Map.of()));
        }
        CliRun list = parley("--store", store, "sessions", "--json");
        assertThat(list.exit()).as(list.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode sessions = Json.parse(list.out()).get("sessions");
        for (com.fasterxml.jackson.databind.JsonNode s : sessions) {
            if (s.get("session").asText().equals("with-meta")) {
                assertThat(s.at("/metadata/parley.memory/id").asText()).isEqualTo("alice@example.com");
            } else {
                assertThat(s.has("metadata")).isFalse();
            }
        }
        assertThat(sessions).hasSize(2);
    }

    /** Issue 14, break 9: a 129-character or {@code ..} session id was "no session" (exit 3), not an invalid id. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"sqlite", "jsonl"})
    void sessionIdsThatCannotBeIds_areInvalidInput_notMissingSessions(String scheme) throws Exception {
        String store = scheme + ":" + dir.resolve(scheme.equals("sqlite") ? "p.db" : "store");
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-000000000001", 1).strip());
        assertThat(parley("--store", store, "import", dir.resolve("in").toString()).exit()).isZero();
        for (String bad : List.of("..", "x".repeat(129), "../p", "a/b")) {
            for (String[] command : List.of(new String[] {"show", bad}, new String[] {"tree", bad},
                    new String[] {"export", bad, "--format", "pi"}, new String[] {"delete", bad})) {
                List<String> args = new java.util.ArrayList<>(List.of("--store", store));
                args.addAll(List.of(command));
                CliRun run = parley(args.toArray(String[]::new));
                assertThat(run.exit()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(2);
                assertThat(run.err()).contains("invalid session id");
            }
        }
    }

    /** Regression: read-only commands created an empty SQLite database at a mistyped path once stores were found by URI. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"sqlite", "jsonl"})
    void readOnlyCommands_onAMissingStore_reportItAndCreateNothing(String scheme) {
        Path missing = dir.resolve("typo").resolve(scheme.equals("sqlite") ? "p.db" : "store");
        for (String[] command : List.of(new String[] {"sessions"}, new String[] {"show", "abc"},
                new String[] {"tree", "abc"}, new String[] {"delete", "abc"}, new String[] {"browse", "--port", "0"})) {
            String[] args = new String[command.length + 2];
            args[0] = "--store";
            args[1] = scheme + ":" + missing;
            System.arraycopy(command, 0, args, 2, command.length);
            CliRun run = parley(args);
            assertThat(run.exit()).as(String.join(" ", args)).isEqualTo(3);
            assertThat(run.err()).contains("no store at");
        }
        assertThat(missing).doesNotExist();
        assertThat(dir.resolve("typo")).doesNotExist();
    }

    /**
     * Found by a break-it pass: JSONL:/path was refused as having no scheme (and sqlite:JSONL:/path suggested), though
     * a URI's scheme is case-insensitive; sqlite/tmp/x.db, the colon left out, got sqlite:sqlite/tmp/x.db suggested.
     */
    @Test
    void storeUriSchemeInCapitals_isTheScheme_andAMissingColonIsSuggestedInItsPlace() throws Exception {
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-00000000000e", 1).strip());
        Path store = dir.resolve("upper");
        CliRun upper = parley("--store", "JSONL:" + store, "import", dir.resolve("in").toString());
        assertThat(upper.exit()).as(upper.err()).isZero();
        assertThat(parley("--store", "jsonl:" + store, "sessions").out()).contains("0199a1b2-c3d4-7e5f-8a9b-00000000000e");

        CliRun noColon = parley("--store", "sqlite" + dir.resolve("x.db"), "sessions");
        assertThat(noColon.exit()).isEqualTo(2);
        assertThat(noColon.err()).contains("did you mean sqlite:" + dir.resolve("x.db") + "?");
    }

    /**
     * Found by a break-it pass: sessions on an empty file (touch x.db) said "no sessions" and wrote a database of
     * 180 KB into it, where a command that only reads reports a missing store and creates nothing.
     */
    @Test
    void readingAStoreThatIsAnEmptyFile_isNoStore_andLeavesTheFileEmpty() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.db"));
        CliRun run = parley("--store", "sqlite:" + empty, "sessions");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("no store at sqlite:" + empty);
        assertThat(Files.size(empty)).isZero();
    }

    /** Regression: a bare path as --store said the URI "has no scheme" without naming the URI meant. */
    @Test
    void storeGivenAsABarePath_suggestsTheLikelyUri() throws Exception {
        Path db = dir.resolve("x.db");
        CliRun file = parley("--store", db.toString(), "sessions");
        assertThat(file.exit()).isEqualTo(2);
        assertThat(file.err()).contains("has no scheme").contains("did you mean sqlite:" + db + "?");
        Path directory = Files.createDirectories(dir.resolve("sessions"));
        CliRun folder = parley("--store", directory.toString(), "sessions");
        assertThat(folder.exit()).isEqualTo(2);
        assertThat(folder.err()).contains("did you mean jsonl:" + directory + "?");
        assertThat(parley("--store", "nonsense", "sessions").err()).doesNotContain("did you mean");
        assertThat(db).doesNotExist();
    }

    /**
     * Found by a review: a quoted ~/x.db as --store got sqlite:~/x.db suggested, which names a directory called ~ and
     * is refused; and jsonl/sessions, an existing relative directory, got jsonl:/sessions, another place.
     */
    @Test
    void barePathSuggestion_writesTildeAsHome_andKeepsAnExistingRelativePathWhole() throws Exception {
        CliRun tilde = parley("--store", "~/parley-test-nowhere.db", "sessions");
        assertThat(tilde.exit()).isEqualTo(2);
        assertThat(tilde.err()).contains("did you mean sqlite:$HOME/parley-test-nowhere.db?");

        // a directory named like a scheme, relative to the working directory (the module's, under Maven)
        Path relative = Path.of("jsonl", "sessions-" + System.nanoTime());
        Files.createDirectories(relative);
        try {
            CliRun run = parley("--store", relative.toString(), "sessions");
            assertThat(run.err()).contains("did you mean jsonl:" + relative + "?");
        } finally {
            Files.delete(relative);
            Files.deleteIfExists(relative.getParent());
        }
    }

    /** Regression: a read on sqlite: without a path said "no store at sqlite:" (exit 3) while a write said it needs a path. */
    @Test
    void storeUriWithoutAPath_isIncomplete_forReadsAsForWrites() {
        for (String[] uriAndWant : List.of(new String[] {"sqlite:", "sqlite: needs a file path"},
                new String[] {"jsonl:", "jsonl: needs a directory"})) {
            for (String[] command : List.of(new String[] {"sessions"}, new String[] {"import", dir.toString()})) {
                CliRun run = parley(Stream.concat(Stream.of("--store", uriAndWant[0]), Arrays.stream(command))
                        .toArray(String[]::new));
                assertThat(run.exit()).as(uriAndWant[0] + " " + command[0]).isEqualTo(2);
                assertThat(run.err()).as(uriAndWant[0] + " " + command[0]).contains(uriAndWant[1])
                        .doesNotContain("no store at");
            }
        }
    }

    /**
     * Found by a newcomer's trial: sqlite:~/x.db (as docs/10 showed it) named a directory called ~ under the working
     * directory, since neither the shell nor Parley expands a ~ after the scheme; a write said that directory did not
     * exist, a read that there was no store. Now it is invalid input that says how to write it.
     */
    @Test
    void storeUriWithATilde_isInvalid_andSaysToWriteThePathOut() {
        for (String uri : List.of("sqlite:~/x.db", "jsonl:~/sessions")) {
            for (List<String> command : List.of(List.of("sessions"), List.of("chat", "--prompt", "hi"))) {
                CliRun run = parley(Stream.concat(Stream.of("--store", uri), command.stream()).toArray(String[]::new));
                assertThat(run.exit()).as(uri + " " + command).isEqualTo(2);
                assertThat(run.err()).as(uri + " " + command).contains("is not expanded")
                        .contains(uri.replace("~", "$HOME"));
            }
        }
        assertThat(Path.of("~")).doesNotExist(); // the working directory
    }

    /**
     * Found by a breaker: a parameter that is not Parley's on a sqlite: or jsonl: URI (a misspelt one, or one SQLite's
     * driver takes) became part of the path, so sqlite:a.db?journal_mode=DELETE wrote a file named
     * "a.db?journal_mode=DELETE", and a read of the same URI said there was no store at a.db.
     */
    @Test
    void storeUriWithAParameterThatIsNotParleys_isInvalid_andNothingIsCreated() {
        for (String uri : List.of("sqlite:" + dir.resolve("a.db") + "?journal_mode=DELETE",
                "jsonl:" + dir.resolve("js") + "?foo=1", "sqlite:" + dir.resolve("b.db") + "?parley.scope=t&foo=bar",
                "sqlite:" + dir.resolve("c.db") + "?key=hunter2")) {
            for (List<String> command : List.of(List.of("chat", "--prompt", "hi"), List.of("sessions"))) {
                CliRun run = parley(Stream.concat(Stream.of("--store", uri), command.stream()).toArray(String[]::new));
                assertThat(run.exit()).as(uri + " " + command + ": " + run.err()).isEqualTo(2);
                assertThat(run.err()).as(uri + " " + command).contains("parameter").doesNotContain("hunter2");
            }
        }
        try (Stream<Path> created = Files.list(dir)) {
            assertThat(created.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("?"))
                    .noneMatch(n -> n.equals("a.db") || n.equals("b.db") || n.equals("c.db") || n.equals("js"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Regression: a write to sqlite:/nonexistent/dir/x.db created the missing directories of a mistyped path. */
    @Test
    void storeInAMissingDirectory_isRefused_andNoDirectoryIsCreated() throws Exception {
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-00000000000a", 1).strip());
        Path missing = dir.resolve("nonexistent").resolve("dir");
        for (String uri : List.of("sqlite:" + missing.resolve("x.db"), "jsonl:" + missing.resolve("store"))) {
            for (String[] command : List.of(new String[] {"import", dir.resolve("in").toString()},
                    new String[] {"restore", "--from", dir.resolve("in").toString()})) {
                CliRun run = parley(Stream.concat(Stream.of("--store", uri), Arrays.stream(command))
                        .toArray(String[]::new));
                assertThat(run.exit()).as(uri + " " + command[0]).isEqualTo(2);
                assertThat(run.err()).as(uri + " " + command[0]).contains("cannot create the store " + uri
                        + ": the directory " + missing + " does not exist");
            }
        }
        assertThat(dir.resolve("nonexistent")).doesNotExist();
        // the file (or directory) itself is still created in a directory that exists
        assertThat(parley("--store", "sqlite:" + dir.resolve("x.db"), "import", dir.resolve("in").toString()).exit())
                .isZero();
        assertThat(dir.resolve("x.db")).isRegularFile();
    }

    /**
     * Found by a newcomer's trial: backup --to into a missing directory created it, where export -o and the store
     * commands refuse a mistyped path.
     */
    @Test
    void backupIntoAMissingDirectory_isRefused_andNoDirectoryIsCreated() throws Exception {
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-00000000000b", 1).strip());
        String store = "sqlite:" + dir.resolve("b.db");
        assertThat(parley("--store", store, "import", dir.resolve("in").toString()).exit()).isZero();
        Path missing = dir.resolve("nonexistent");
        CliRun run = parley("--store", store, "backup", "--to", missing.resolve("copy.db").toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("the directory " + missing + " does not exist");
        assertThat(missing).doesNotExist();
        assertThat(parley("--store", store, "backup", "--to", dir.resolve("copy.db").toString()).exit()).isZero();
    }

    /**
     * Found by a newcomer's trial: backup of a mistyped store path created an empty store there, backed it up and
     * exited 0, where every other command that reads a store says there is none.
     */
    @Test
    void backupOfAStoreThatDoesNotExist_isNotFound_andCreatesNothing() {
        for (String store : List.of("sqlite:" + dir.resolve("absent.db"), "jsonl:" + dir.resolve("absent"))) {
            CliRun run = parley("--store", store, "backup", "--to", dir.resolve("copy").toString());
            assertThat(run.exit()).as(store).isEqualTo(3);
            assertThat(run.err()).contains("no store at " + store);
            assertThat(dir.resolve("absent.db")).doesNotExist();
            assertThat(dir.resolve("absent")).doesNotExist();
            assertThat(dir.resolve("copy")).doesNotExist();
        }
    }

    /** Regression: counts of one read "1 entries, 1 messages" (import, show, tree). */
    @Test
    void countsOfOne_areSingular() throws Exception {
        String id = "0199a1b2-c3d4-7e5f-8a9b-00000000000c";
        write("one/s.jsonl", "{\"type\":\"session\",\"version\":3,\"id\":\"" + id
                + "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}",
                "{\"type\":\"message\",\"id\":\"00000000\",\"parentId\":null,\"timestamp\":\"2025-01-01T00:00:01.000Z\","
                        + "\"message\":{\"role\":\"user\",\"content\":\"q\",\"timestamp\":1735689601000}}");
        String store = "sqlite:" + dir.resolve("p.db");
        CliRun imported = parley("--store", store, "import", dir.resolve("one").toString());
        assertThat(imported.exit()).as(imported.err()).isZero();
        assertThat(imported.out()).contains("1 agent, 2 entries, 1 message  ");
        assertThat(imported.err()).contains("parley: 1 session imported, 0 updated, 0 unchanged, 0 failed; 1 message;");
        assertThat(parley("--store", store, "show", id).out()).contains("· 0 messages"); // a dangling prompt; 0 is plural
        assertThat(parley("--store", store, "show", id, "--all").out()).contains("· 1 agent · 1 message,");
        assertThat(parley("--store", store, "tree", id).out()).contains("· 2 entries · 1 leaf ·");
    }

    /**
     * Found by a newcomer's trial: a directory's files of no transcript shape were each reported as "skipped", but
     * the summary counted them nowhere ("0 failed", as if everything had been read).
     */
    @Test
    void importOfADirectory_countsTheFilesItSkipped() throws Exception {
        String id = "0199a1b2-c3d4-7e5f-8a9b-00000000000d";
        write("mixed/s.jsonl", "{\"type\":\"session\",\"version\":3,\"id\":\"" + id
                + "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}",
                "{\"type\":\"message\",\"id\":\"00000000\",\"parentId\":null,\"timestamp\":\"2025-01-01T00:00:01.000Z\","
                        + "\"message\":{\"role\":\"user\",\"content\":\"q\",\"timestamp\":1735689601000}}");
        write("mixed/MANIFEST.json", "{\"files\": []}");
        write("mixed/notes.json", "[1, 2, 3]");
        write("mixed/README.md", "# Where these came from"); // not an Aider history: counted, without a warning
        CliRun imported = parley("--store", "sqlite:" + dir.resolve("p.db"), "import", dir.resolve("mixed").toString());
        assertThat(imported.exit()).as(imported.err()).isZero();
        assertThat(imported.err()).contains("MANIFEST.json").contains("notes.json").doesNotContain("README.md")
                .contains("parley: 1 session imported, 0 updated, 0 unchanged, 0 failed, 3 files skipped; 1 message;");
        CliRun json = parley("--store", "sqlite:" + dir.resolve("p.db"), "import", "--json",
                dir.resolve("mixed").toString());
        String last = json.err().strip().lines().reduce((a, b) -> b).orElseThrow();
        assertThat(Json.parse(last).at("/summary/skipped").asInt()).isEqualTo(3);
    }

    /** Regression: serve on a port in use printed "serving …" and Javalin's error before its own, and created the store. */
    @Test
    void serveAndBrowse_onAPortInUse_failWithOneLine_beforeAnnouncingOrCreatingTheStore() throws Exception {
        Path db = dir.resolve("s.db");
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            String port = String.valueOf(taken.getLocalPort());
            for (String command : List.of("serve", "browse")) {
                CliRun run = parley("--store", "sqlite:" + db, command, "--port", port);
                assertThat(run.exit()).as(command).isEqualTo(7);
                assertThat(run.err()).as(command).isEqualTo("parley: cannot listen on 127.0.0.1:" + port
                        + ": Address already in use" + System.lineSeparator());
                assertThat(run.out()).as(command).isEmpty();
            }
        }
        assertThat(db).doesNotExist();
    }

    @Test
    void usageErrors_andUnknownStores_failClearly() {
        assertThat(parley("--store", "mongo:x", "sessions").err()).contains("unknown store scheme 'mongo'");
        assertThat(parley("--store", "mongo:x", "sessions").exit()).isEqualTo(2);
        assertThat(parley("--store", "memory:", "export", "x", "--format", "yaml").exit()).isEqualTo(2);
        assertThat(parley("--store", "memory:", "sessions", "--cursor", "garbage!").err()).contains("invalid catalog cursor");
        assertThat(parley("--store", "null:", "sessions").exit()).isEqualTo(9);
        assertThat(parley("frobnicate").exit()).isEqualTo(2);
        assertThat(parley("--help").out()).contains("import").contains("sessions").contains("export");
    }

    /** Regression: output that could not be written ({@code > /dev/full}, a full disk) exited 0 with nothing written. */
    @Test
    void outputThatCannotBeWritten_failsTheCommand() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), ParleyCommand.class.getName(), "--help")
                .redirectOutput(new java.io.File("/dev/full")).start();
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isEqualTo(7);
        assertThat(err).contains("parley: cannot write standard output: No space left on device");
    }

    /** Regression: {@code sessions --help} promised pages of up to 1000, and the catalog refused more than 200. */
    @Test
    void sessionsHelp_statesTheLimitTheCatalogEnforces() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Sessions per page, 1 to (\\d+)")
                .matcher(parley("sessions", "--help").out());
        assertThat(m.find()).isTrue();
        int max = Integer.parseInt(m.group(1));
        for (String catalog : new String[] {"--json", "--records"}) { // the message log's, then the records'
            assertThat(parley("--store", "memory:", "sessions", catalog, "--limit", String.valueOf(max)).exit())
                    .as(catalog).isZero();
            CliRun over = parley("--store", "memory:", "sessions", catalog, "--limit", String.valueOf(max + 1));
            assertThat(over.exit()).as(catalog).isEqualTo(2);
            assertThat(over.err()).contains(String.valueOf(max));
        }
    }

    /** Regression: {@code parley} alone printed the usage to the process's standard output and exited 0. */
    @Test
    void noCommand_isAUsageError_withTheUsageOnStandardError() {
        CliRun run = parley();
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("a command is required").contains("Usage: parley").contains("import");
        assertThat(run.out()).isEmpty();
        CliRun remote = parley("remote");
        assertThat(remote.exit()).isEqualTo(2);
        assertThat(remote.err()).contains("parley remote: a command is required").contains("status").contains("sync");
    }

    /**
     * Found by a newcomer's trial: a mistyped command or option was the one error without the "parley: " every other
     * error starts with, and a mistyped option was followed by the command's whole usage.
     */
    @Test
    void mistypedCommandOrOption_isAParleyError_withTheSuggestionOrWhereOptionsAreListed() {
        CliRun command = parley("sesions");
        assertThat(command.exit()).isEqualTo(2);
        assertThat(command.err()).startsWith("parley: Unmatched argument at index 0: 'sesions'")
                .contains("Did you mean: parley sessions");

        CliRun option = parley("--store", "memory:", "sessions", "--lmit", "3");
        assertThat(option.exit()).isEqualTo(2);
        assertThat(option.err()).startsWith("parley: Unknown options: '--lmit', '3'")
                .contains("parley sessions --help lists its options").doesNotContain("Usage:");
        assertThat(option.out()).isEmpty();
    }

    /**
     * Found by a newcomer's trial: {@code parley list}, the first name a newcomer tries for the catalog, was refused
     * with "Did you mean: parley restore?".
     */
    @Test
    void list_isTheSessionsCommand() {
        CliRun list = parley("--store", "memory:", "list");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).isEqualTo(parley("--store", "memory:", "sessions").out());
        assertThat(parley("--store", "memory:", "list", "--help").out()).contains("Usage: parley sessions");
    }

    /** Regression: the README and --help fell behind the code (backup, restore, remote:, ML-15…ML-18). */
    @Test
    void readmeAndHelp_nameEveryCommand_scheme_andScenario() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        for (CommandLine sub : new CommandLine(new ParleyCommand()).getSubcommands().values()) {
            String command = sub.getCommandName(); // an alias (list) is named in its command's row
            if (!command.equals("help")) {
                assertThat(readme).as("the README's command table").contains("| `parley " + command);
            }
        }
        String help = parley("--help").out();
        for (String scheme : Stores.providers().keySet()) {
            if (!scheme.equals(new ForgetfulStoreProvider().scheme())) { // a test store
                assertThat(help).as("--store in --help").contains(" " + scheme + ":");
            }
        }
        List<Scenario<MessageLogHarness>> log = MessageLogScenarios.all();
        Scenario<MessageLogHarness> last = log.get(log.size() - 1);
        assertThat(readme).contains("`" + last.id() + " " + last.name() + "`");
    }

    /**
     * Found by a break-it pass: export -o replaced an existing file by a rename, so the file lost its permissions
     * (0604 became 0644), its hard links kept the old content, and an empty name or a parent that is a file was
     * reported as "it is a directory" or "the directory … does not exist".
     */
    @Test
    void exportOverAnExistingFile_keepsItsPermissionsAndHardLinks() throws Exception {
        String store = "sqlite:" + dir.resolve("p.db");
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-00000000000e", 1).strip());
        assertThat(parley("--store", store, "import", dir.resolve("in").toString()).exit()).isZero();
        Path kept = write("kept.jsonl", "old");
        // permissions no umask gives a new file: the replacement must have taken them from the file it replaced
        Files.setPosixFilePermissions(kept, java.nio.file.attribute.PosixFilePermissions.fromString("rw----r--"));
        Path link = Files.createLink(dir.resolve("link.jsonl"), kept);

        CliRun export = parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o", kept.toString());
        assertThat(export.exit()).as(export.err()).isZero();
        assertThat(Files.readString(kept)).contains("0199a1b2-c3d4-7e5f-8a9b-00000000000e");
        assertThat(Files.readString(link)).isEqualTo(Files.readString(kept));
        Files.delete(link);
        Object before = Files.readAttributes(kept, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        assertThat(parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o", kept.toString()).exit())
                .isZero();
        // replaced through a new file (another inode), which took the old one's permissions, and nothing left beside
        assertThat(Files.readAttributes(kept, java.nio.file.attribute.BasicFileAttributes.class).fileKey())
                .isNotEqualTo(before);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)))
                .isEqualTo("rw----r--");
        try (java.util.stream.Stream<Path> beside = Files.list(dir)) {
            assertThat(beside.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".parley-tmp"));
        }

        CliRun empty = parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o", "");
        assertThat(empty.exit()).isEqualTo(2);
        assertThat(empty.err()).contains("-o needs a file name");
        CliRun underAFile = parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o",
                kept.resolve("child").toString());
        assertThat(underAFile.exit()).isEqualTo(2);
        assertThat(underAFile.err()).contains(kept + " is not a directory");
    }

    /**
     * Found by a newcomer's trial: an export to a path it cannot write printed its notes (which agent it chose, what the
     * format leaves out) as if it were going ahead, and only then refused the path.
     */
    @Test
    void exportToAPathItCannotWrite_isRefusedBeforeItsNotes() {
        String store = "sqlite:" + dir.resolve("p.db");
        assertThat(parley("--store", store, "import", "../examples/transcripts").exit()).isZero();
        CliRun toStdout = parley("--store", store, "export", "0199b7c2", "--format", "pi");
        assertThat(toStdout.exit()).as(toStdout.err()).isZero();
        assertThat(toStdout.err()).contains("parley: exporting agent main");

        CliRun noDirectory = parley("--store", store, "export", "0199b7c2", "--format", "pi", "-o",
                dir.resolve("missing/x.jsonl").toString());
        assertThat(noDirectory.exit()).isEqualTo(2);
        assertThat(noDirectory.err()).startsWith("parley: ").contains("does not exist")
                .doesNotContain("exporting agent").doesNotContain("export to pi:");
        CliRun aDirectory = parley("--store", store, "export", "0199b7c2", "--format", "pi", "-o", dir.toString());
        assertThat(aDirectory.exit()).isEqualTo(2);
        assertThat(aDirectory.err()).contains("it is a directory").doesNotContain("exporting agent");
    }

    /**
     * Found by a breaker: export -o the store's own database file replaced it with the exported transcript (exit 0),
     * and every session was gone; on a jsonl: store, -o onto a session's file replaced that session.
     */
    @Test
    void exportOntoTheStoresOwnFiles_isRefused_andTheStoreIsIntact() throws Exception {
        Path db = dir.resolve("p.db");
        Path jsonl = dir.resolve("js");
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-00000000000f", 1).strip());
        for (String store : List.of("sqlite:" + db, "jsonl:" + jsonl)) {
            assertThat(parley("--store", store, "import", dir.resolve("in").toString()).exit()).isZero();
        }
        Path sessionFile;
        try (java.util.stream.Stream<Path> files = Files.list(jsonl)) {
            sessionFile = files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).findFirst().orElseThrow();
        }
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("links")).resolve("q.db"), db);
        Map<String, List<Path>> targets = Map.of(
                "sqlite:" + db, List.of(db, dir.resolve("p.db-wal"), dir.resolve("./p.db")),
                "sqlite:" + link, List.of(dir.resolve("p.db-wal"), link, db),
                "jsonl:" + jsonl, List.of(sessionFile, jsonl.resolve("new-file.jsonl")));
        for (Map.Entry<String, List<Path>> t : targets.entrySet()) {
            for (Path target : t.getValue()) {
                CliRun export = parley("--store", t.getKey(), "export", "0199a1b2", "--format", "pi", "-o",
                        target.toString());
                assertThat(export.exit()).as(target + ": " + export.err()).isEqualTo(2);
                assertThat(export.err()).contains("store");
                CliRun sessions = parley("--store", t.getKey(), "sessions");
                assertThat(sessions.exit()).as(sessions.err()).isZero();
                assertThat(sessions.out()).contains("0199a1b2");
            }
        }
    }

    @Test
    void wrongKindsOfPathAndOutputFailAsInvalidInput() throws Exception {
        Path file = write("plain.txt", "x");
        Path directory = Files.createDirectories(dir.resolve("a-dir"));
        CliRun jsonlOnAFile = parley("--store", "jsonl:" + file, "sessions");
        assertThat(jsonlOnAFile.exit()).isEqualTo(2);
        assertThat(jsonlOnAFile.err()).contains("is a file, not a directory");
        CliRun sqliteOnADirectory = parley("--store", "sqlite:" + directory, "sessions");
        assertThat(sqliteOnADirectory.exit()).isEqualTo(2);
        assertThat(sqliteOnADirectory.err()).contains("is a directory, not a database file");

        String store = "sqlite:" + dir.resolve("p.db");
        write("in/s.jsonl", piSession("0199a1b2-c3d4-7e5f-8a9b-000000000009", 1).strip());
        assertThat(parley("--store", store, "import", dir.resolve("in").toString()).exit()).isZero();
        CliRun noDirectory = parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o",
                dir.resolve("missing/x.jsonl").toString());
        assertThat(noDirectory.exit()).isEqualTo(2);
        assertThat(noDirectory.err()).contains("does not exist");

        // Regression: "-o -" wrote a file named "-", and a named pipe was replaced by a regular file.
        CliRun dash = parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o", "-");
        assertThat(dash.exit()).isZero();
        assertThat(dash.out()).contains("0199a1b2-c3d4-7e5f-8a9b-000000000009");
        assertThat(Files.exists(Path.of("-"))).isFalse();
        Path fifo = dir.resolve("pipe");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        java.util.concurrent.CompletableFuture<byte[]> read = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readAllBytes(fifo);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(parley("--store", store, "export", "0199a1b2", "--format", "pi", "-o", fifo.toString()).exit())
                .isZero();
        assertThat(new String(read.get(30, java.util.concurrent.TimeUnit.SECONDS), StandardCharsets.UTF_8))
                .isEqualTo(dash.out());
        assertThat(Files.isRegularFile(fifo)).isFalse();

        CliRun wrongFormat = parley("--store", store, "import", "--format", "claude-code", dir.resolve("in").toString());
        assertThat(wrongFormat.exit()).isEqualTo(2);
        assertThat(wrongFormat.err()).contains("the file is a pi transcript");
        write("random.json", "{\"foo\":1}");
        CliRun noClaudeRecords = parley("--store", store, "import", "--format", "claude-code",
                dir.resolve("random.json").toString());
        assertThat(noClaudeRecords.exit()).isEqualTo(2);
        assertThat(noClaudeRecords.err()).contains("--format claude-code does not fit: a Claude Code session file")
                .contains("0 sessions imported, 0 updated, 0 unchanged, 1 failed");
    }
}
