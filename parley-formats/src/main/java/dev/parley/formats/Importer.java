package dev.parley.formats;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.Ids;
import dev.parley.core.IoErrors;
import dev.parley.core.ParleyException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.Store;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.json.EntryCodec;
import dev.parley.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Imports transcript files into a store.
 *
 * <p><b>Per file</b>: the format is detected from content (or forced); the file is read whole and checked before
 * anything is written; its entries are appended as one atomic batch per agent. A file that cannot be imported
 * (malformed line, unknown parent, invalid content) is reported with its line and nothing of it is stored; the other
 * files are still imported. A torn last line is a warning.
 *
 * <p><b>Claude Code</b> files of one session (the main file and its {@code subagents/agent-*.jsonl}) become one
 * session with one agent per file, tied together by their parent uuids.
 *
 * <p><b>Identity</b> (docs/02-import-identity.md): every session records its origin. A source with a session id of
 * its own (Claude Code, Codex, Gemini CLI) is one session per source session: another file with that id extends the
 * session with the records it does not hold yet, matched by their source ids, and a file that holds a record the
 * session holds differently is refused whole, the problem naming the record. Other sources (pi, and formats without
 * ids) are recognised by their origin and file: if every agent's entries are already there, nothing changes
 * ({@code unchanged}); if the same file has grown, only the new entries are appended ({@code updated}); if a
 * different source claims the same id, it becomes a new session. The source's own session id is kept as the Parley
 * id when it is a valid id that is still free.
 *
 * <p><b>Warnings</b>: tool results that answer no earlier call and calls that no result answers are reported with
 * their file, line and call id; the records are kept as they are.
 *
 * <p>Not thread-safe; use one importer per thread.
 */
public final class Importer {
    /** The session-metadata key of what an import recorded about its sources. */
    public static final String IMPORT_KEY = "import";

    private final MessageLog log;
    private final SessionCatalog catalog;
    private final IdGenerator ids;

    /**
     * An importer into the store (its scope).
     *
     * @param store the store to write; its log and catalog are taken now, and the store stays the caller's to close
     * @param ids the generator of ids for sessions and entries the sources do not name
     * @throws UnsupportedException if the store has no catalog (the null store)
     */
    public Importer(Store store, IdGenerator ids) {
        this.log = store.log();
        this.catalog = store.catalog().orElseThrow(() -> new UnsupportedException("importing needs a store with a catalog"));
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /** Receives what an import does, as it happens. */
    public interface Listener {
        /**
         * A session was imported, updated or found unchanged.
         *
         * @param result what importing the session did
         */
        void session(ImportResult result);

        /**
         * A file was rejected (fatal) or warned about.
         *
         * @param problem the problem; {@link ImportProblem#fatal()} tells which
         */
        void problem(ImportProblem problem);

        /**
         * The import found {@code total} files to read; called once before the first file.
         *
         * @param total the number of distinct files to read, directories walked and each file counted once
         */
        default void filesFound(int total) {}

        /**
         * One more file was read.
         *
         * @param file the file, as an absolute, normalized path; called for every file counted by
         *     {@link #filesFound}, a skipped or rejected one too
         */
        default void fileDone(Path file) {}

        /**
         * A file found in a directory was passed over: it is no transcript of a known format (a manifest, notes); the
         * reason comes as a warning ({@link #problem}), except for Markdown that is not an Aider history, which is
         * passed over without one.
         *
         * @param file the file passed over
         */
        default void skipped(Path file) {}

        /**
         * {@code done} of the {@code total} sessions read have been stored (or failed); called after each.
         *
         * @param done how many sessions have been stored or failed so far, 1 to {@code total}
         * @param total how many sessions the files held (a Claude Code session and its subagent files count as one)
         */
        default void stored(int done, int total) {}
    }

    /**
     * Imports files and directories (recursively: {@code *.jsonl}, {@code *.json} and {@code *.md} files, hidden ones
     * skipped except {@code .aider.chat.history.md}; Markdown that is not an Aider history is counted as skipped
     * without a warning).
     *
     * @param paths files or directories
     * @param forced the format to assume for every file, or null to detect each file's from its content; a file it
     *     does not fit (a transcript of another format, a file of none) is rejected, the problem saying
     *     {@code --format F does not fit: …}
     * @param listener receives each session's result and each problem
     * @return the number of files rejected
     */
    public int importPaths(List<Path> paths, @Nullable Format forced, Listener listener) {
        List<Path> files = new ArrayList<>();
        Set<Path> explicit = new HashSet<>();
        int rejected = 0;
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                rejected += walk(p, files, listener);
            } else if (Files.isRegularFile(p)) {
                files.add(p);
                explicit.add(p.toAbsolutePath().normalize());
                files.addAll(subagentFiles(p));
            } else {
                listener.problem(ImportProblem.fatal(p, 0, Files.exists(p) ? "not a regular file or directory"
                        : "no such file or directory"));
                rejected++;
            }
        }
        List<Path> unique = new ArrayList<>(new LinkedHashSet<>(files.stream().map(f -> f.toAbsolutePath().normalize()).toList()));
        listener.filesFound(unique.size());

        // Read every file; Claude Code files wait for their session's other files.
        List<Object> work = new ArrayList<>();
        Map<String, List<ClaudeCodeFormat.ClaudeFile>> claudeGroups = new LinkedHashMap<>();
        for (Path file : unique) {
            List<ImportProblem> warnings = new ArrayList<>();
            try {
                Format format = forced;
                JsonNode doc = null;
                if (format == null) {
                    Detector.Detection d = Detector.detect(file);
                    if (d.format() == null) {
                        if (!explicit.contains(file) && file.getFileName().toString().endsWith(".md")) {
                            // Markdown beside the transcripts (READMEs, notes) is not an Aider history: counted
                            // as skipped, without a warning of its own
                            listener.skipped(file);
                            continue;
                        }
                        if (explicit.contains(file) || d.malformed()) {
                            listener.problem(ImportProblem.fatal(file, 0, "unrecognized format: " + d.reason()));
                            rejected++;
                        } else {
                            listener.problem(ImportProblem.warning(file, 0, "skipped: " + d.reason()));
                            listener.skipped(file);
                        }
                        continue;
                    }
                    format = d.format();
                    doc = d.document();
                } else {
                    // A forced format is for files detection cannot place; a JSONL file whose first record names
                    // another format is a mistake, not a request (it would import as a pile of unknown records).
                    Format seen = Detector.detect(file).format();
                    if (seen != null && seen != format && (seen == Format.CLAUDE_CODE || seen == Format.PI
                            || seen == Format.PARLEY || seen == Format.CODEX)) {
                        listener.problem(ImportProblem.fatal(file, 1, "--format " + format.cliName()
                                + " does not fit: the file is " + seen.withArticle() + " transcript"));
                        rejected++;
                        continue;
                    }
                }
                switch (format) {
                    case CLAUDE_CODE -> {
                        ClaudeCodeFormat.ClaudeFile cf = ClaudeCodeFormat.read(file, warnings);
                        String key = cf.sessionId() != null ? cf.sessionId() : "file:" + file;
                        String groupKey = key;
                        for (int n = 2; claudeGroups.containsKey(groupKey)
                                && claudeGroups.get(groupKey).stream().anyMatch(g -> g.agent().equals(cf.agent())); n++) {
                            groupKey = key + "#" + n;
                        }
                        if (!claudeGroups.containsKey(groupKey)) {
                            claudeGroups.put(groupKey, new ArrayList<>());
                            work.add(groupKey);
                        }
                        claudeGroups.get(groupKey).add(cf);
                    }
                    case PI -> work.add(PiFormat.read(file, warnings));
                    case PARLEY -> work.add(ParleyFormat.read(file, warnings));
                    case OPENAI_CHAT -> work.addAll(OpenAiChatFormat.read(file, doc != null ? doc : readDocument(file)));
                    case ANTHROPIC_MESSAGES -> work.add(AnthropicMessagesFormat.read(file, doc != null ? doc : readDocument(file)));
                    case CODEX -> work.add(CodexFormat.read(file, warnings));
                    case OPENAI_RESPONSES -> work.add(OpenAiResponsesFormat.read(file, doc != null ? doc : readDocument(file)));
                    case GEMINI -> work.add(GeminiFormat.read(file, doc != null ? doc : readDocument(file)));
                    case AIDER -> work.addAll(AiderFormat.read(file));
                }
            } catch (SourceFileException e) {
                ImportProblem p = e.problem();
                listener.problem(forced != null && e.isNotOfTheFormat() ? ImportProblem.fatal(p.file(), p.line(),
                        "--format " + forced.cliName() + " does not fit: " + p.message()) : p);
                rejected++;
            } catch (ParleyException | UncheckedIOException e) {
                // invalid content the model refuses (a blank role, a record that cannot be stored): this file only
                listener.problem(ImportProblem.fatal(file, 0, e.getMessage()));
                rejected++;
            } finally {
                warnings.forEach(listener::problem);
                listener.fileDone(file);
            }
        }

        int done = 0;
        for (Object item : work) {
            if (item instanceof ParsedSession ps) {
                rejected += storeRetrying(ps, listener);
            } else {
                List<ClaudeCodeFormat.ClaudeFile> group = claudeGroups.get((String) item);
                try {
                    rejected += storeClaudeGroup(group, listener);
                } catch (ParleyException e) {
                    listener.problem(ImportProblem.notStored(group.get(0).path(), e));
                    rejected++;
                }
            }
            listener.stored(++done, work.size());
        }
        return rejected;
    }

    /** Adds the transcript files under a directory; unreadable parts are reported and skipped. */
    private static int walk(Path root, List<Path> files, Listener listener) {
        int[] rejected = {0};
        try {
            Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes a) {
                    String name = f.getFileName().toString();
                    boolean transcript = !name.startsWith(".") && (name.endsWith(".jsonl") || name.endsWith(".json")
                            || name.endsWith(".md")) || name.equals(".aider.chat.history.md");
                    if (a.isRegularFile() && transcript) {
                        files.add(f);
                    } else if (a.isSymbolicLink() && transcript) {
                        // Not followed: its target is known by its own path (a link to an imported file would import
                        // it again as another source), and a link may lead out of the directory.
                        listener.problem(ImportProblem.warning(f, 0, "skipped: a symbolic link (import what it"
                                + " points to by its own path)"));
                        listener.skipped(f);
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                    listener.problem(ImportProblem.fatal(f, 0, "cannot read: " + IoErrors.describe(e)));
                    rejected[0]++;
                    return java.nio.file.FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            listener.problem(ImportProblem.fatal(root, 0, "cannot list the directory: " + IoErrors.describe(e)));
            rejected[0]++;
        }
        files.sort(null);
        return rejected[0];
    }

    /** A Claude Code main file's subagent files: {@code <dir>/<session>/subagents/agent-*.jsonl}. */
    private static List<Path> subagentFiles(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".jsonl") || file.getParent() == null) {
            return List.of();
        }
        Path dir = file.getParent().resolve(name.substring(0, name.length() - ".jsonl".length())).resolve("subagents");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> p.getFileName().toString().matches("agent-.+\\.jsonl") && Files.isRegularFile(p))
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static JsonNode readDocument(Path file) {
        try {
            return Json.readSource(file);
        } catch (JsonProcessingException e) {
            throw new SourceFileException(file, e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    Json.unreadable(e), e);
        } catch (IOException e) {
            throw new SourceFileException(file, 0, "not valid JSON: " + e.getMessage(), e);
        }
    }

    // ---- Claude Code sessions ----

    private int storeClaudeGroup(List<ClaudeCodeFormat.ClaudeFile> group, Listener listener) {
        List<ClaudeCodeFormat.ClaudeFile> ordered = new ArrayList<>(group);
        ordered.sort(Comparator.comparing((ClaudeCodeFormat.ClaudeFile f) -> !f.isMain())
                .thenComparing(f -> f.agent().value()));
        ClaudeCodeFormat.ClaudeFile first = ordered.get(0);
        String sid = first.sessionId();
        String origin = sid != null ? "claude-code:" + sid : "claude-code:sha256:" + Hashing.sha256(first.lines());
        // Parents may point into agents already stored (a subagent file imported after its main file).
        List<SessionInfo> candidates = catalog.findByOrigin(origin);
        Map<AgentId, List<Entry>> stored = new HashMap<>();
        if (!candidates.isEmpty()) {
            for (Entry e : log.load(candidates.get(0).id(), null)) {
                stored.computeIfAbsent(e.agentId(), a -> new ArrayList<>()).add(e);
            }
        }
        Map<AgentId, ParsedAgent> assembled = new LinkedHashMap<>();
        int rejected = 0;
        for (ClaudeCodeFormat.ClaudeFile file : ordered) {
            Map<String, EntryId> uuids = new HashMap<>();
            Set<EntryId> used = new HashSet<>();
            Set<AgentId> before = new LinkedHashSet<>();
            before.addAll(stored.keySet());
            before.addAll(assembled.keySet());
            for (AgentId a : before.stream().filter(a -> agentOrder(a, file.agent()) < 0).sorted(Importer::agentOrder).toList()) {
                if (assembled.containsKey(a)) {
                    for (NewEntry e : assembled.get(a).entries()) {
                        noteUuid(e.id(), e.source(), uuids, used);
                    }
                } else {
                    for (Entry e : stored.get(a)) {
                        noteUuid(e.id(), e.source(), uuids, used);
                    }
                }
            }
            List<ImportProblem> warnings = new ArrayList<>();
            try {
                assembled.put(file.agent(), ClaudeCodeFormat.assemble(file, uuids, used, warnings));
            } catch (SourceFileException e) {
                listener.problem(e.problem());
                rejected++;
            } finally {
                warnings.forEach(listener::problem);
            }
        }
        if (assembled.isEmpty()) {
            return rejected;
        }
        String title = ClaudeCodeFormat.title(first.lines());
        if (title == null) {
            title = PiFormat.firstUserText(assembled.values().iterator().next().entries());
        }
        ParsedSession ps = new ParsedSession(Format.CLAUDE_CODE, sid, origin, title, Map.of(),
                new ArrayList<>(assembled.values()), null, null);
        return rejected + storeRetrying(ps, listener);
    }

    /** Main first, then agents by id. */
    private static int agentOrder(AgentId a, AgentId b) {
        boolean am = a.equals(AgentId.MAIN);
        boolean bm = b.equals(AgentId.MAIN);
        if (am != bm) {
            return am ? -1 : 1;
        }
        return a.compareTo(b);
    }

    /** Records the Claude Code uuid an imported entry had (its id, unless the residual says otherwise). */
    private static void noteUuid(EntryId id, dev.parley.core.model.@Nullable SourceRecord source,
                                 Map<String, EntryId> uuids, Set<EntryId> used) {
        used.add(id);
        String uuid = id.value();
        if (source != null && source.residual() != null) {
            JsonNode residual = Json.tree(source.residual());
            JsonNode deleted = residual.path("$delete");
            boolean noUuid = false;
            for (JsonNode k : deleted) {
                if (k.asText().equals("uuid")) {
                    noUuid = true;
                }
            }
            if (noUuid) {
                return;
            }
            if (residual.path("uuid").isTextual()) {
                uuid = residual.get("uuid").textValue();
            }
        }
        uuids.put(uuid, id);
    }

    // ---- storing ----

    private enum Fit { SAME, PREFIX, NEW, CONFLICT }

    /**
     * Stores a parsed session, retrying when another process imports the same source at the same moment (its
     * session appears between the lookup and the create); a failure is reported for this source only.
     */
    private int storeRetrying(ParsedSession ps, Listener listener) {
        reportToolPairs(ps, listener);
        for (int attempt = 1; ; attempt++) {
            try {
                return store(ps, listener);
            } catch (AlreadyExistsException e) {
                if (attempt >= 4) {
                    listener.problem(ImportProblem.notStored(sourceOf(ps), e));
                    return 1;
                }
            } catch (ParleyException e) {
                listener.problem(ImportProblem.notStored(sourceOf(ps), e));
                return 1;
            }
        }
    }

    /**
     * Reports, as warnings, every tool result that answers no call made before it in its agent's entries, and every
     * call that no result answers; the records are kept as they are (a provider would reject them, an export leaves
     * them out and says so). An agent's entries may come in several runs (a Parley export interleaves agents in
     * insertion order): they are paired across all of them, in order.
     */
    static void reportToolPairs(ParsedSession ps, Listener listener) {
        record Call(ParsedAgent run, int index) {}
        Map<AgentId, Map<String, Call>> callsByAgent = new LinkedHashMap<>();
        Map<AgentId, Set<String>> answeredByAgent = new HashMap<>();
        for (ParsedAgent agent : ps.agents()) {
            Path file = agent.source() != null ? agent.source() : sourceOf(ps);
            Map<String, Call> calls = callsByAgent.computeIfAbsent(agent.agent(), a -> new LinkedHashMap<>());
            Set<String> answered = answeredByAgent.computeIfAbsent(agent.agent(), a -> new HashSet<>());
            for (int i = 0; i < agent.entries().size(); i++) {
                if (!(agent.entries().get(i).payload() instanceof dev.parley.core.model.Message m)) {
                    continue;
                }
                for (dev.parley.core.model.ContentBlock b : m.content()) {
                    if (b instanceof dev.parley.core.model.ContentBlock.ToolCall c && c.id() != null) {
                        calls.putIfAbsent(c.id(), new Call(agent, i));
                    } else if (b instanceof dev.parley.core.model.ContentBlock.ToolResult r) {
                        if (!calls.containsKey(r.callId())) {
                            listener.problem(new ImportProblem(file, agent.lineOf(i), where(ps, agent, i)
                                    + "orphan tool result: it answers call " + r.callId()
                                    + ", which no earlier message made (kept as it is)", false, r.callId(), null));
                        }
                        answered.add(r.callId());
                    }
                }
            }
        }
        callsByAgent.forEach((agentId, calls) -> calls.forEach((id, call) -> {
            if (!answeredByAgent.get(agentId).contains(id)) {
                ParsedAgent run = call.run();
                Path file = run.source() != null ? run.source() : sourceOf(ps);
                listener.problem(new ImportProblem(file, run.lineOf(call.index()), where(ps, run, call.index())
                        + "dangling tool call " + id + ": no result answers it (kept as it is)", false, id, null));
            }
        }));
    }

    /** Where a record without a line is: its position in its conversation (and the conversation's in the file). */
    private static String where(ParsedSession ps, ParsedAgent agent, int index) {
        if (agent.lineOf(index) > 0) {
            return "";
        }
        return (ps.index() != null ? "conversation " + ps.index() + ", " : "") + "message " + (index + 1) + ": ";
    }

    private static Path sourceOf(ParsedSession ps) {
        if (ps.source() != null) {
            return ps.source();
        }
        return ps.agents().stream().map(ParsedAgent::source).filter(java.util.Objects::nonNull).findFirst()
                .orElse(Path.of("(conversation)"));
    }

    /** Stores a parsed session; returns the number of files rejected while storing. */
    private int store(ParsedSession ps, Listener listener) {
        if (ps.format() == Format.PARLEY) {
            return storeExport(ps, listener);
        }
        if (identifiedById(ps)) {
            return storeBySourceId(ps, listener);
        }
        SessionInfo target = null;
        Map<AgentId, Fit> fits = null;
        List<SessionInfo> candidates = catalog.findByOrigin(ps.origin());
        for (SessionInfo candidate : candidates) {
            Map<AgentId, Fit> f = fit(candidate, ps);
            if (!f.containsValue(Fit.CONFLICT)) {
                target = candidate;
                fits = f;
                break;
            }
        }
        int rejected = 0;
        ImportResult.Status status;
        SessionId session;
        if (target == null) {
            session = chooseId(ps, candidates);
            catalog.create(new NewSession(session, ps.title(), ps.origin(), metadata(ps)));
            status = ImportResult.Status.IMPORTED;
            for (ParsedAgent agent : ps.agents()) {
                rejected += append(session, agent, agent.entries(), listener);
            }
            if (rejected > 0) {
                return forget(session, rejected);
            }
        } else {
            session = target.id();
            boolean changed = false;
            Map<AgentId, List<Entry>> stored = byAgent(log.load(session, null));
            for (ParsedAgent agent : ps.agents()) {
                Fit f = fits.get(agent.agent());
                if (f == Fit.SAME) {
                    continue;
                }
                int have = stored.getOrDefault(agent.agent(), List.of()).size();
                rejected += append(session, agent, agent.entries().subList(have, agent.entries().size()), listener);
                changed = true;
            }
            status = changed ? ImportResult.Status.UPDATED : ImportResult.Status.UNCHANGED;
        }
        List<ImportResult.Agent> agents = ps.agents().stream()
                .map(a -> new ImportResult.Agent(a.agent(), a.source(), a.entries().size(), a.messageCount())).toList();
        listener.session(new ImportResult(session, ps.format(), status, agents, ps.source(), ps.index()));
        return rejected;
    }

    /**
     * Whether the source's own session id is its identity: Claude Code's {@code sessionId} (shared by a session's
     * main and subagent files), a Codex rollout's thread id, a Gemini CLI {@code sessionId}. A pi file is its own
     * session (pi opens sessions by file, and keeps the header id in migrated and grown copies that are different
     * transcripts), so pi stays on the file rule, as do sources without an id (docs/02-import-identity.md).
     */
    static boolean identifiedById(ParsedSession ps) {
        return ps.sourceSessionId() != null
                && (ps.format() == Format.CLAUDE_CODE || ps.format() == Format.CODEX || ps.format() == Format.GEMINI);
    }

    /**
     * One session per source session: the first import creates it; another source with the same session id extends
     * it with the records it does not hold yet, matched by their source ids (so nothing is stored twice), or, when it
     * holds a record with one of those ids that differs, is refused whole, naming the record.
     */
    private int storeBySourceId(ParsedSession ps, Listener listener) {
        List<SessionInfo> candidates = catalog.findByOrigin(ps.origin());
        if (candidates.isEmpty()) {
            SessionId session = chooseId(ps, candidates);
            catalog.create(new NewSession(session, ps.title(), ps.origin(), metadata(ps)));
            int rejected = 0;
            for (ParsedAgent agent : ps.agents()) {
                rejected += append(session, agent, agent.entries(), listener);
            }
            if (rejected > 0) {
                return forget(session, rejected);
            }
            report(ps, session, ImportResult.Status.IMPORTED, listener);
            return rejected;
        }
        SessionInfo target = candidates.get(0);
        Map<EntryId, Entry> stored = new HashMap<>();
        for (Entry e : log.load(target.id(), null)) {
            stored.put(e.id(), e);
        }
        Map<ParsedAgent, List<NewEntry>> fresh = new LinkedHashMap<>();
        for (ParsedAgent agent : ps.agents()) {
            List<NewEntry> add = new ArrayList<>();
            for (int i = 0; i < agent.entries().size(); i++) {
                NewEntry e = agent.entries().get(i);
                Entry have = stored.get(e.id());
                if (have == null) {
                    add.add(e);
                    continue;
                }
                String differs = difference(have, agent.agent(), e);
                if (differs != null) {
                    Path file = agent.source() != null ? agent.source() : sourceOf(ps);
                    listener.problem(new ImportProblem(file, agent.lineOf(i), "conflict: record " + e.id()
                            + " disagrees with session " + target.id() + ", which holds source session "
                            + ps.sourceSessionId() + " already: " + differs + "; nothing of this source was stored",
                            true, null, e.id().value()));
                    return 1;
                }
            }
            fresh.put(agent, add);
        }
        int rejected = 0;
        boolean changed = false;
        for (Map.Entry<ParsedAgent, List<NewEntry>> f : fresh.entrySet()) {
            if (!f.getValue().isEmpty()) {
                rejected += append(target.id(), f.getKey(), f.getValue(), listener);
                changed = true;
            }
        }
        report(ps, target.id(), changed ? ImportResult.Status.UPDATED : ImportResult.Status.UNCHANGED, listener);
        return rejected;
    }

    private static void report(ParsedSession ps, SessionId session, ImportResult.Status status, Listener listener) {
        List<ImportResult.Agent> agents = ps.agents().stream()
                .map(a -> new ImportResult.Agent(a.agent(), a.source(), a.entries().size(), a.messageCount())).toList();
        listener.session(new ImportResult(session, ps.format(), status, agents, ps.source(), ps.index()));
    }

    /**
     * A Parley export: the session keeps its id and creation time; it is unchanged when the store already holds exactly these entries,
     * and otherwise restored as a new session (under a new id when the id is taken). Runs of agents are appended in
     * file order.
     */
    private int storeExport(ParsedSession ps, Listener listener) {
        List<NewEntry> all = ps.agents().stream().flatMap(a -> a.entries().stream()).toList();
        List<AgentId> agentsInOrder = ps.agents().stream().flatMap(a -> a.entries().stream().map(e -> a.agent())).toList();
        SessionId session = null;
        ImportResult.Status status = ImportResult.Status.IMPORTED;
        List<SessionInfo> candidates = catalog.findByOrigin(ps.origin());
        for (SessionInfo candidate : candidates) {
            List<Entry> have = log.load(candidate.id(), null);
            boolean same = have.size() == all.size();
            for (int i = 0; same && i < have.size(); i++) {
                same = have.get(i).toNewEntry().equals(all.get(i)) && have.get(i).agentId().equals(agentsInOrder.get(i));
            }
            if (same) {
                session = candidate.id();
                status = ImportResult.Status.UNCHANGED;
                break;
            }
        }
        int rejected = 0;
        if (session == null) {
            session = chooseId(ps, candidates);
            // The export's creation time only for the first session of its origin: a snapshot restored beside the
            // session it was taken from is created now, so that the original stays the oldest of the origin, the one
            // a later import of the source extends (findByOrigin: oldest first).
            catalog.create(new NewSession(session, ps.title(), ps.origin(), ps.metadata(),
                    candidates.isEmpty() ? ps.createdAt() : null));
            try {
                for (ParsedAgent run : ps.agents()) {
                    log.append(session, run.agent(), run.entries(), usageOf(run.entries()));
                }
            } catch (ParleyException e) {
                catalog.delete(session); // nothing of a file that fails is kept
                throw e;
            }
        }
        Map<AgentId, long[]> counts = new LinkedHashMap<>();
        for (ParsedAgent run : ps.agents()) {
            long[] c = counts.computeIfAbsent(run.agent(), a -> new long[2]);
            c[0] += run.entries().size();
            c[1] += run.messageCount();
        }
        Path file = ps.agents().isEmpty() ? null : ps.agents().get(0).source();
        List<ImportResult.Agent> agents = new ArrayList<>();
        counts.forEach((a, c) -> agents.add(new ImportResult.Agent(a, file, c[0], c[1])));
        listener.session(new ImportResult(session, ps.format(), status, agents, null, null));
        return rejected;
    }

    /**
     * The usage the entries' messages record, summed: stored as the agent's running total with the entries (one
     * atomic append), so an imported session has the per-agent totals a native one has (the catalog's aggregate).
     * A response split over several entries (Claude Code writes one record per content block, each with the
     * response's usage) counts once, with its last entry's usage.
     */
    static Usage usageOf(List<NewEntry> entries) {
        Usage total = Usage.ZERO;
        Map<String, Usage> responses = new LinkedHashMap<>();
        for (NewEntry e : entries) {
            if (e.payload() instanceof dev.parley.core.model.Message m && m.usage() != null) {
                if (m.responseId() == null) {
                    total = total.plus(m.usage());
                } else {
                    responses.put(m.responseId(), m.usage());
                }
            }
        }
        for (Usage u : responses.values()) {
            total = total.plus(u);
        }
        return total;
    }

    /**
     * Deletes a session this import created when an append to it was refused (each refusal already reported): a
     * source is stored whole or not at all, as {@link #storeExport} does, instead of leaving an empty or partial
     * session reported as imported.
     *
     * @return {@code rejected}
     */
    private int forget(SessionId session, int rejected) {
        catalog.delete(session);
        return rejected;
    }

    private int append(SessionId session, ParsedAgent agent, List<NewEntry> entries, Listener listener) {
        try {
            log.append(session, agent.agent(), entries, usageOf(entries));
            return 0;
        } catch (ParleyException e) {
            // Another process importing the same source may have written exactly these entries meanwhile.
            Map<EntryId, NewEntry> now = new HashMap<>();
            log.load(session, agent.agent()).forEach(x -> now.put(x.id(), x.toNewEntry()));
            if (entries.stream().allMatch(x -> x.equals(now.get(x.id())))) {
                return 0;
            }
            Path file = agent.source() != null ? agent.source() : Path.of("(conversation)");
            listener.problem(ImportProblem.notStored(file, e));
            return 1;
        }
    }

    private Map<AgentId, Fit> fit(SessionInfo candidate, ParsedSession ps) {
        Map<AgentId, List<Entry>> stored = byAgent(log.load(candidate.id(), null));
        Map<String, String> sources = sourcesOf(candidate);
        Map<AgentId, Fit> out = new HashMap<>();
        for (ParsedAgent agent : ps.agents()) {
            List<Entry> have = stored.get(agent.agent());
            if (have == null) {
                out.put(agent.agent(), Fit.NEW);
                continue;
            }
            List<NewEntry> want = agent.entries();
            boolean prefix = have.size() <= want.size();
            for (int i = 0; prefix && i < have.size(); i++) {
                prefix = have.get(i).toNewEntry().equals(want.get(i));
            }
            if (!prefix) {
                out.put(agent.agent(), Fit.CONFLICT);
            } else if (have.size() == want.size()) {
                out.put(agent.agent(), Fit.SAME);
            } else {
                // The same file grown: an agent read from a file of its own names it; a conversation of a file
                // that holds several (agent source null, an index) is known by the file and its place there, which
                // the origin the candidate was found by already holds.
                boolean samePath = agent.source() != null
                        ? agent.source().toString().equals(sources.get(agent.agent().value()))
                        : ps.index() != null;
                out.put(agent.agent(), samePath ? Fit.PREFIX : Fit.CONFLICT);
            }
        }
        return out;
    }

    private static Map<AgentId, List<Entry>> byAgent(List<Entry> entries) {
        Map<AgentId, List<Entry>> out = new HashMap<>();
        for (Entry e : entries) {
            out.computeIfAbsent(e.agentId(), a -> new ArrayList<>()).add(e);
        }
        return out;
    }

    private static Map<String, String> sourcesOf(SessionInfo info) {
        RawJson meta = info.metadata().get(IMPORT_KEY);
        Map<String, String> out = new HashMap<>();
        if (meta != null) {
            Json.tree(meta).path("sources").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    /**
     * The new session's id: the source's own id when it is valid and free, otherwise one derived from the source: for
     * a source identified by its session id ({@link #identifiedById}) from that identity alone, else from the origin,
     * the source files and the content. Two processes importing the same source at once so pick the same id, and the
     * second one's create fails; a session of this origin found under either id that {@code known} does not hold
     * was made by such a process after this attempt looked: the attempt is abandoned and the caller looks again
     * ({@link #storeRetrying}), finding it, instead of making a second session for the source (issue 14, break 5).
     *
     * @param known the sessions of this origin this attempt looked at and found no place in
     * @throws AlreadyExistsException if a concurrent import made a session of this origin meanwhile
     */
    private SessionId chooseId(ParsedSession ps, List<SessionInfo> known) {
        String own = ps.sourceSessionId();
        if (own != null && Ids.isValid(own)) {
            SessionId id = new SessionId(own);
            Optional<SessionInfo> holder = catalog.find(id);
            if (holder.isEmpty()) {
                return id;
            }
            requireKnown(holder.get(), ps, known);
        }
        SessionId derived;
        if (identifiedById(ps)) {
            derived = new SessionId(nameBasedUuid(ps.origin()).toString());
        } else {
            StringBuilder key = new StringBuilder(ps.origin());
            ps.agents().forEach(a -> key.append('\n').append(a.agent()).append('=').append(a.source()));
            key.append('\n').append(ps.source()).append('#').append(ps.index()).append('\n').append(contentDigest(ps));
            derived = new SessionId(nameBasedUuid(key.toString()).toString());
        }
        catalog.find(derived).ifPresent(holder -> requireKnown(holder, ps, known));
        return derived;
    }

    private static void requireKnown(SessionInfo holder, ParsedSession ps, List<SessionInfo> known) {
        if (ps.origin().equals(holder.origin()) && known.stream().noneMatch(k -> k.id().equals(holder.id()))) {
            throw new AlreadyExistsException("session " + holder.id() + " of " + ps.origin()
                    + " was created meanwhile, by another import of the same source");
        }
    }

    /** A digest of every entry's canonical JSON: the same content gives the same digest in any process. */
    private static String contentDigest(ParsedSession ps) {
        java.security.MessageDigest digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (ParsedAgent a : ps.agents()) {
            for (NewEntry e : a.entries()) {
                Entry asStored = new Entry(1, e.id(), e.parentId(), a.agent(), e.timestamp(), e.payload(), e.source());
                digest.update(Json.write(dev.parley.json.EntryCodec.encode(asStored))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return java.util.HexFormat.of().formatHex(digest.digest());
    }

    /** A version-8 UUID from the SHA-256 of a name (RFC 9562 §5.8). */
    static java.util.UUID nameBasedUuid(String name) {
        byte[] hash;
        try {
            hash = java.security.MessageDigest.getInstance("SHA-256").digest(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 8; i++) {
            msb = msb << 8 | (hash[i] & 0xff);
            lsb = lsb << 8 | (hash[i + 8] & 0xff);
        }
        msb = msb & ~0xF000L | 0x8000L;
        lsb = lsb & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new java.util.UUID(msb, lsb);
    }

    private static Map<String, RawJson> metadata(ParsedSession ps) {
        ObjectNode info = Json.object();
        info.put("format", ps.format().cliName());
        if (ps.sourceSessionId() != null) {
            info.put("sourceSessionId", ps.sourceSessionId());
        }
        if (ps.source() != null) {
            info.put("file", ps.source().toString());
            if (ps.index() != null) {
                info.put("index", ps.index());
            }
        }
        ObjectNode sources = info.putObject("sources");
        for (ParsedAgent a : ps.agents()) {
            if (a.source() != null) {
                sources.put(a.agent().value(), a.source().toString());
            }
        }
        Map<String, RawJson> out = new LinkedHashMap<>(ps.metadata());
        out.put(IMPORT_KEY, Json.raw(info));
        return out;
    }

    /**
     * What differs between a stored entry and a record of the source with its id, or null if they say the same: raw
     * JSON (arguments, metadata, the source's own fields) is compared as JSON, so that a record whose keys come in
     * another order (an export of the session, a file rewritten by a tool) is the same record.
     */
    private static @Nullable String difference(Entry have, AgentId agent, NewEntry e) {
        if (!have.agentId().equals(agent)) {
            return "it belongs to agent " + have.agentId();
        }
        if (have.payload().kind() != e.payload().kind()) {
            return "it is stored as a " + have.payload().kind().wireName() + " entry and is a "
                    + e.payload().kind().wireName() + " entry here";
        }
        String content = jsonDifference(EntryCodec.comparable(have.payload()), EntryCodec.comparable(e.payload()), "");
        if (content != null) {
            return "its content differs at " + content;
        }
        if (!Objects.equals(have.parentId(), e.parentId())) {
            return "its parent differs (" + have.parentId() + " stored, " + e.parentId() + " here)";
        }
        if (!Objects.equals(have.timestamp(), e.timestamp())) {
            return "its timestamp differs (" + have.timestamp() + " stored, " + e.timestamp() + " here)";
        }
        if (have.source() == null || e.source() == null) {
            return have.source() == e.source() ? null : "its source fields differ (kept on one side only)";
        }
        String source = jsonDifference(EntryCodec.comparable(have.source()), EntryCodec.comparable(e.source()), "");
        return source == null ? null : "its source fields differ at " + source;
    }

    /**
     * The path of the first place where two JSON values differ ({@code a.b[2].c}), or null if they are the same JSON
     * ({@link Json#same}: numbers as written, so {@code 1.0} is not {@code 1.00}).
     */
    private static @Nullable String jsonDifference(JsonNode a, JsonNode b, String path) {
        if (Json.same(a, b)) {
            return null;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> names = new java.util.TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String at = path.isEmpty() ? name : path + "." + name;
                JsonNode x = a.get(name);
                JsonNode y = b.get(name);
                String d = x == null || y == null ? at : jsonDifference(x, y, at);
                if (d != null) {
                    return d;
                }
            }
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                String d = jsonDifference(a.get(i), b.get(i), path + "[" + i + "]");
                if (d != null) {
                    return d;
                }
            }
        }
        return path.isEmpty() ? "its whole value" : path;
    }

}
