package dev.parley.files.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.IoErrors;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogOrder;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Scopes;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.Json;
import dev.parley.json.StrictObject;
import dev.parley.json.repository.ChatArchiveCodec;
import dev.parley.json.repository.ChatSessionCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The local JSON file store of session records and archives (Heddle's file adapter, made durable), one directory per
 * scope under {@code ROOT/<scope>/}:
 * <pre>
 * chat-sessions.catalog.json               {"version":1,"sessions":[catalog entries, in catalog order]}
 * chat-sessions.catalog.json.lock          the cross-process writer lock
 * chat-sessions/&lt;id&gt;.&lt;revision&gt;.json         immutable, self-contained record bodies
 * chat-sessions/&lt;id&gt;/archives/manifest.json    the archive manifest (and manifest.json.lock)
 * chat-sessions/&lt;id&gt;/archives/&lt;archive&gt;.jsonl    archived messages, {"index":i, …message} per line
 * chat-sessions/&lt;id&gt;/archives/&lt;archive&gt;.summary.md  the summary (a trailing newline added)
 * </pre>
 * Ids become file names through {@link PathSegments}. A write takes the in-process and the file lock, re-reads the
 * catalog, checks the expected revision, writes the new body, then replaces the catalog — every file written to a
 * temporary file, fsynced, renamed, and its directory fsynced (Heddle's adapter fsyncs nothing). Readers take no lock:
 * the catalog is replaced atomically and bodies never change. A catalog that names a missing body is corruption.
 * Archives write content first and the manifest last, the same way. A legacy {@code <id>.json} body is read, leniently,
 * as revision 1.
 *
 * <p>Thread-safe; several processes may share the directory. Not API: reached through
 * {@link dev.parley.files.JsonlStore#sessions()} and {@link dev.parley.files.JsonlStore#archives()}.
 */
public final class FileRepositories {
    static final String CATALOG = "chat-sessions.catalog.json";
    static final String BODIES = "chat-sessions";
    static final String LOCATOR_PREFIX = ".parley/chat-sessions/";
    /** The catalog file's format version. */
    static final int CATALOG_VERSION = 1;

    private final Path root;
    private final BooleanSupplier closed;

    /** Repositories under {@code root} (created as needed) that are never closed. */
    public FileRepositories(Path root) {
        this(root, () -> false);
    }

    /**
     * Repositories under {@code root} (created as needed) that fail with an {@link UnavailableException} once
     * {@code closed} says their store was closed.
     */
    public FileRepositories(Path root, BooleanSupplier closed) {
        this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
        this.closed = Objects.requireNonNull(closed, "closed");
    }

    private void ensureOpen() {
        if (closed.getAsBoolean()) {
            throw new UnavailableException("the store of " + root.getParent() + " is closed", null);
        }
    }

    /** The directory of a scope. */
    public Path scopeDirectory(String scope) {
        return root.resolve(PathSegments.encode(Scopes.require(scope)));
    }

    /** The session records of a scope. */
    public ChatSessionRepository sessions(String scope) {
        return new Sessions(scopeDirectory(Objects.requireNonNull(scope, "scope")), this);
    }

    /** The archives of a scope. */
    public ChatArchiveRepository archives(String scope) {
        return new Archives(scopeDirectory(Objects.requireNonNull(scope, "scope")), this);
    }

    /** Removes a scope's records and archives, its whole directory. */
    public void dropScope(String scope) {
        ensureOpen();
        Path dir = scopeDirectory(scope);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UnavailableException("cannot remove " + dir + ": " + IoErrors.describe(e), e);
        }
    }

    /** The body file of a session at a revision. */
    public static Path body(Path scopeDir, String id, long revision) {
        return scopeDir.resolve(BODIES).resolve(PathSegments.encode(id) + "." + revision + ".json");
    }

    /** The archive directory of a session. */
    public static Path archiveDir(Path scopeDir, String sessionId) {
        return scopeDir.resolve(BODIES).resolve(PathSegments.encode(sessionId)).resolve("archives");
    }

    interface Work<T> {
        T run() throws IOException;
    }

    /** Runs {@code work} holding the exclusive in-process and file lock of {@code lockFile}. */
    static <T> T locked(Path lockFile, Work<T> work) {
        try {
            Files.createDirectories(lockFile.getParent());
            return FileLocks.with(lockFile, false, () -> FileChannel.open(lockFile, StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), channel -> work.run());
        } catch (IOException e) {
            throw new UnavailableException("cannot write under " + lockFile.getParent() + ": "
                    + IoErrors.describe(e), e);
        }
    }

    static byte[] pretty(JsonNode node) {
        try {
            return (Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n")
                    .getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode parseFile(Path file, boolean archive) throws IOException {
        try {
            return Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new StorageCorruptionException(file.toString(), Json.unreadable(e), e, archive);
        }
    }

    private static final class Sessions implements ChatSessionRepository {
        private final Path dir;
        private final Path catalogFile;
        private final FileRepositories owner;

        Sessions(Path dir, FileRepositories owner) {
            this.dir = dir;
            this.catalogFile = dir.resolve(CATALOG);
            this.owner = owner;
        }

        /** The catalog, or an empty one when the file does not exist. */
        private List<CatalogEntry> readCatalog() throws IOException {
            JsonNode root;
            try {
                root = parseFile(catalogFile, false);
            } catch (NoSuchFileException e) {
                return new ArrayList<>();
            }
            String where = catalogFile.toString();
            try {
                StrictObject o = StrictObject.of(root, where).allowOnly(Set.of("version", "sessions"));
                long version = o.longValue("version");
                if (version > CATALOG_VERSION) {
                    throw new UnsupportedException(where + " has catalog version " + version
                            + ", newer than this Parley understands (" + CATALOG_VERSION + "); upgrade Parley to read it");
                }
                if (version != CATALOG_VERSION) {
                    throw new StorageCorruptionException(where, "unknown catalog version " + version, null, false);
                }
                JsonNode sessions = o.required("sessions");
                if (!sessions.isArray()) {
                    throw new StorageCorruptionException(where, "sessions is not a list", null, false);
                }
                List<CatalogEntry> out = new ArrayList<>();
                for (int i = 0; i < sessions.size(); i++) {
                    out.add(ChatSessionCodec.parseCatalogEntry(sessions.get(i), where + " sessions[" + i + "]"));
                }
                return out;
            } catch (StorageCorruptionException e) {
                throw e;
            } catch (CorruptRecordException e) {
                throw new StorageCorruptionException(e.location(), e.detail(), e, false);
            }
        }

        private void writeCatalog(List<CatalogEntry> entries) throws IOException {
            List<CatalogEntry> sorted = new ArrayList<>(entries);
            sorted.sort(CatalogOrder.ENTRIES);
            ObjectNode root = Json.object();
            root.put("version", CATALOG_VERSION);
            ArrayNode sessions = root.putArray("sessions");
            sorted.forEach(e -> sessions.add(ChatSessionCodec.encodeCatalogEntry(e)));
            AtomicFiles.write(catalogFile, pretty(root));
        }

        private static @Nullable CatalogEntry find(List<CatalogEntry> catalog, String id) {
            for (CatalogEntry e : catalog) {
                if (e.id().equals(id)) {
                    return e;
                }
            }
            return null;
        }

        @Override
        public CatalogPage list(CatalogQuery query) {
            owner.ensureOpen();
            CatalogOrder.decode(query.cursor()); // a damaged cursor fails before any I/O
            try {
                return CatalogOrder.page(readCatalog(), query);
            } catch (IOException e) {
                throw new UnavailableException("cannot read " + catalogFile + ": " + IoErrors.describe(e), e);
            }
        }

        @Override
        public Optional<StoredSession> read(String sessionId) {
            owner.ensureOpen();
            ChatSession.requireId(sessionId, "session id");
            try {
                // A writer may replace the catalog and remove the body this catalog names between the two reads:
                // then the catalog has moved on, and reading both again gives the current answer. It may even have
                // come back to the same revision (the session deleted and created again, its new body written before
                // the catalog names it), so the same revision is read again too. Only a body that stays missing is
                // corruption.
                for (int attempt = 0; ; attempt++) {
                    CatalogEntry entry = find(readCatalog(), sessionId);
                    if (entry == null) {
                        return Optional.empty();
                    }
                    try {
                        return Optional.of(new StoredSession(readBody(sessionId, entry.revision()), entry.revision()));
                    } catch (NoSuchFileException e) {
                        if (attempt == 10) {
                            throw new StorageCorruptionException(e.getFile(),
                                    "the catalog references a session body that is missing", e, false);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UnavailableException("cannot read session " + sessionId + " in " + dir + ": "
                        + IoErrors.describe(e), e);
            }
        }

        /** The body of a revision. @throws NoSuchFileException if it is not there */
        private ChatSession readBody(String id, long revision) throws IOException {
            Path file = body(dir, id, revision);
            try {
                ChatSession s = ChatSessionCodec.parseStrict(parseFile(file, false), file.toString());
                if (!s.id().equals(id)) {
                    throw new StorageCorruptionException(file.toString(), "the body holds session " + s.id(), null, false);
                }
                return s;
            } catch (NoSuchFileException e) {
                Path legacy = dir.resolve(BODIES).resolve(PathSegments.encode(id) + ".json");
                if (revision == 1 && Files.exists(legacy)) {
                    return ChatSessionCodec.parseTolerant(parseFile(legacy, false), legacy.toString());
                }
                throw e;
            }
        }

        private Path lock() {
            return dir.resolve(CATALOG + ".lock");
        }

        @Override
        public StoredSession create(ChatSession session) {
            owner.ensureOpen();
            return locked(lock(), () -> {
                List<CatalogEntry> catalog = readCatalog();
                if (find(catalog, session.id()) != null) {
                    throw new SessionAlreadyExistsException(session.id());
                }
                AtomicFiles.write(body(dir, session.id(), 1), pretty(ChatSessionCodec.encode(session)));
                catalog.add(CatalogEntry.of(session, 1));
                writeCatalog(catalog);
                return new StoredSession(session, 1);
            });
        }

        @Override
        public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
            owner.ensureOpen();
            return locked(lock(), () -> {
                List<CatalogEntry> catalog = readCatalog();
                CatalogEntry current = find(catalog, session.id());
                if (current == null) {
                    return Optional.<StoredSession>empty();
                }
                if (current.revision() != expectedRevision) {
                    throw new RevisionConflictException(session.id(), expectedRevision, current.revision());
                }
                long next = expectedRevision + 1;
                // A crashed writer may have left a body of this revision that no catalog references: replace it.
                AtomicFiles.write(body(dir, session.id(), next), pretty(ChatSessionCodec.encode(session)));
                catalog.remove(current);
                catalog.add(CatalogEntry.of(session, next));
                writeCatalog(catalog);
                // Nothing references the previous body any more; a reader that still holds the old catalog retries.
                Files.deleteIfExists(body(dir, session.id(), expectedRevision));
                return Optional.of(new StoredSession(session, next));
            });
        }

        @Override
        public boolean delete(String sessionId, long expectedRevision) {
            owner.ensureOpen();
            ChatSession.requireId(sessionId, "session id");
            return locked(lock(), () -> {
                List<CatalogEntry> catalog = readCatalog();
                CatalogEntry current = find(catalog, sessionId);
                if (current == null) {
                    return false;
                }
                if (current.revision() != expectedRevision) {
                    throw new RevisionConflictException(sessionId, expectedRevision, current.revision());
                }
                catalog.remove(current);
                writeCatalog(catalog);
                // The catalog no longer references the body: removing it now is safe (and only tidies up).
                Files.deleteIfExists(body(dir, sessionId, current.revision()));
                return true;
            });
        }
    }

    private static final class Archives implements ChatArchiveRepository {
        private final Path dir;
        private final FileRepositories owner;

        Archives(Path dir, FileRepositories owner) {
            this.dir = dir;
            this.owner = owner;
        }

        @Override
        public ChatArchiveManifest loadManifest(String sessionId) {
            owner.ensureOpen();
            ChatSession.requireId(sessionId, "session id");
            try {
                return manifest(sessionId);
            } catch (IOException e) {
                throw new UnavailableException("cannot read the archive manifest of " + sessionId + ": "
                        + IoErrors.describe(e), e);
            }
        }

        private ChatArchiveManifest manifest(String sessionId) throws IOException {
            Path file = archiveDir(dir, sessionId).resolve("manifest.json");
            try {
                return ChatArchiveCodec.parseManifest(parseFile(file, true), sessionId, file.toString());
            } catch (NoSuchFileException e) {
                return ChatArchiveManifest.empty(sessionId);
            }
        }

        @Override
        public Optional<String> readSummary(String summaryLocator) {
            return readLocated(summaryLocator, ".summary.md", "summary").map(text ->
                    text.endsWith("\n") ? text.substring(0, text.length() - 1) : text);
        }

        @Override
        public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
            return readLocated(messagesLocator, ".jsonl", "archived message file").map(text ->
                    ChatSessionCodec.parseArchivedMessagesJsonl(text, messagesLocator));
        }

        /** The text of the archive body a locator names, or empty if it names none of this store's. */
        private Optional<String> readLocated(String locator, String suffix, String what) {
            owner.ensureOpen();
            if (!locator.startsWith(LOCATOR_PREFIX)) {
                return Optional.empty();
            }
            Path file;
            try {
                file = dir.resolve(BODIES).resolve(locator.substring(LOCATOR_PREFIX.length())).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                return Optional.empty(); // not a path this store could have written
            }
            if (!file.startsWith(dir.resolve(BODIES))) {
                throw new StorageCorruptionException(locator, "the locator escapes the store", null, true);
            }
            if (!locator.endsWith(suffix) || Files.isDirectory(file)) {
                return Optional.empty();
            }
            try {
                return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
            } catch (NoSuchFileException e) {
                return Optional.empty();
            } catch (java.nio.charset.MalformedInputException e) {
                throw new StorageCorruptionException(file.toString(), "the " + what + " is not UTF-8", e, true);
            } catch (IOException e) {
                throw new UnavailableException("cannot read the " + what + " " + file + ": " + IoErrors.describe(e), e);
            }
        }

        @Override
        public ArchiveAppend.Result append(ArchiveAppend request) {
            owner.ensureOpen();
            Path archives = archiveDir(dir, request.sessionId());
            return locked(archives.resolve("manifest.json.lock"), () -> {
                ChatArchiveManifest current = manifest(request.sessionId());
                String session = PathSegments.encode(request.sessionId());
                String name = PathSegments.encode(request.archive().id());
                String base = LOCATOR_PREFIX + session + "/archives/" + name;
                ArchiveRecord archive = request.archive().withLocators(base + ".jsonl", base + ".summary.md");
                ChatArchiveManifest next = current.withArchive(archive);
                // Content first (replacing what a failed append may have left), the manifest last.
                AtomicFiles.write(archives.resolve(name + ".jsonl"),
                        ChatSessionCodec.archivedMessagesJsonl(request.messages()).getBytes(StandardCharsets.UTF_8));
                AtomicFiles.write(archives.resolve(name + ".summary.md"),
                        (request.summary() + "\n").getBytes(StandardCharsets.UTF_8));
                AtomicFiles.write(archives.resolve("manifest.json"),
                        ChatArchiveCodec.serializeManifest(next).getBytes(StandardCharsets.UTF_8));
                return new ArchiveAppend.Result(archive, next);
            });
        }
    }
}
