package dev.parley.files;

import dev.parley.core.InvalidInputException;
import dev.parley.core.IoErrors;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.BaseStore;
import dev.parley.core.store.Capability;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.files.internal.AtomicFiles;
import dev.parley.files.internal.FileRepositories;
import dev.parley.files.internal.JsonlMessageLog;
import dev.parley.files.internal.StoreLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * {@code jsonl:DIR}: a store in a directory of plain files — the message log as one JSONL file per session (panto's
 * session store, made durable and safe for several processes), session records and archives as JSON files
 * (Heddle's file adapter, made durable). Open it with {@code Stores.open("jsonl:DIR")} or {@link #open(Path,
 * StoreOptions)}.
 *
 * <h2>Layout</h2>
 * The default scope ({@value Store#DEFAULT_SCOPE}) keeps its sessions in {@code DIR/<session-id>.jsonl} and its
 * records in {@code DIR/records/default/}, so a directory written before stores had scopes opens unchanged. Every
 * other scope keeps its sessions in {@code DIR/scopes/<scope>/} and its records in {@code DIR/records/<scope>/}, the
 * scope percent-encoded into one safe file name. A scope's catalog lists only its own directory: a session of another
 * scope looks missing. The files are described in {@code docs/03-jsonl-store.md} and {@code docs/05-session-records.md}.
 *
 * <h2>Guarantees</h2>
 * Every append — its entries and its usage — is one write followed by {@code fdatasync}, under an exclusive lock on the
 * session's file that other processes respect; it is checked against the stored entries under that lock, so a
 * retried batch is recognised and written once. A crash leaves each batch with its usage whole or absent; an append
 * torn by a crash is ignored, set aside by the next writer and reported. Record and archive writes replace files
 * atomically and durably under a per-scope writer lock. Capabilities: {@link Capability#PERSISTENT},
 * {@link Capability#DURABLE} (a power loss too, where the file system honours {@code fsync}),
 * {@link Capability#MULTI_PROCESS}, {@link Capability#CATALOG}, {@link Capability#SESSION_RECORDS},
 * {@link Capability#ARCHIVES}.
 *
 * <p>Thread-safe; appends to different sessions run in parallel, and appends to one session that arrive together share
 * one write and one {@code fdatasync} (group commit). A store keeps up to 256 session files of each scope open between
 * operations (the least recently used are closed beyond that; a file deleted or replaced by another process is let go
 * at its next use); closing it closes them and writes the catalog caches, and using it, its views or anything reached
 * through them afterwards fails with an {@link UnavailableException}.
 */
public final class JsonlStore extends BaseStore {
    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.PERSISTENT,
            Capability.DURABLE, Capability.MULTI_PROCESS, Capability.CATALOG, Capability.SESSION_RECORDS,
            Capability.ARCHIVES));

    private final Path dir;
    private final StoreOptions options;
    /** The log of every scope reached so far, shared by the root and its views. */
    private final Map<String, JsonlMessageLog> logs;
    private final FileRepositories records;
    private final JsonlMessageLog log;
    private final ChatSessionRepository sessions;
    private final ChatArchiveRepository archives;

    private JsonlStore(String uri, Path dir, String scope, boolean scopePinned, StoreOptions options) {
        super(uri, scope, scopePinned);
        this.dir = dir;
        this.options = options;
        this.logs = new ConcurrentHashMap<>();
        this.records = new FileRepositories(StoreLayout.recordsRoot(dir), this::isClosed);
        this.log = logOf(scope);
        this.sessions = records.sessions(scope);
        this.archives = records.archives(scope);
    }

    private JsonlStore(JsonlStore root, String scope) {
        super(root, scope);
        this.dir = root.dir;
        this.options = root.options;
        this.logs = root.logs;
        this.records = root.records;
        this.log = logOf(scope);
        this.sessions = records.sessions(scope);
        this.archives = records.archives(scope);
    }

    /**
     * {@link #open(Path, StoreOptions)} with {@link StoreOptions#defaults()}: the default scope.
     *
     * @param dir the store's directory; created if it does not exist
     * @return the open store, bound to {@value Store#DEFAULT_SCOPE}
     * @throws InvalidInputException if {@code dir} is an existing file
     * @throws UnavailableException if the directory cannot be created
     */
    public static JsonlStore open(Path dir) {
        return open(dir, StoreOptions.defaults());
    }

    /**
     * Opens the store in {@code dir}, creating the directory if it does not exist, bound to the options' scope (the
     * default scope when they name none). The same as {@code Stores.open("jsonl:" + dir, options)}.
     *
     * @param dir the store's directory
     * @param options the clock that stamps sessions, the id generator, the scope
     * @return the open store; its {@link #directory()} is {@code dir} made absolute and normalized
     * @throws InvalidInputException if {@code dir} is an existing file
     * @throws UnavailableException if the directory cannot be created
     */
    public static JsonlStore open(Path dir, StoreOptions options) {
        Objects.requireNonNull(options, "options");
        Path absolute = prepare(dir);
        return new JsonlStore("jsonl:" + absolute, absolute, options.scope() == null ? DEFAULT_SCOPE : options.scope(),
                false, options);
    }

    /** Opens a store for {@link JsonlStoreProvider}: the URI as given, its scope, and whether the URI pinned it. */
    static JsonlStore open(String uri, Path dir, String scope, boolean scopePinned, StoreOptions options) {
        return new JsonlStore(uri, prepare(dir), scope, scopePinned, Objects.requireNonNull(options, "options"));
    }

    private static Path prepare(Path dir) {
        Path absolute = Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new InvalidInputException("jsonl:" + absolute + " is a file, not a directory: a JSONL store is a"
                    + " directory of session files (a SQLite database file opens as sqlite:" + absolute + ")");
        }
        try {
            Files.createDirectories(absolute);
        } catch (IOException e) {
            throw new UnavailableException("cannot create the store directory " + absolute + ": "
                    + IoErrors.describe(e), e);
        }
        return absolute;
    }

    private JsonlMessageLog logOf(String scope) {
        return logs.computeIfAbsent(scope, s -> new JsonlMessageLog(StoreLayout.logDirectory(dir, s), options));
    }

    /**
     * The store's directory (absolute), the same for every scope.
     *
     * @return the directory given at open, absolute and normalized
     */
    public Path directory() {
        return dir;
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public MessageLog log() {
        return log;
    }

    @Override
    public Optional<SessionCatalog> catalog() {
        return Optional.of(log);
    }

    @Override
    public Optional<ChatSessionRepository> sessions() {
        return Optional.of(sessions);
    }

    @Override
    public Optional<ChatArchiveRepository> archives() {
        return Optional.of(archives);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Deletes the scope's session files (each under its writer lock) with their set-aside torn tails and its
     * catalog cache, then its records directory; for a scope other than the default one, its log directory with
     * whatever else is left in it. The default scope's directory is the store's and keeps the other scopes.
     */
    @Override
    public void deleteScope() {
        if (isClosed()) {
            throw new UnavailableException("the store " + uri() + " is closed", null);
        }
        log.deleteAll();
        records.dropScope(scope());
        if (!scope().equals(DEFAULT_SCOPE)) {
            Path scopeDir = StoreLayout.logDirectory(dir, scope());
            try (Stream<Path> walk = Files.walk(scopeDir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                AtomicFiles.syncDirectory(scopeDir.getParent());
            } catch (java.nio.file.NoSuchFileException e) {
                // nothing was ever written in this scope
            } catch (IOException e) {
                throw new UnavailableException("cannot remove " + scopeDir + ": " + IoErrors.describe(e), e);
            }
        }
    }

    @Override
    protected Store view(String scope) {
        return new JsonlStore(this, scope);
    }

    @Override
    protected void release() {
        logs.values().forEach(JsonlMessageLog::release);
    }
}
