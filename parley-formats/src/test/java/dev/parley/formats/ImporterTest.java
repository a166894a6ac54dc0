package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.ParleyException;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.ForwardingMessageLog;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.ForwardingStore;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Import behaviour on small crafted transcripts: bad input, idempotency, growth, Claude Code subagents. */
class ImporterTest {
    @TempDir
    Path dir;

    final Store log = MemoryStore.open();

    static final String U1 = "{\"type\":\"user\",\"uuid\":\"11111111-0000-4000-8000-000000000001\",\"parentUuid\":null,"
            + "\"sessionId\":\"aaaaaaaa-0000-4000-8000-000000000000\",\"timestamp\":\"2025-01-01T00:00:00.000Z\","
            + "\"cwd\":\"/p\",\"message\":{\"role\":\"user\",\"content\":\"hello\"}}";
    static final String A1 = "{\"type\":\"assistant\",\"uuid\":\"11111111-0000-4000-8000-000000000002\","
            + "\"parentUuid\":\"11111111-0000-4000-8000-000000000001\",\"sessionId\":\"aaaaaaaa-0000-4000-8000-000000000000\","
            + "\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"requestId\":\"req_1\",\"message\":{\"model\":\"claude-x\","
            + "\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],"
            + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1,"
            + "\"service_tier\":\"standard\"}}}";

    Path write(String name, String... lines) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    Recorder importPaths(Path... paths) {
        Recorder r = new Recorder();
        new Importer(log, IdGenerator.uuidV7()).importPaths(List.of(paths), null, r);
        return r;
    }

    String export(SessionId s, Format f, AgentId agent) {
        return new Exporter(log).export(s, f, agent);
    }

    /** A store whose log refuses every append, as a server refuses a body over its limit. */
    static Store refusingAppends(Store store) {
        return refusingAppends(store, () -> new InvalidInputException("refused by the test's store"));
    }

    /** A store whose log refuses every append with the error given. */
    static Store refusingAppends(Store store, java.util.function.Supplier<ParleyException> error) {
        MessageLog refusing = new ForwardingMessageLog(store.log()) {
            @Override
            public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
                throw error.get();
            }
        };
        return new ForwardingStore(store) {
            @Override
            public MessageLog log() {
                return refusing;
            }

            @Override
            public void close() {
                // the wrapped store is the test's to close
            }
        };
    }

    /**
     * Found by a break-it pass: a source whose appends the store refused left the session the import had created,
     * empty, reported as "imported" with the source's entry count beside the failure. It is stored whole or not at
     * all, as a Parley export already was: no session is left and none is reported.
     */
    @Test
    void appendsRefusedByTheStore_leaveNoSession_andReportNone() throws Exception {
        Path claude = write("claude.jsonl", U1, A1);
        Path chat = write("chat.json", "[{\"role\":\"user\",\"content\":\"hi\"}]");
        Recorder r = new Recorder();
        new Importer(refusingAppends(log), IdGenerator.uuidV7()).importPaths(List.of(claude, chat), null, r);

        assertThat(r.sessions).isEmpty();
        assertThat(r.fatal()).hasSize(2).allSatisfy(p -> assertThat(p.message()).contains("not stored")
                .contains("refused by the test's store"));
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
    }

    /**
     * Found by a break-it pass: a file the store could not take now (a read-only store) was reported as the file's
     * fault, so the command exited 2 (invalid input) instead of 7 (unavailable). The problem now carries the store's
     * error; a file's own problem carries none.
     */
    @Test
    void aFileTheStoreCannotTakeNow_carriesTheStoresError_andAFilesOwnProblemNone() throws Exception {
        Path claude = write("claude.jsonl", U1, A1);
        Path bad = write("bad.jsonl", U1, "{\"type\":\"user\", oops");
        Recorder r = new Recorder();
        new Importer(refusingAppends(log, () -> new dev.parley.core.UnavailableException("the disk is full", null)),
                IdGenerator.uuidV7()).importPaths(List.of(claude, bad), null, r);

        assertThat(r.fatal()).hasSize(2);
        assertThat(r.fatal()).filteredOn(p -> p.file().equals(claude)).singleElement()
                .satisfies(p -> assertThat(p.storeError()).isEqualTo(dev.parley.core.ErrorCode.UNAVAILABLE));
        assertThat(r.fatal()).filteredOn(p -> p.file().equals(bad)).singleElement()
                .satisfies(p -> assertThat(p.storeError()).isNull());
    }

    /**
     * Found by a break-it pass: a Claude Code record that reused an earlier record's uuid with other content was kept
     * under a made-up id (line-N) without a word, and became the active leaf.
     */
    @Test
    void aUuidReusedForADifferentRecord_isWarnedAbout_namingBothLines() throws Exception {
        String again = A1.replace("\"text\":\"hi\"", "\"text\":\"DIFFERENT\"");
        Path file = write("dup.jsonl", U1, A1, again, A1);
        Recorder r = importPaths(file);
        assertThat(r.fatal()).isEmpty();
        assertThat(r.problems).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(3);
            assertThat(p.message()).contains("uuid 11111111-0000-4000-8000-000000000002 was used by line 2 for a"
                    + " different record; this one is kept as entry line-3");
        });
        assertThat(log.log().load(r.sessions.get(0).session(), null)).hasSize(4);
    }

    /**
     * Found by a break-it pass: a Parley export imported into another store (the way to move sessions between
     * backends) came back created at the import, not when the session was created; every hop moved it.
     */
    @Test
    void aParleyExport_restoresTheSessionsCreationTime() throws Exception {
        SessionId id = new SessionId("made-in-2020");
        java.time.Instant created = java.time.Instant.parse("2020-02-03T04:05:06.789Z");
        log.catalog().orElseThrow().create(new dev.parley.core.log.NewSession(id, "old", null, java.util.Map.of(),
                created));
        log.log().append(id, AgentId.MAIN, List.of(NewEntry.of(new dev.parley.core.EntryId("u"), null, null,
                dev.parley.core.model.Message.user("hello"))), Usage.ZERO);
        Path export = write("made-in-2020.jsonl", new Exporter(log).export(id, Format.PARLEY, null).strip());
        Store elsewhere = MemoryStore.open();

        Recorder r = new Recorder();
        new Importer(elsewhere, IdGenerator.uuidV7()).importPaths(List.of(export), null, r);

        assertThat(r.fatal()).isEmpty();
        assertThat(elsewhere.catalog().orElseThrow().find(id).orElseThrow().createdAt()).isEqualTo(created);
        // Restored beside the session it came from (which has grown since), a snapshot is created now: the original
        // stays the oldest of the origin, the one later imports of the source extend (found by a review).
        elsewhere.log().append(id, AgentId.MAIN, List.of(NewEntry.of(new dev.parley.core.EntryId("a"),
                new dev.parley.core.EntryId("u"), null, dev.parley.core.model.Message.user("more"))), Usage.ZERO);
        Recorder beside = new Recorder();
        new Importer(elsewhere, IdGenerator.uuidV7()).importPaths(List.of(export), null, beside);
        SessionId snapshot = beside.sessions.get(0).session();
        assertThat(snapshot).isNotEqualTo(id);
        assertThat(elsewhere.catalog().orElseThrow().find(snapshot).orElseThrow().createdAt()).isAfter(created);
        Path damaged = write("damaged.jsonl", Files.readString(export).replace("2020-02-03T04:05:06.789Z", "soon"));
        Recorder bad = new Recorder();
        new Importer(MemoryStore.open(), IdGenerator.uuidV7()).importPaths(List.of(damaged), null, bad);
        assertThat(bad.fatal()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("the header's createdAt is not a time"));
    }

    /** Found by a break-it pass: a symbolic link in an imported directory was passed over without a word. */
    @Test
    void aSymbolicLinkInADirectory_isSkippedAndSaidSo() throws Exception {
        Path real = write("elsewhere/s.jsonl", U1);
        Path dirOfLinks = Files.createDirectories(dir.resolve("links"));
        Path link = Files.createSymbolicLink(dirOfLinks.resolve("s.jsonl"), real);

        Recorder r = importPaths(dirOfLinks);

        assertThat(r.sessions).isEmpty();
        assertThat(r.skipped).containsExactly(link);
        assertThat(r.problems).singleElement().satisfies(p -> assertThat(p.message()).contains("a symbolic link"));
    }

    @Test
    void malformedLineInTheMiddle_rejectsThatFileOnly_namingTheLine() throws Exception {
        Path bad = write("bad.jsonl", U1, "{\"type\":\"user\", oops", A1);
        Path good = write("good.jsonl", U1.replace("aaaaaaaa", "bbbbbbbb"), A1.replace("aaaaaaaa", "bbbbbbbb"));
        Recorder r = importPaths(bad, good);
        assertThat(r.fatal()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(bad);
            assertThat(p.line()).isEqualTo(2);
        });
        assertThat(r.sessions).singleElement().satisfies(s -> assertThat(s.session().value()).startsWith("bbbbbbbb"));
        assertThat(log.catalog().orElseThrow().list(null, 100).sessions()).hasSize(1);
    }

    @Test
    void importWithoutUsageTotals_regression_storesTheMessagesUsageAsTheAgentsTotal_countingASplitResponseOnce()
            throws Exception {
        // Claude Code writes one record per content block of a response, each carrying the response's usage
        String a1b = A1.replace("11111111-0000-4000-8000-000000000002", "11111111-0000-4000-8000-000000000003")
                .replace("\"parentUuid\":\"11111111-0000-4000-8000-000000000001\"",
                        "\"parentUuid\":\"11111111-0000-4000-8000-000000000002\"")
                .replace("\"output_tokens\":1", "\"output_tokens\":5");
        Recorder r = importPaths(write("split.jsonl", U1, A1, a1b));
        SessionId session = r.sessions.get(0).session();
        var usage = log.log().loadUsage(session, new AgentId("main"));
        assertThat(usage.inputTokens()).isEqualTo(3);
        assertThat(usage.outputTokens()).isEqualTo(5);
        assertThat(log.log().loadAgentUsage(session)).containsOnlyKeys(new AgentId("main"));
    }

    @Test
    void tornLastLine_isAWarning_andTheRestImports() throws Exception {
        Path file = dir.resolve("torn.jsonl");
        Files.writeString(file, U1 + "\n" + A1 + "\n" + "{\"type\":\"user\",\"uuid\":\"x", StandardCharsets.UTF_8);
        Recorder r = importPaths(file);
        assertThat(r.fatal()).isEmpty();
        assertThat(r.problems).singleElement().satisfies(p -> {
            assertThat(p.fatal()).isFalse();
            assertThat(p.line()).isEqualTo(3);
        });
        assertThat(r.sessions.get(0).entries()).isEqualTo(2);
    }

    @Test
    void parentThatDoesNotExist_rejectsTheFile() throws Exception {
        Path file = write("dangling.jsonl", U1, A1.replace("\"parentUuid\":\"11111111-0000-4000-8000-000000000001\"",
                "\"parentUuid\":\"99999999-0000-4000-8000-000000000009\""));
        Recorder r = importPaths(file);
        assertThat(r.fatal()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.message()).contains("99999999-0000-4000-8000-000000000009").contains("does not exist");
        });
        assertThat(r.sessions).isEmpty();
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
    }

    @Test
    void idThatCouldEscapeADirectory_orIsTooLong_rejectsTheFile() throws Exception {
        Path escape = write("escape.jsonl", U1.replace("aaaaaaaa-0000-4000-8000-000000000000", "../../../etc/passwd"));
        Path longId = write("long.jsonl", "{\"type\":\"session\",\"id\":\"" + "x".repeat(300) + "\",\"timestamp\":"
                + "\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/\"}");
        Recorder r = importPaths(escape, longId);
        assertThat(r.fatal()).hasSize(2);
        assertThat(r.fatal().get(0).message()).contains("escape a directory");
        assertThat(r.fatal().get(1).message()).contains("300 characters");
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
    }

    @Test
    void notJson_andUnknownFormats_areReported() throws Exception {
        Path text = write("notes.json", "this is not json");
        Path unknown = write("records.jsonl", "{\"type\":\"weather_report\",\"payload\":{}}");
        Recorder r = importPaths(text, unknown);
        assertThat(r.fatal()).hasSize(2);
        assertThat(r.fatal().get(1).message()).contains("unrecognized format");
    }

    /** Found by a newcomer's trial: a one-line file cut short was reported at "(line 2)", a line it does not have. */
    @Test
    void aDocumentCutShort_isReportedAtTheEndOfTheFile_notAtALineAfterIt() throws Exception {
        Path file = write("cut.jsonl", "{\"foo\":1");
        Recorder r = importPaths(file);
        assertThat(r.problems).singleElement().satisfies(p -> {
            assertThat(p.fatal()).isTrue();
            assertThat(p.message()).contains("(at the end of the file)").doesNotContain("line 2");
        });
    }

    /**
     * Found by a break-it pass: a conversation of a file that holds several (an OpenAI chat file of two) that grew was
     * imported again as a second session of the same origin, the stale copy left beside it: the check that the grown
     * source is the same file looked for the agent's own file, which a conversation of such a file does not have.
     */
    @Test
    void aGrownConversationOfAFileOfSeveral_isUpdated_notImportedAgain() throws Exception {
        String two = "[{\"messages\":[{\"role\":\"user\",\"content\":\"one\"}%s]},"
                + "{\"messages\":[{\"role\":\"user\",\"content\":\"two\"}]}]";
        Path file = write("two.json", String.format(Locale.ROOT, two, ""));
        Recorder first = importPaths(file);
        assertThat(first.sessions).extracting(ImportResult::status).containsOnly(ImportResult.Status.IMPORTED);

        Files.writeString(file, String.format(Locale.ROOT, two, ",{\"role\":\"assistant\",\"content\":\"answer\"}"));
        Recorder grown = importPaths(file);

        assertThat(grown.problems).isEmpty();
        assertThat(grown.sessions).extracting(ImportResult::status)
                .containsExactly(ImportResult.Status.UPDATED, ImportResult.Status.UNCHANGED);
        assertThat(grown.sessions.get(0).session()).isEqualTo(first.sessions.get(0).session());
        assertThat(log.log().load(first.sessions.get(0).session(), null)).hasSize(2);
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).hasSize(2);
    }

    @Test
    void importingTwice_changesNothing_andAGrownFileAppendsOnlyTheNewEntries() throws Exception {
        Path file = write("s.jsonl", U1);
        Recorder first = importPaths(file);
        SessionId session = first.sessions.get(0).session();
        assertThat(session.value()).isEqualTo("aaaaaaaa-0000-4000-8000-000000000000");
        assertThat(importPaths(file).sessions.get(0).status()).isEqualTo(ImportResult.Status.UNCHANGED);
        List<Entry> before = log.log().load(session, null);
        Files.writeString(file, A1 + "\n", StandardOpenOption.APPEND);
        Recorder grown = importPaths(file);
        assertThat(grown.sessions.get(0).status()).isEqualTo(ImportResult.Status.UPDATED);
        assertThat(grown.sessions.get(0).session()).isEqualTo(session);
        List<Entry> after = log.log().load(session, null);
        assertThat(after).hasSize(2);
        assertThat(after.get(0)).isEqualTo(before.get(0));
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
    }

    /**
     * Found by a newcomer's trial: Parley's own Claude Code export of a session, imported again, was refused as a
     * conflict ("its source fields differ") because its keys come in another order than the original's.
     */
    @Test
    void theSameRecordsWithTheirKeysInAnotherOrder_areUnchanged() throws Exception {
        Path file = write("s.jsonl", U1, A1);
        importPaths(file);
        Path reordered = write("again/s.jsonl", reversedKeys(U1), reversedKeys(A1));
        Recorder r = importPaths(reordered);
        assertThat(r.fatal()).isEmpty();
        assertThat(r.sessions.get(0).status()).isEqualTo(ImportResult.Status.UNCHANGED);
    }

    /** A conflict names where the records differ: the field's path in Parley's model or in the source's fields. */
    @Test
    void aConflict_namesTheFieldThatDiffers() throws Exception {
        importPaths(write("s.jsonl", U1, A1));
        Recorder content = importPaths(write("b/s.jsonl", U1, A1.replace("\"text\":\"hi\"", "\"text\":\"ho\"")));
        assertThat(content.fatal()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("its content differs at content[0].text"));
        Recorder source = importPaths(write("c/s.jsonl", U1.replace("\"cwd\":\"/p\"", "\"cwd\":\"/q\""), A1));
        assertThat(source.fatal()).singleElement().satisfies(p -> assertThat(p.message())
                .contains("its source fields differ at ").contains("cwd"));
    }

    /** The record with its keys, at every level, in reverse order. */
    private static String reversedKeys(String record) throws Exception {
        return Json.write(reversed(Json.parse(record)));
    }

    private static com.fasterxml.jackson.databind.JsonNode reversed(com.fasterxml.jackson.databind.JsonNode node) {
        if (node.isObject()) {
            List<String> names = new java.util.ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            java.util.Collections.reverse(names);
            com.fasterxml.jackson.databind.node.ObjectNode out = Json.object();
            names.forEach(n -> out.set(n, reversed(node.get(n))));
            return out;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out = Json.mapper().createArrayNode();
            node.forEach(e -> out.add(reversed(e)));
            return out;
        }
        return node;
    }

    @Test
    void aDifferentSourceWithTheSameId_isRefused_andTheSessionKeepsItsRecords() throws Exception {
        Path one = write("one/s.jsonl", U1, A1);
        Path two = write("two/s.jsonl", U1.replace("hello", "a different conversation"));
        importPaths(one);
        Recorder r = importPaths(two);
        assertThat(r.sessions).isEmpty();
        assertThat(r.fatal()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo(two);
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.record()).isEqualTo("11111111-0000-4000-8000-000000000001");
            assertThat(p.message()).contains("conflict").contains("11111111-0000-4000-8000-000000000001");
        });
        assertThat(log.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
        assertThat(log.log().load(new SessionId("aaaaaaaa-0000-4000-8000-000000000000"), null)).hasSize(2);
    }

    @Test
    void claudeSubagentFiles_becomeAgentsOfOneSession_withParentsInTheMainFile() throws Exception {
        String sid = "aaaaaaaa-0000-4000-8000-000000000000";
        write(sid + ".jsonl", U1, A1);
        String side = "{\"type\":\"user\",\"uuid\":\"22222222-0000-4000-8000-000000000001\",\"parentUuid\":"
                + "\"11111111-0000-4000-8000-000000000002\",\"isSidechain\":true,\"agentId\":\"a77\",\"sessionId\":\""
                + sid + "\",\"message\":{\"role\":\"user\",\"content\":\"summarize\"}}";
        write(sid + "/subagents/agent-a77.jsonl", side);
        Recorder r = importPaths(dir);
        assertThat(r.fatal()).isEmpty();
        assertThat(r.sessions).singleElement().satisfies(s -> {
            assertThat(s.agents()).extracting(a -> a.agent().value()).containsExactly("main", "a77");
            assertThat(s.entries()).isEqualTo(3);
        });
        SessionId s = new SessionId(sid);
        assertThat(Json.parse(export(s, Format.CLAUDE_CODE, new AgentId("a77")).strip()))
                .isEqualTo(Json.parse(side));
        // The subagent file alone, again, is recognised: its parents are found in the stored main agent.
        Recorder again = importPaths(dir.resolve(sid + "/subagents/agent-a77.jsonl"));
        assertThat(again.fatal()).isEmpty();
        assertThat(again.sessions.get(0).status()).isEqualTo(ImportResult.Status.UNCHANGED);
    }

    @Test
    void parleyExport_reimportsToTheSameEntries() throws Exception {
        importPaths(write("s.jsonl", U1, A1));
        SessionId s = new SessionId("aaaaaaaa-0000-4000-8000-000000000000");
        Path exported = dir.resolve("export.jsonl");
        Files.writeString(exported, export(s, Format.PARLEY, null));
        Store other = MemoryStore.open();
        Recorder r = new Recorder();
        new Importer(other, IdGenerator.uuidV7()).importPaths(List.of(exported), null, r);
        assertThat(r.fatal()).isEmpty();
        assertThat(other.log().load(s, null).stream().map(Entry::toNewEntry).toList())
                .isEqualTo(log.log().load(s, null).stream().map(Entry::toNewEntry).toList());
        assertThat(new Exporter(other).export(s, Format.CLAUDE_CODE, null))
                .isEqualTo(export(s, Format.CLAUDE_CODE, AgentId.MAIN));
    }

    /**
     * Found by a newcomer's trial: a Parley export of the demo (an orchestrator and two workers, interleaved) warned,
     * on re-import, of dangling calls and orphan results that every agent does pair: the export's runs of one agent
     * were each checked alone, and the warnings named a message's place in its run, not the file's line.
     */
    @Test
    void parleyExportOfInterleavedAgents_pairsToolCallsPerAgentAcrossRuns_andNamesLines() throws Exception {
        SessionId s = new SessionId("interleaved");
        AgentId orchestrator = new AgentId("orchestrator");
        AgentId worker = new AgentId("worker-1");
        var call = dev.parley.core.model.Message.assistant(List.of(new dev.parley.core.model.ContentBlock.ToolCall(
                "d1", "delegate", dev.parley.core.RawJson.of("{}"))));
        var result = dev.parley.core.model.Message.toolResults(List.of(new dev.parley.core.model.ContentBlock.ToolResult(
                "d1", "delegate", List.of(new dev.parley.core.model.ContentBlock.Text("done")), false, true)));
        var lonely = dev.parley.core.model.Message.assistant(List.of(new dev.parley.core.model.ContentBlock.ToolCall(
                "d2", "delegate", dev.parley.core.RawJson.of("{}"))));
        IdGenerator ids = IdGenerator.uuidV7();
        var e1 = ids.newEntryId();
        var w1 = ids.newEntryId();
        var e2 = ids.newEntryId();
        var e3 = ids.newEntryId();
        log.log().append(s, orchestrator, List.of(NewEntry.of(e1, null, null, call)));
        log.log().append(s, worker, List.of(NewEntry.of(w1, null, null, dev.parley.core.model.Message.user("task"))));
        log.log().append(s, orchestrator, List.of(NewEntry.of(e2, e1, null, result)));
        log.log().append(s, orchestrator, List.of(NewEntry.of(e3, e2, null, lonely)));
        Path exported = dir.resolve("export.jsonl");
        Files.writeString(exported, export(s, Format.PARLEY, null));

        Recorder r = new Recorder();
        new Importer(MemoryStore.open(), ids).importPaths(List.of(exported), null, r);

        assertThat(r.fatal()).isEmpty();
        assertThat(r.problems).singleElement().satisfies(p -> {
            assertThat(p.message()).contains("dangling tool call d2");
            assertThat(p.line()).isEqualTo(5); // the header, then one line per entry
        });
    }

    @Test
    void crossFormatExport_convertsTheModel() throws Exception {
        importPaths(write("s.jsonl", U1, A1));
        SessionId s = new SessionId("aaaaaaaa-0000-4000-8000-000000000000");
        var openai = Json.parse(export(s, Format.OPENAI_CHAT, AgentId.MAIN));
        assertThat(openai.get("messages").toString())
                .isEqualTo("[{\"role\":\"user\",\"content\":\"hello\"},{\"role\":\"assistant\",\"content\":\"hi\"}]");
        var anthropic = Json.parse(export(s, Format.ANTHROPIC_MESSAGES, AgentId.MAIN));
        assertThat(anthropic.get("model").asText()).isEqualTo("claude-x");
        assertThat(anthropic.get("messages").get(0).get("content").get(0).get("text").asText()).isEqualTo("hello");
        String pi = export(s, Format.PI, AgentId.MAIN);
        assertThat(pi.lines().findFirst().orElseThrow()).contains("\"type\":\"session\"");
        assertThat(pi.lines().count()).isEqualTo(3);
    }

    @Test
    void convertedExport_reimports_evenWhenEntriesWithoutAFormWereLeftOut() throws Exception {
        String progress = "{\"type\":\"progress\",\"uuid\":\"11111111-0000-4000-8000-000000000009\",\"parentUuid\":"
                + "\"11111111-0000-4000-8000-000000000001\",\"sessionId\":\"aaaaaaaa-0000-4000-8000-000000000000\","
                + "\"data\":{\"type\":\"hook_progress\"}}";
        String afterProgress = A1.replace("\"parentUuid\":\"11111111-0000-4000-8000-000000000001\"",
                "\"parentUuid\":\"11111111-0000-4000-8000-000000000009\"");
        importPaths(write("s.jsonl", U1, progress, afterProgress));
        SessionId s = new SessionId("aaaaaaaa-0000-4000-8000-000000000000");
        Path pi = dir.resolve("as-pi.jsonl");
        Files.writeString(pi, export(s, Format.PI, AgentId.MAIN));
        Store other = MemoryStore.open();
        Recorder r = new Recorder();
        new Importer(other, IdGenerator.uuidV7()).importPaths(List.of(pi), null, r);
        assertThat(r.fatal()).isEmpty();
        assertThat(r.sessions.get(0).messages()).isEqualTo(2);
    }
}
