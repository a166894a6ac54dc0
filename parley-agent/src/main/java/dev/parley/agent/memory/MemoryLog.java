package dev.parley.agent.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.Store;
import dev.parley.json.Json;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A framework's chat memory kept in a Parley message log: the engine of {@code ParleyChatMemoryStore} (LangChain4j)
 * and {@code ParleyChatMemoryRepository} (Spring AI). Each memory id is one session ({@link MemoryIds}); its
 * messages are entries of the agent {@link #AGENT}, chained in the order they were first set.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #set} takes the whole list the framework holds and <b>appends only the messages that are new</b>:
 *       a message the memory handed out or was given before is recognised by identity and never written again,
 *       nothing stored is rewritten, so its cost does not grow with the length of the history. A message that is not
 *       one of those objects (a list the caller built itself) is taken for a message of the view it equals — in the
 *       framework's {@code equals} and as Parley stores it — unless that one comes before, in the view, the message of
 *       the view matched just before it; then it is new, and appended. So a message equal to one a window is evicting
 *       ("continue" again) is appended, not taken for the one leaving.</li>
 *   <li>The list last set — the <em>view</em> — is kept as a pointer into the log: ranges of the message chain,
 *       the last of which may be "the newest <i>k</i> messages". When a window evicts messages from the front, they
 *       stay in the log and only the pointer moves: a small detached {@code parley.memory.view} entry, written in the
 *       same atomic append as the new messages, and only when the view in force does not already describe the new
 *       one — so a view that just grows, and a window that keeps sliding at the same size, write none.
 *       {@link #get} returns exactly the list last set, in that order, also from another process or after a
 *       restart.</li>
 *   <li><b>Concurrency</b>: each append to a memory is conditional on the memory's latest entry being the one its
 *       view ends with ({@link MessageLog#appendIfLast}, which the store checks atomically with the write), so of two
 *       writers of one memory — threads or processes — that start from the same view, only one appends: the other's
 *       append is refused whole, and it reloads and merges. A memory's first entry has the same id for every writer
 *       ({@code mem-0000000001}), so two writers that each begin the memory collide on it; every later id carries the
 *       random tag of the batch that wrote it ({@code mem-0000000042-x7Kq2ZbA}), so no other batch repeats it —
 *       not another writer's, not one of the memory begun again after a deletion, not one after a truncation. The
 *       first message also names the {@code MemoryLog} that wrote it (a random id in its metadata, {@value #WRITER_KEY},
 *       which the frameworks do not see), so that two writers beginning a memory with equal messages at the same moment
 *       still differ, and the store does not take the second for a retry of the first.
 *       The merge is three-way: what the caller removed is measured against the view its own thread last read through
 *       {@link #get}, so messages another writer added meanwhile are kept (placed before the caller's new ones, never
 *       taken for the caller's own, however equal) and never lost or doubled. Within a process, calls on one memory
 *       are serialized by a lock.</li>
 *   <li>{@link #delete} deletes the session and its whole history (the frameworks' {@code clear()}). A list read
 *       before the deletion is no base for a later {@link #set}: that set stores the whole list it is given, as the
 *       first set of a new memory does.</li>
 *   <li><b>Ownership</b>: a memory's session records its memory id and framework; a memory id that maps to a session
 *       of another memory id (a hash that collides with a literal id) or of the other framework is refused with an
 *       {@link InvalidInputException}, before anything is written.</li>
 * </ul>
 *
 * <p>The view of a memory is cached in this object. A {@link #get} checks the seq of the memory's last entry in the log
 * ({@link MessageLog#lastSeq}, one read of an index) and reloads only when another writer changed it; a {@link #set}
 * that has something to append does not read the log first when its view's latest entry has a tag: the conditional
 * append refuses the view if the log moved (a set with nothing to append, or on a view that ends with an untagged id,
 * reads the seq as {@code get} does). All writers of a memory must run this version: an earlier one neither reads
 * tagged ids nor makes its appends conditional. Thread-safe.
 * Failures are the store's {@link dev.parley.core.ParleyException}s; a failed {@link #set} wrote nothing and left the
 * view as it was.
 *
 * @param <M> the framework's message type; its {@code equals} and {@code hashCode} compare content
 */
public final class MemoryLog<M> {
    /** The agent whose entries hold a memory's messages and views. */
    public static final AgentId AGENT = AgentId.of("memory");
    /** The custom type of the detached entries that record a view. */
    public static final String VIEW_TYPE = "parley.memory.view";

    private static final String ID_PREFIX = "mem-";
    /** The key, in a memory's first message's metadata, of the id of the {@code MemoryLog} that wrote it. */
    public static final String WRITER_KEY = "parley.memory.writer";
    private static final int MAX_ATTEMPTS = 16;
    private static final int MAX_PENDING_READS = 64;
    private static final int TITLE_ID_LENGTH = 64;
    private static final int TAG_LENGTH = 8;
    private static final String TAG_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    /** Not a seeded generator: processes started from one snapshot must not draw the same tags. */
    private static final SecureRandom TAGS = new SecureRandom();

    private final MessageLog log;
    private final @Nullable SessionCatalog catalog;
    private final MessageCodec<M> codec;
    private final Clock clock;
    /** This writer's id ({@link #WRITER_KEY}): the same for its retries, another for any other writer. */
    private final RawJson writer = RawJson.of("\"" + UUID.randomUUID() + "\"");
    private final Map<SessionId, State<M>> states = new ConcurrentHashMap<>();
    private final ThreadLocal<Map<SessionId, View<M>>> reads = ThreadLocal.withInitial(HashMap::new);

    /**
     * @param store the store whose log (and catalog, when it has one) keeps the memories; not closed by this object
     * @param codec the framework's message mapping
     * @param clock the clock stamped on new entries
     */
    public MemoryLog(Store store, MessageCodec<M> codec, Clock clock) {
        Objects.requireNonNull(store, "store");
        this.log = store.log();
        this.catalog = store.catalog().orElse(null);
        this.codec = Objects.requireNonNull(codec, "codec");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The session that keeps a memory ({@link MemoryIds#sessionId}).
     *
     * @param memoryId the framework's memory id
     * @return the session id, as {@link MemoryIds#sessionId} makes it
     * @throws InvalidInputException if the memory id is empty or holds an unpaired surrogate
     */
    public SessionId sessionId(String memoryId) {
        return MemoryIds.sessionId(memoryId);
    }

    /**
     * The messages last set for the memory, in order; empty for a memory never set or deleted. The list is a fresh,
     * unmodifiable copy; the message objects are shared with the memory's cache and must not be mutated.
     *
     * @param memoryId the framework's memory id
     * @return the messages; empty when the memory was never set or was deleted
     * @throws InvalidInputException if the memory id is empty, or maps to a session that another memory id owns
     */
    public List<M> get(String memoryId) {
        SessionId session = sessionId(memoryId);
        State<M> state = state(session, memoryId);
        state.lock.lock();
        try {
            View<M> view = fresh(state, memoryId);
            Map<SessionId, View<M>> pending = reads.get();
            if (pending.size() >= MAX_PENDING_READS) {
                pending.clear();
            }
            pending.put(session, view);
            List<M> out = new ArrayList<>(view.slots.size());
            for (Slot<M> s : view.slots) {
                out.add(s.message);
            }
            return Collections.unmodifiableList(out);
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * Makes {@code messages} the memory's view, appending the messages that are new (see the class contract).
     *
     * @param memoryId the framework's memory id
     * @param messages the whole list the framework holds, in order; elements must not be null
     * @throws NullPointerException if {@code messages} is null or holds a null; nothing was written
     * @throws InvalidInputException if the memory id is empty or owned by another memory id, or a message cannot be
     *     mapped; nothing was written
     * @throws UnavailableException if the store failed, or other writers kept winning the next entry for
     *     {@value #MAX_ATTEMPTS} attempts; nothing of this call was written
     */
    public void set(String memoryId, List<? extends M> messages) {
        for (M m : messages) {
            Objects.requireNonNull(m, "a message is null");
        }
        SessionId session = sessionId(memoryId);
        State<M> state = state(session, memoryId);
        View<M> base = reads.get().remove(session);
        state.lock.lock();
        try {
            boolean check = false;
            int attempts = 0;
            while (true) {
                // No read of the log for news when the cached view's latest entry has a batch's tag (entryId): the
                // append is conditional on the memory's latest entry being that one, which the store checks
                // atomically, so a stale view is refused there and reloaded. An id without a tag (a memory's first,
                // or an earlier version's) recurs when a memory is begun again: such a view is read afresh first.
                View<M> cached = state.view;
                boolean unchecked = !check && cached != null && cached.lastEntry != null && isUnique(cached.lastEntry);
                View<M> current = unchecked ? cached : fresh(state, memoryId);
                // A view read before the memory was deleted elsewhere (and perhaps begun again) is no base: its entry
                // ids may name other messages now. Its origin tells (not a seq: a replay after a remote: fallback
                // changes those). The caller then saw none of what is there: all of it is kept, all it gives is new.
                View<M> from = base == null ? current
                        : base.origin == null || base.origin.equals(current.origin) ? base : View.empty();
                try {
                    if (write(state, memoryId, current, from, messages, unchecked)) {
                        return;
                    }
                    check = true; // nothing to append, so no append checks the cached view: read the log, decide again
                } catch (LastEntryMovedException | EntryConflictException | InvalidInputException e) {
                    // Another writer appended or deleted the memory since the view was read: reload and merge again.
                    // An input refused while the log stood still (compared with a view read from it) is the caller's.
                    if (e instanceof InvalidInputException && !unchecked
                            && log.lastSeq(session, AGENT).orElse(0) == current.lastSeq) {
                        throw e;
                    }
                    state.view = null;
                    recheckOwner(state, memoryId); // whoever moved it may have begun the session for another id
                    if (++attempts >= MAX_ATTEMPTS) {
                        throw new UnavailableException("memory '" + memoryId + "': other writers kept changing it for "
                                + MAX_ATTEMPTS + " attempts", e);
                    }
                }
            }
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * Deletes the memory's session with its whole history (the frameworks' {@code clear()} and
     * {@code deleteByConversationId}). Deleting a memory that does not exist does nothing.
     *
     * @param memoryId the framework's memory id
     * @throws InvalidInputException if the memory id is empty, or maps to a session that another memory id owns
     */
    public void delete(String memoryId) {
        SessionId session = sessionId(memoryId);
        State<M> state = state(session, memoryId);
        state.lock.lock();
        try {
            if (catalog != null) {
                catalog.delete(session);
            }
            state.view = null;
            state.owner = null;
            reads.get().remove(session); // this thread's last read is of the history deleted now
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * The original ids of the memories this framework keeps in the store, from the catalog's metadata, newest
     * activity first. Walks the whole catalog page by page; {@link #memoryIds(String, int)} gives one page. A memory
     * written while the walk is under way moves to the front of that order, behind the walk: if the walk had not
     * reached it yet, it is missed (a walk never lists a memory twice).
     *
     * @return the memory ids; empty when there are none, or the store has no catalog
     */
    public List<String> memoryIds() {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            MemoryPage page = memoryIds(cursor, SessionCatalog.MAX_PAGE_SIZE);
            out.addAll(page.memoryIds());
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    /**
     * One page of the catalog, filtered to the memories of this framework (so a page may hold fewer ids than
     * {@code limit}, also none, and still have a next cursor).
     *
     * @param cursor the cursor of the previous page, or null for the first
     * @param limit how many sessions of the catalog to visit, 1 to {@link SessionCatalog#MAX_PAGE_SIZE}
     * @return the memory ids of this framework among the sessions visited, and the next cursor; an empty page with
     *     no cursor when the store has no catalog
     * @throws InvalidInputException if the store has a catalog and the cursor is damaged or the limit out of range
     */
    public MemoryPage memoryIds(@Nullable String cursor, int limit) {
        if (catalog == null) {
            return new MemoryPage(List.of(), null);
        }
        SessionPage page = catalog.list(cursor, limit);
        List<String> ids = new ArrayList<>();
        for (SessionInfo info : page.sessions()) {
            String id = owner(info);
            if (id != null) {
                ids.add(id);
            }
        }
        return new MemoryPage(ids, page.nextCursor());
    }

    /**
     * A page of memory ids.
     *
     * @param memoryIds the original memory ids found on the page
     * @param nextCursor the cursor of the next page, or null after the last
     */
    public record MemoryPage(List<String> memoryIds, @Nullable String nextCursor) {
        /**
         * Copies {@code memoryIds}.
         *
         * @param memoryIds the original memory ids found on the page; copied
         * @param nextCursor the cursor of the next page, or null after the last
         * @throws NullPointerException if {@code memoryIds} is null or holds a null
         */
        public MemoryPage {
            memoryIds = List.copyOf(memoryIds);
        }
    }

    // ---- the view ----

    /** One message of a view: its entry, its position in the message chain, and the framework's object. */
    private record Slot<M>(EntryId id, int chainIndex, M message) {}

    /** A run of consecutive chain positions in a view. */
    private sealed interface Run permits Span, Tail {}

    /** From the entry {@code from} to the entry {@code to}, or to the end of the chain when {@code to} is null. */
    private record Span(EntryId from, @Nullable EntryId to) implements Run {}

    /**
     * The newest {@code count} messages of the chain (fewer if the runs before it end later): a window that slides
     * as messages are appended, so it is still in force after each append.
     */
    private record Tail(int count) implements Run {}

    /**
     * What a memory holds: the view, the runs in force (null: no view entry yet, the view is the whole chain), the
     * memory's origin ({@link #origin}; null for none yet) and the tail of the log: {@code lastEntry}, the memory's
     * latest entry (message or view; null for none), which the next append is conditional on, and {@code lastSeq},
     * its seq (0 for none), which a read compares to learn whether the log moved.
     */
    private record View<M>(List<Slot<M>> slots, @Nullable List<Run> runs, @Nullable EntryId firstMessage,
                           @Nullable EntryId lastMessage, int chainLength, long nextOrdinal, @Nullable String origin,
                           @Nullable EntryId lastEntry, long lastSeq) {
        /** The view of a memory that has no entries. */
        static <M> View<M> empty() {
            return new View<>(List.of(), null, null, null, 0, 1, null, null, 0);
        }
    }

    /**
     * What tells one beginning of a memory from another after a deletion: its first entry's id, time and writer, all
     * stored content (so the same after a replay), where the ids alone repeat.
     */
    private static String origin(Entry first) {
        RawJson writer = first.message() == null ? null : first.message().metadata().get(WRITER_KEY);
        return first.id().value() + "@" + (first.timestamp() == null ? "" : first.timestamp().toEpochMilli()) + "/"
                + (writer == null ? "" : writer.text());
    }

    private static final class State<M> {
        final SessionId session;
        final ReentrantLock lock = new ReentrantLock();
        @Nullable View<M> view;
        /** The memory id found to own the session (or free to use it, the session being there), or null. */
        volatile @Nullable String owner;

        State(SessionId session) {
            this.session = session;
        }
    }

    /**
     * The state of a memory's session, once its catalog entry is found to belong to {@code memoryId}: checked per
     * memory id, since two ids can map to one session (a literal {@code mem-…} id and the id it is the hash of). A
     * session not created yet is checked again on the next call, and when it is created ({@link #createSession}).
     */
    private State<M> state(SessionId session, String memoryId) {
        State<M> state = states.computeIfAbsent(session, State::new);
        if (catalog != null && !memoryId.equals(state.owner)) {
            state.lock.lock();
            try {
                checkOwner(state, memoryId);
            } finally {
                state.lock.unlock();
            }
        }
        return state;
    }

    /** {@link #checkOwner}, whatever was found before: the session may have been deleted and created again since. */
    private void recheckOwner(State<M> state, String memoryId) {
        if (catalog != null) {
            state.owner = null;
            checkOwner(state, memoryId);
        }
    }

    /** Checks the session's owner against {@code memoryId}, unless already found to be it; with the lock held. */
    private void checkOwner(State<M> state, String memoryId) {
        if (!memoryId.equals(state.owner)) {
            Optional<SessionInfo> info = Objects.requireNonNull(catalog).find(state.session);
            if (info.isPresent()) {
                requireOwner(info.get(), memoryId);
                state.owner = memoryId;
            }
        }
    }

    private void requireOwner(SessionInfo info, String memoryId) {
        MemoryIds.Owner stored = MemoryIds.ownerOf(info);
        if (stored == null) {
            return; // a session made by other means (an agent, an import): the memory may use it
        }
        String owner = stored.id();
        String framework = stored.framework();
        if (owner != null && !owner.equals(memoryId)) {
            throw new InvalidInputException("memory id '" + memoryId + "' maps to session " + info.id()
                    + ", which belongs to memory id '" + owner + "'");
        }
        if (framework != null && !framework.equals(codec.framework())) {
            throw new InvalidInputException(codec.framework() + " memory '" + memoryId + "' maps to session "
                    + info.id() + ", which holds a " + framework + " memory of that id: the frameworks store messages"
                    + " differently, so each needs memory ids of its own");
        }
    }

    private @Nullable String owner(SessionInfo info) {
        MemoryIds.Owner stored = MemoryIds.ownerOf(info);
        return stored != null && codec.framework().equals(stored.framework()) ? stored.id() : null;
    }

    /** The cached view if the log has not moved since; otherwise the view reloaded. */
    private View<M> fresh(State<M> state, String memoryId) {
        View<M> view = state.view;
        if (view != null) {
            // The seq, not the entry: an index answers it without reading or decoding a row. A session's seqs only
            // grow (a truncation does not lower the next one), so an equal seq is the same last entry.
            if (log.lastSeq(state.session, AGENT).orElse(0) == view.lastSeq) {
                return view;
            }
            recheckOwner(state, memoryId); // another writer moved the log: it may have begun it for another id
        }
        return reload(state);
    }

    private View<M> reload(State<M> state) {
        SessionId session = state.session;
        List<Entry> entries = log.load(session, AGENT);
        List<Entry> chain = new ArrayList<>();
        Map<EntryId, Integer> index = new HashMap<>();
        Entry lastView = null;
        long maxOrdinal = 0;
        for (Entry e : entries) {
            maxOrdinal = Math.max(maxOrdinal, ordinal(e.id()));
            if (e.message() != null) {
                index.put(e.id(), chain.size());
                chain.add(e);
            } else if (e.payload() instanceof EntryPayload.Custom c && c.customType().equals(VIEW_TYPE)) {
                lastView = e;
            }
        }
        List<Run> runs = lastView == null ? null : parseRuns(session, lastView);
        int[] positions = positions(runs, id -> index.getOrDefault(id, -1), chain.size());
        if (positions == null) {
            throw new CorruptRecordException("session " + session + ", entry " + lastView.id(),
                    "the memory view names ranges " + runs + " that are not in the message chain");
        }
        List<Slot<M>> slots = new ArrayList<>(positions.length);
        for (int i : positions) {
            Entry e = chain.get(i);
            slots.add(new Slot<>(e.id(), i, codec.decode(Objects.requireNonNull(e.message()))));
        }
        View<M> view = new View<>(List.copyOf(slots), runs, chain.isEmpty() ? null : chain.get(0).id(),
                chain.isEmpty() ? null : chain.get(chain.size() - 1).id(), chain.size(), maxOrdinal + 1,
                entries.isEmpty() ? null : origin(entries.get(0)),
                entries.isEmpty() ? null : entries.get(entries.size() - 1).id(),
                entries.isEmpty() ? 0 : entries.get(entries.size() - 1).seq());
        state.view = view;
        return view;
    }

    // ---- set: match, merge, append ----

    /**
     * Appends what {@code messages} adds to {@code current} and records the new view. Returns false, writing nothing,
     * when there is nothing to append and {@code current} is {@code unchecked} (the cache, not compared with the log):
     * only an append would have told whether it is stale.
     */
    private boolean write(State<M> state, String memoryId, View<M> current, View<M> base, List<? extends M> messages,
                          boolean unchecked) {
        SessionId session = state.session;
        Matcher<M> matcher = new Matcher<>(current, base, codec::encode);
        List<Object> resolved = new ArrayList<>(messages.size()); // Slot (kept) or the new message itself
        for (M m : messages) {
            Slot<M> slot = matcher.match(m);
            resolved.add(slot != null ? slot : new Fresh<>(m));
        }
        List<Object> merged = resolved;
        if (base != current) {
            merged = merge(resolved, current, base);
        }
        // append the new messages after the chain's tail, then compute the runs of the new view
        long ordinal = current.nextOrdinal;
        EntryId parent = current.lastMessage;
        int chainLength = current.chainLength;
        EntryId first = current.firstMessage;
        List<NewEntry> batch = new ArrayList<>();
        List<Slot<M>> slots = new ArrayList<>(merged.size());
        java.time.Instant now = clock.instant();
        String tag = newTag();
        for (Object o : merged) {
            if (o instanceof Fresh<?> f) {
                @SuppressWarnings("unchecked") M m = (M) f.message();
                Message encoded = codec.encode(m);
                if (ordinal == 1) { // the one id every writer shares: its content must tell the writers apart
                    encoded = encoded.toBuilder().putMetadata(WRITER_KEY, writer).build();
                }
                EntryId id = entryId(ordinal++, tag);
                batch.add(NewEntry.of(id, parent, now, encoded));
                slots.add(new Slot<>(id, chainLength++, m));
                parent = id;
                if (first == null) {
                    first = id;
                }
            } else {
                @SuppressWarnings("unchecked") Slot<M> s = (Slot<M>) o;
                slots.add(s);
            }
        }
        // No view entry while the runs in force (none: the whole chain) still describe the view over the longer
        // chain: an open span takes in the appended messages, a tail slides over them.
        List<Run> inForce = current.runs;
        boolean viewEntry = !Arrays.equals(positions(slots), positions(inForce, id -> chainIndex(current, id),
                chainLength));
        List<Run> wanted = viewEntry ? runs(slots, chainLength, openStart(current.slots, current.chainLength))
                : inForce;
        if (viewEntry) {
            EntryId id = entryId(ordinal++, tag);
            batch.add(NewEntry.of(id, null, now, new EntryPayload.Custom(VIEW_TYPE, encodeRuns(wanted))));
        }
        if (batch.isEmpty() && unchecked) {
            return false;
        }
        String origin = current.origin;
        EntryId lastEntry = current.lastEntry;
        long lastSeq = current.lastSeq;
        if (!batch.isEmpty()) {
            if (current.nextOrdinal == 1) {
                createSession(state, memoryId);
            }
            List<Entry> stored = log.appendIfLast(session, AGENT, current.lastEntry, batch,
                    dev.parley.core.model.Usage.ZERO).entries();
            origin = origin != null ? origin : origin(stored.get(0));
            lastEntry = stored.get(stored.size() - 1).id();
            lastSeq = stored.get(stored.size() - 1).seq();
        }
        state.view = new View<>(List.copyOf(slots), wanted, first, parent, chainLength, ordinal, origin, lastEntry,
                lastSeq);
        return true;
    }

    /** A message of the new list that is not in the log yet. */
    private record Fresh<M>(M message) {}

    /**
     * The three-way merge of a caller's list with a view that changed since the caller read {@code base}: messages
     * another writer removed are left out, messages another writer added are kept, before the caller's new ones.
     */
    private List<Object> merge(List<Object> resolved, View<M> current, View<M> base) {
        Set<EntryId> inCurrent = new HashSet<>();
        for (Slot<M> s : current.slots) {
            inCurrent.add(s.id);
        }
        Set<EntryId> inBase = new HashSet<>();
        for (Slot<M> s : base.slots) {
            inBase.add(s.id);
        }
        Set<EntryId> mentioned = new HashSet<>();
        for (Object o : resolved) {
            if (o instanceof Slot<?> s) {
                mentioned.add(s.id());
            }
        }
        List<Object> theirs = new ArrayList<>();
        for (Slot<M> s : current.slots) {
            if (!inBase.contains(s.id) && !mentioned.contains(s.id)) {
                theirs.add(s);
            }
        }
        List<Object> out = new ArrayList<>(resolved.size() + theirs.size());
        boolean placed = false;
        for (Object o : resolved) {
            if (o instanceof Slot<?> s && !inCurrent.contains(s.id())) {
                continue; // removed by the other writer
            }
            if (!placed && o instanceof Fresh<?>) {
                out.addAll(theirs);
                placed = true;
            }
            out.add(o);
        }
        if (!placed) {
            out.addAll(theirs);
        }
        return out;
    }

    /**
     * The runs of consecutive chain positions of a view. The last run, when it reaches the chain's end, is open: a
     * {@link Tail} when it starts later than the previous view's open run did ({@code previousOpenStart}, -1 for
     * none) — a window sliding forward, which then stays in force while it keeps its size — else a {@link Span} to
     * the end, which stays in force while the view grows.
     */
    private static <M> List<Run> runs(List<Slot<M>> slots, int chainLength, int previousOpenStart) {
        List<Run> out = new ArrayList<>();
        int i = 0;
        while (i < slots.size()) {
            int j = i;
            while (j + 1 < slots.size() && slots.get(j + 1).chainIndex == slots.get(j).chainIndex + 1) {
                j++;
            }
            boolean open = slots.get(j).chainIndex == chainLength - 1;
            if (open && previousOpenStart >= 0 && slots.get(i).chainIndex > previousOpenStart) {
                out.add(new Tail(j - i + 1));
            } else {
                out.add(new Span(slots.get(i).id, open ? null : slots.get(j).id));
            }
            i = j + 1;
        }
        return out;
    }

    /** The chain position where a view's trailing run that reaches the chain's end starts; -1 if it has none. */
    private static <M> int openStart(List<Slot<M>> slots, int chainLength) {
        int i = slots.size() - 1;
        if (i < 0 || slots.get(i).chainIndex != chainLength - 1) {
            return -1;
        }
        while (i > 0 && slots.get(i - 1).chainIndex == slots.get(i).chainIndex - 1) {
            i--;
        }
        return slots.get(i).chainIndex;
    }

    /** The chain positions of a view's slots. */
    private static <M> int[] positions(List<Slot<M>> slots) {
        int[] out = new int[slots.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = slots.get(i).chainIndex;
        }
        return out;
    }

    /** The chain position of the entry {@code id} in a view, or -1 if it is not one of the view's slots. */
    private static <M> int chainIndex(View<M> view, EntryId id) {
        for (Slot<M> s : view.slots) {
            if (s.id.equals(id)) {
                return s.chainIndex;
            }
        }
        return -1;
    }

    /**
     * The chain positions that {@code runs} (null: the whole chain) describe over a chain of {@code chainLength}
     * messages, in view order; null if a span's entries are not where {@code indexOf} (an entry's chain position,
     * -1 if unknown) says, or are out of order.
     */
    private static int @Nullable [] positions(@Nullable List<Run> runs, ToIntFunction<EntryId> indexOf,
                                              int chainLength) {
        if (runs == null) {
            return IntStream.range(0, chainLength).toArray();
        }
        IntStream.Builder out = IntStream.builder();
        int last = -1;
        for (Run run : runs) {
            int from;
            int to = chainLength - 1;
            if (run instanceof Tail tail) {
                from = Math.max(last + 1, chainLength - tail.count());
            } else {
                Span span = (Span) run;
                from = indexOf.applyAsInt(span.from());
                if (span.to() != null) {
                    to = indexOf.applyAsInt(span.to());
                }
                if (from < 0 || to < from || to >= chainLength) {
                    return null;
                }
            }
            for (int i = from; i <= to; i++) {
                out.add(i);
                last = i;
            }
        }
        return out.build().toArray();
    }

    /**
     * Finds the slot of each message of a new list: identity first, in order; then equality, among the slots the
     * caller could have seen — those of the view it read ({@code base}). A slot another writer added since is never
     * taken for an equal message of the caller's: that message is the caller's own, and new.
     *
     * <p>Equality is taken only in order and in content: a slot is taken for an equal message only when it does not
     * come before, in the view, the slot of the view matched just before (a window that evicts a "continue" while the
     * user sends another "continue" keeps both, where the new one used to be taken for the one leaving, and never
     * written), and only when the two are equal as Parley stores them too (Spring AI's {@code UserMessage.equals} leaves out the
     * media: a new question with another picture was taken for the old one, and its picture lost).
     */
    private static final class Matcher<M> {
        private final List<Slot<M>> current;
        private final View<M> base;
        private final java.util.function.Function<M, Message> content;
        /** The chain positions of the slots taken (a chain entry is at most one slot of a view). */
        private final BitSet used = new BitSet();
        private int taken;
        private int next;
        private @Nullable IdentityHashMap<M, Slot<M>> byIdentity;
        /** The view's positions of its slots that a message may equal, by message (in the framework's equals). */
        private @Nullable Map<M, ArrayDeque<Integer>> byValue;

        Matcher(View<M> current, View<M> base, java.util.function.Function<M, Message> content) {
            this.current = current.slots;
            this.base = base;
            this.content = content;
        }

        @Nullable Slot<M> match(M m) {
            if (next < current.size() && current.get(next).message == m && !used.get(current.get(next).chainIndex)) {
                return take(current.get(next++));
            }
            if (taken == current.size() && base.slots == current) {
                return null; // every slot is taken and there is no other view to look in: the usual new message
            }
            if (byIdentity == null) {
                byIdentity = new IdentityHashMap<>();
                for (Slot<M> s : base.slots) {
                    byIdentity.put(s.message, s);
                }
                for (Slot<M> s : current) {
                    byIdentity.put(s.message, s);
                }
            }
            Slot<M> s = byIdentity.get(m);
            if (s != null && !used.get(s.chainIndex)) {
                advancePast(s);
                return take(s);
            }
            if (byValue == null) {
                byValue = new LinkedHashMap<>();
                Set<EntryId> seen = null;
                if (base.slots != current) {
                    seen = new HashSet<>();
                    for (Slot<M> b : base.slots) {
                        seen.add(b.id);
                    }
                }
                for (int i = 0; i < current.size(); i++) {
                    Slot<M> c = current.get(i);
                    if (seen == null || seen.contains(c.id)) {
                        byValue.computeIfAbsent(c.message, k -> new ArrayDeque<>()).add(i);
                    }
                }
            }
            ArrayDeque<Integer> candidates = byValue.get(m);
            if (candidates == null) {
                return null;
            }
            Message stored = null;
            for (java.util.Iterator<Integer> it = candidates.iterator(); it.hasNext(); ) {
                int i = it.next();
                Slot<M> c = current.get(i);
                if (used.get(c.chainIndex)) {
                    it.remove();
                } else if (i >= next) { // not before the slot matched last, in the view's order
                    if (stored == null) {
                        stored = content.apply(m);
                    }
                    if (content.apply(c.message).equals(stored)) {
                        it.remove();
                        next = i + 1;
                        return take(c);
                    }
                }
            }
            return null;
        }

        private void advancePast(Slot<M> s) {
            for (int i = next; i < current.size(); i++) {
                if (current.get(i).id.equals(s.id)) {
                    next = i + 1;
                    return;
                }
            }
        }

        private Slot<M> take(Slot<M> s) {
            used.set(s.chainIndex);
            taken++;
            return s;
        }
    }

    // ---- entries ----

    /**
     * Creates a memory's session in the catalog, owned by {@code memoryId}, before its first append; a session another
     * writer created first is checked to be this memory id's, so that nothing is appended to another memory's.
     */
    private void createSession(State<M> state, String memoryId) {
        if (catalog == null) {
            return;
        }
        Optional<SessionInfo> existing = catalog.find(state.session);
        if (existing.isEmpty()) {
            ObjectNode meta = Json.object();
            meta.put("framework", codec.framework());
            meta.put("id", memoryId);
            try {
                catalog.create(new NewSession(state.session, titleOf(memoryId), null,
                        Map.of(MemoryIds.METADATA_KEY, Json.raw(meta))));
                state.owner = memoryId;
                return;
            } catch (AlreadyExistsException e) {
                existing = catalog.find(state.session); // another writer created it first
            }
        }
        existing.ifPresent(info -> requireOwner(info, memoryId));
        state.owner = memoryId;
    }

    /**
     * The title of a memory's session in the catalog (the session browser's list, {@code parley sessions}):
     * "spring-ai memory demo", the memory id cut to {@value #TITLE_ID_LENGTH} code points.
     */
    private String titleOf(String memoryId) {
        String id = memoryId.codePointCount(0, memoryId.length()) <= TITLE_ID_LENGTH ? memoryId
                : memoryId.substring(0, memoryId.offsetByCodePoints(0, TITLE_ID_LENGTH - 1)) + "…";
        return codec.framework() + " memory " + id;
    }

    /**
     * The id of a memory's entry. The first is {@code mem-0000000001}, the same for every writer, so that two writers
     * that each take the memory for new (a fork, such as one begun in a {@code remote:} fallback store while the server
     * holds the memory) collide on it: the store refuses the second, now or at replay. Every later one is {@code mem-},
     * its ordinal and the random tag of the batch that writes it ({@code mem-0000000042-x7Kq2ZbA}), so no other
     * batch — of another writer, of a later incarnation of the memory (deleted and begun again), or after a truncation
     * — repeats it: a conditional append ({@link #write}) that finds it still the memory's latest entry finds the log
     * as the view saw it.
     */
    private static EntryId entryId(long ordinal, String tag) {
        return EntryId.of(ordinal == 1 ? String.format(Locale.ROOT, "%s%010d", ID_PREFIX, ordinal)
                : String.format(Locale.ROOT, "%s%010d-%s", ID_PREFIX, ordinal, tag));
    }

    /**
     * A new batch's tag for {@link #entryId}: 47 random bits written as {@value #TAG_LENGTH} characters of
     * {@code [0-9A-Za-z]} (62^8 is above 2^47, so no two draws share a tag), short because ids are stored in every
     * entry's row, index key and body, and its child's. One draw of the generator per batch, not one per character.
     */
    private static String newTag() {
        long bits = TAGS.nextLong() >>> (Long.SIZE - 47);
        char[] tag = new char[TAG_LENGTH];
        for (int i = TAG_LENGTH - 1; i >= 0; i--) {
            tag[i] = TAG_ALPHABET.charAt((int) (bits % TAG_ALPHABET.length()));
            bits /= TAG_ALPHABET.length();
        }
        return new String(tag);
    }

    /** Whether an entry id has {@link #entryId}'s tagged form, which no other batch repeats. */
    private static boolean isUnique(EntryId id) {
        String v = id.value();
        return v.startsWith(ID_PREFIX) && v.length() == ID_PREFIX.length() + 10 + 1 + TAG_LENGTH
                && v.charAt(ID_PREFIX.length() + 10) == '-';
    }

    /** The ordinal of a memory's entry id, with a tag or without (as earlier versions wrote them); 0 for another id. */
    private static long ordinal(EntryId id) {
        String v = id.value();
        if (v.startsWith(ID_PREFIX) && v.length() >= ID_PREFIX.length() + 10) {
            try {
                return Long.parseLong(v.substring(ID_PREFIX.length(), ID_PREFIX.length() + 10));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    private static RawJson encodeRuns(List<Run> runs) {
        ObjectNode node = Json.object();
        ArrayNode array = node.putArray("runs");
        for (Run r : runs) {
            if (r instanceof Tail tail) {
                array.addObject().put("last", tail.count());
                continue;
            }
            Span span = (Span) r;
            ArrayNode pair = array.addArray();
            pair.add(span.from().value());
            if (span.to() == null) {
                pair.addNull();
            } else {
                pair.add(span.to().value());
            }
        }
        return Json.raw(node);
    }

    private static List<Run> parseRuns(SessionId session, Entry entry) {
        try {
            JsonNode node = Json.tree(((EntryPayload.Custom) entry.payload()).data());
            List<Run> runs = new ArrayList<>();
            for (JsonNode run : node.get("runs")) {
                if (run.isObject()) {
                    JsonNode count = run.path("last");
                    if (!count.isIntegralNumber() || !count.canConvertToInt() || count.intValue() < 1) {
                        throw new IllegalArgumentException("a tail of " + count + " messages");
                    }
                    runs.add(new Tail(count.intValue()));
                    continue;
                }
                JsonNode to = run.get(1);
                runs.add(new Span(EntryId.of(run.get(0).asText()), to == null || to.isNull() ? null
                        : EntryId.of(to.asText())));
            }
            return runs;
        } catch (RuntimeException e) {
            throw new CorruptRecordException("session " + session + ", entry " + entry.id(),
                    "unreadable memory view: " + e.getMessage(), e);
        }
    }

}
