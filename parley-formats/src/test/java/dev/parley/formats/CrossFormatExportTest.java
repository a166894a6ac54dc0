package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.ConversationBuilder;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every cross-format export of every transcript — the real ones in {@code ../shared/data/transcripts} and the samples
 * of this module — is acceptable to the target API's message rules ({@link ApiRules}); the log formats (Claude Code,
 * pi, Aider) import back without an error; and its notes account for the records it did not write
 * ({@link #unaccounted}). Both the active conversation and the whole history ({@code --full}).
 */
class CrossFormatExportTest {
    static final Path SAMPLES = Path.of("src/test/resources/transcripts");

    @TempDir
    Path tmp;

    @Test
    void everyCrossFormatExportOfTheRealTranscripts_isAcceptableToTheTargetApi() throws Exception {
        Path data = RealTranscripts.dir();
        List<Path> dirs = new ArrayList<>();
        try (var list = Files.list(data)) {
            list.filter(Files::isDirectory).sorted().forEach(dirs::add);
        }
        Recorder r = new Recorder();
        assertThat(checkAll(dirs, r)).isEmpty();
        // every transcript was checked: each file of the data set gave at least one session (none passed over)
        Set<Path> imported = new HashSet<>();
        for (ImportResult s : r.sessions) {
            if (s.source() != null) {
                imported.add(s.source().toAbsolutePath().normalize());
            }
            s.agents().stream().map(ImportResult.Agent::source).filter(java.util.Objects::nonNull)
                    .forEach(a -> imported.add(a.toAbsolutePath().normalize()));
        }
        List<String> notImported = new ArrayList<>();
        try (var walk = Files.walk(data)) {
            walk.filter(Files::isRegularFile).map(f -> f.toAbsolutePath().normalize())
                    .filter(f -> !f.getFileName().toString().equals("MANIFEST.json")
                            && !f.getFileName().toString().equals("SOURCES.md"))
                    .filter(f -> !imported.contains(f))
                    .forEach(f -> notImported.add(data.toAbsolutePath().normalize().relativize(f).toString()));
        }
        assertThat(notImported).as("files of the data set that gave no session").containsExactlyElementsOf(NOT_SESSIONS);
    }

    /** Files of the data set that are not sessions (SOURCES.md: one pi AssistantMessage object, codec test material). */
    static final List<String> NOT_SESSIONS = List.of("pi-fragments/pi-mono-assistant-message-with-thinking-code.json");

    @Test
    void everyCrossFormatExportOfTheSamples_isAcceptableToTheTargetApi() throws Exception {
        assertThat(checkAll(List.of(SAMPLES), new Recorder())).isEmpty();
    }

    /**
     * A conversation is one path of the tree: exporting pi's branched session, the messages of the branches it left
     * are counted (with or without {@code --full}), and without {@code --full} the history before the compaction is
     * counted as cut. The expected counts come from the session's path, as the core reads it.
     */
    @Test
    void messagesOnOtherBranches_andHistoryBeforeTheCompaction_areCountedInTheNotes() throws Exception {
        Store store = MemoryStore.open();
        Recorder r = new Recorder();
        new Importer(store, IdGenerator.uuidV7()).importPaths(
                List.of(RealTranscripts.dir().resolve("pi-v3/pi-mono-before-compaction.branched.v3.jsonl")), null, r);
        SessionId session = r.sessions.get(0).session();
        List<Entry> records = store.log().load(session, null);
        LoadedConversation active = ConversationBuilder.build(session, records, AgentId.MAIN,
                ConversationOptions.AS_WRITTEN);
        Set<EntryId> onPath = new HashSet<>(active.path());
        Set<EntryId> inActive = new HashSet<>();
        active.items().forEach(i -> inActive.add(i.entry()));
        inActive.add(active.danglingUserEntry());
        long offPath = records.stream().filter(e -> conversational(e) && !onPath.contains(e.id())).count();
        long cut = records.stream().filter(e -> conversational(e) && onPath.contains(e.id())
                && !inActive.contains(e.id())).count();
        assertThat(offPath).isPositive();
        assertThat(cut).isPositive();

        Exporter exporter = new Exporter(store);
        assertThat(exporter.export(session, Format.GEMINI, null, true).notes())
                .anyMatch(n -> n.startsWith("left out messages on other branches "
                        + "(a gemini conversation is one path of the tree): " + offPath))
                .noneMatch(n -> n.startsWith("cut "));
        assertThat(exporter.export(session, Format.GEMINI, null, false).notes())
                .anyMatch(n -> n.startsWith("left out messages on other branches (a gemini conversation is one path of"
                        + " the tree): " + offPath))
                .anyMatch(n -> n.matches("cut the messages before the compaction at entry \\S+ \\(a model sees only what follows it\\): "
                        + cut + "; .*"));
    }

    /** An Aider history is Markdown text: the tool calls and results a conversion drops from it are counted. */
    @Test
    void toolCallsAndResultsInAnAiderExport_areNamedInTheNotes() throws Exception {
        Store store = MemoryStore.open();
        Recorder r = new Recorder();
        new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(SAMPLES.resolve(
                "rollout-2025-10-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")), null, r);
        SessionId session = r.sessions.get(0).session();
        List<Message> messages = store.log().load(session, null).stream().map(Entry::message)
                .filter(java.util.Objects::nonNull).toList();
        long calls = messages.stream().mapToLong(m -> m.toolCalls().size()).sum();
        long results = messages.stream().mapToLong(m -> m.toolResults().size()).sum();
        assertThat(calls).isPositive();
        assertThat(results).isPositive();
        assertThat(new Exporter(store).export(session, Format.AIDER, null, true).notes())
                .anyMatch(n -> n.startsWith("left out tool calls (no form in aider): " + calls + " ("))
                .anyMatch(n -> n.startsWith("left out tool results (no form in aider): " + results + " ("));
    }

    /**
     * Found by a break-it pass: a converted export said the transcript began when it was imported (pi's header,
     * Gemini's start and last update, Aider's heading, all of 2026 for a rollout of 2025-10-01).
     */
    @Test
    void convertedExports_beginWhenTheTranscriptBegan_notWhenItWasImported() throws Exception {
        Store store = MemoryStore.open();
        Recorder r = new Recorder();
        new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(SAMPLES.resolve(
                "rollout-2025-10-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl")), null, r);
        SessionId session = r.sessions.get(0).session();
        Exporter exporter = new Exporter(store);

        String pi = exporter.export(session, Format.PI, null, false).text();
        JsonNode gemini = Json.parse(exporter.export(session, Format.GEMINI, null, false).text());
        String aider = exporter.export(session, Format.AIDER, null, false).text();

        assertThat(Json.parse(pi.lines().findFirst().orElseThrow()).path("timestamp").asText())
                .startsWith("2025-10-01T10:00:00");
        assertThat(gemini.path("startTime").asText()).startsWith("2025-10-01T10:00:00");
        assertThat(gemini.path("lastUpdated").asText()).startsWith("2025-10-01T10:02:17");
        assertThat(aider).startsWith("# aider chat started at 2025-10-01 10:00:00");
    }

    /**
     * Found by a break-it pass: a Claude Code reply that opens with a text block of "\n\n" was exported to Anthropic
     * Messages as is, which the API refuses ("text content blocks must contain non-whitespace text").
     */
    @Test
    void anthropicExport_leavesOutTextBlocksOfWhiteSpaceOnly_andSaysSo() throws Exception {
        Store store = MemoryStore.open();
        SessionId session = new SessionId("white-space");
        store.log().append(session, AgentId.MAIN, List.of(
                dev.parley.core.model.NewEntry.of(new EntryId("u"), null, null, Message.user("hi")),
                dev.parley.core.model.NewEntry.of(new EntryId("a"), new EntryId("u"), null, Message.assistant(List.of(
                        new dev.parley.core.model.ContentBlock.Text("\n\n"),
                        new dev.parley.core.model.ContentBlock.Text("hello"))))), dev.parley.core.model.Usage.ZERO);

        Exporter.Result r = new Exporter(store).export(session, Format.ANTHROPIC_MESSAGES, null, false);

        JsonNode doc = Json.parse(r.text());
        assertThat(ApiRules.anthropic(doc)).isEmpty();
        assertThat(doc.path("messages").get(1).path("content").toString()).isEqualTo("[{\"type\":\"text\",\"text\":\"hello\"}]");
        assertThat(r.notes()).anyMatch(n -> n.startsWith("left out text blocks of white space only"));
    }

    /** Regression: an assistant message's text blocks on either side of a tool call were run together. */
    @Test
    void textBlocksOfOneMessage_stayParagraphsApartInAnAiderExport() {
        Store store = MemoryStore.open();
        SessionId session = new SessionId("aider-paragraphs");
        Message reply = Message.builder(dev.parley.core.model.Role.ASSISTANT)
                .add(new dev.parley.core.model.ContentBlock.Text("on the city's local date."))
                .add(new dev.parley.core.model.ContentBlock.ToolCall("c1", "edit", dev.parley.core.RawJson.of("{}")))
                .add(new dev.parley.core.model.ContentBlock.Text("Fixed: the key is now the local date."))
                .build();
        store.log().append(session, AgentId.MAIN, List.of(
                dev.parley.core.model.NewEntry.of(new EntryId("u"), null, null, Message.user("fix it")),
                dev.parley.core.model.NewEntry.of(new EntryId("a"), new EntryId("u"), null, reply)));
        assertThat(new Exporter(store).export(session, Format.AIDER, null, true).text())
                .contains("on the city's local date.\n\nFixed: the key is now the local date.\n\n");
    }

    List<String> checkAll(List<Path> paths, Recorder r) throws Exception {
        Store store = MemoryStore.open();
        new Importer(store, IdGenerator.uuidV7()).importPaths(paths, null, r);
        assertThat(r.fatal()).as("import problems").isEmpty();
        assertThat(r.sessions).isNotEmpty();
        Exporter exporter = new Exporter(store);
        List<String> bad = new ArrayList<>();
        int checked = 0;
        for (ImportResult s : r.sessions) {
            List<Entry> entries = store.log().load(s.session(), null);
            for (ImportResult.Agent a : s.agents()) {
                List<Entry> records = entries.stream().filter(e -> e.agentId().equals(a.agent())).toList();
                List<String> cut = List.of();
                for (Format target : Format.values()) {
                    if (target == s.format() || target == Format.PARLEY) {
                        continue;
                    }
                    for (boolean full : new boolean[] {false, true}) {
                        if (full && cut.isEmpty()) {
                            break; // without a compaction the whole history is the conversation, checked already
                        }
                        Exporter.Result out = exporter.export(s.session(), target, a.agent(), full);
                        if (!full) {
                            cut = out.notes().stream().filter(n -> n.startsWith("cut ")).toList();
                        }
                        String where = s.session() + "/" + a.agent() + " (" + s.format() + ", " + a.source()
                                + (s.index() == null ? "" : "[" + s.index() + "]") + ") as " + target
                                + (full ? " --full" : "") + ": ";
                        for (String v : violations(target, out.text())) {
                            bad.add(where + v);
                        }
                        for (String v : unaccounted(records, target, full, out)) {
                            bad.add(where + v);
                        }
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(0);
        return bad.size() > 40 ? bad.subList(0, 40) : bad;
    }

    static final Pattern NO_FORM = Pattern.compile("left out (.+) \\(no form in ([a-z-]+)\\): (\\d+)( \\(.*\\))?");

    /**
     * What an export's notes fail to account for, kind by kind. A record the target has no form for is named in a
     * {@code left out <kind> (no form in <target>): N} note with the count of its kind: for a conversation format every
     * record that is not part of a conversation (a message, a branch summary, a compaction's summary); for the log
     * formats (Claude Code, pi: one record per line, with the record's id) every record missing from the output, and
     * those keep every message. The whole history ({@code --full}) cuts nothing.
     */
    static List<String> unaccounted(List<Entry> records, Format target, boolean full, Exporter.Result out)
            throws Exception {
        boolean log = target == Format.CLAUDE_CODE || target == Format.PI;
        Set<String> written = new HashSet<>();
        if (log) {
            for (JsonNode line : RealTranscriptRoundTripTest.parseLines(out.text())) {
                written.add(line.path(target == Format.PI ? "id" : "uuid").asText());
            }
        }
        Map<String, Integer> expected = new TreeMap<>();
        List<String> bad = new ArrayList<>();
        for (Entry e : records) {
            boolean leftOut = log ? !written.contains(e.id().value()) : !conversational(e);
            if (leftOut && log && e.payload() instanceof Message) {
                bad.add("message " + e.id() + " is missing from the log");
            }
            if (leftOut) {
                expected.merge(kind(e), 1, Integer::sum);
            }
        }
        Map<String, Integer> noted = new TreeMap<>();
        for (String note : out.notes()) {
            Matcher m = NO_FORM.matcher(note);
            if (m.matches() && m.group(2).equals(target.cliName())) {
                noted.merge(m.group(1), Integer.parseInt(m.group(3)), Integer::sum);
            }
            if (full && note.startsWith("cut ")) {
                bad.add("the whole history cut records: " + note);
            }
        }
        noted.forEach((kind, n) -> {
            boolean recordKind = kind.equals("custom records") || kind.equals("messages") || kind.endsWith(" entries");
            if (recordKind && !expected.containsKey(kind)) {
                bad.add("the notes name " + n + " " + kind + " with no form there, but there are none: " + out.notes());
            }
        });
        expected.forEach((kind, n) -> {
            if (!n.equals(noted.get(kind))) {
                bad.add(n + " " + kind + " with no form there, but the notes say " + noted.getOrDefault(kind, 0)
                        + ": " + out.notes());
            }
        });
        return bad;
    }

    /** Whether a record is part of a conversation where it lies: a message, a branch summary, a compaction's summary. */
    static boolean conversational(Entry e) {
        return e.payload() instanceof Message || e.payload() instanceof EntryPayload.BranchSummary
                || e.payload() instanceof EntryPayload.Compaction c && c.summary() != null;
    }

    /** A record's kind as the notes name it. */
    static String kind(Entry e) {
        return switch (e.payload().kind()) {
            case CUSTOM -> "custom records";
            case MESSAGE -> "messages";
            default -> e.payload().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " entries";
        };
    }

    List<String> violations(Format target, String text) throws Exception {
        return switch (target) {
            case OPENAI_CHAT -> ApiRules.openAiChat(Json.parse(text));
            case ANTHROPIC_MESSAGES -> ApiRules.anthropic(Json.parse(text));
            case OPENAI_RESPONSES -> ApiRules.responses(list(Json.parse(text).path("input")));
            case GEMINI -> ApiRules.gemini(Json.parse(text));
            case CODEX -> {
                List<JsonNode> items = new ArrayList<>();
                List<String> bad = new ArrayList<>();
                List<JsonNode> lines = RealTranscriptRoundTripTest.parseLines(text);
                if (lines.isEmpty() || !lines.get(0).path("type").asText().equals("session_meta")) {
                    bad.add("a rollout starts with session_meta");
                }
                for (JsonNode l : lines) {
                    if (l.path("type").asText().equals("response_item")) {
                        items.add(l.path("payload"));
                    }
                }
                bad.addAll(ApiRules.responses(items));
                yield bad;
            }
            default -> reimport(target, text);
        };
    }

    /**
     * A log format's export imports back without an error. An empty Claude Code export (a session of nothing Claude
     * Code has a form for, as an Aider history's output alone) is no file to import: the notes say why it is empty.
     */
    List<String> reimport(Format target, String text) throws Exception {
        if (text.isEmpty()) {
            return List.of();
        }
        Path file = Files.createTempFile(tmp, "export", target == Format.AIDER ? ".md" : ".jsonl");
        Files.writeString(file, text);
        Recorder r = new Recorder();
        new Importer(MemoryStore.open(), IdGenerator.uuidV7()).importPaths(List.of(file), target, r);
        return r.fatal().stream().map(ImportProblem::describe).toList();
    }

    static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
