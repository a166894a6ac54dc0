package dev.parley.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.RawJson;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.Lease;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.repository.TurnSummary;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What a product does with session records, over a {@link ChatSessionRepository} and its companion
 * {@link ChatArchiveRepository} (Heddle's session service and engine loop, see the glossary).
 *
 * <ul>
 *   <li><b>Updates</b> go through a <em>pure</em> updater: read, apply, compare-and-swap; on a conflict the record is
 *       re-read and the updater applied again to the fresh state — at most {@value #MAX_RETRIES} retries, then the
 *       conflict surfaces. Re-applying (never re-writing a stale snapshot) is what keeps a concurrent change from
 *       being silently overwritten.</li>
 *   <li><b>Leases</b> with fencing tokens: acquiring takes a new token above every one issued before
 *       ({@code leaseEpoch}, kept after release); a lease not refreshed for {@link #STALE_AFTER} has expired and has
 *       already lost write authority; {@link #updateWithLease} fails with {@link LeaseLostException} for a stale
 *       claim. All lease operations are ordinary compare-and-swap updates, so their safety is the repository's
 *       atomic revision check.</li>
 *   <li><b>Queued prompts</b>: a persisted FIFO.</li>
 *   <li><b>Turns</b>: {@link #runTurn} runs a turn body while a {@link TurnHeartbeat} refreshes the lease, then
 *       {@link #applyCompletedTurn} records the turn, appends its messages and takes the next queued prompt in one
 *       fenced compare-and-swap.</li>
 *   <li><b>Compaction</b>: {@link #compactHistory} appends the oldest messages and the rolling summary to the archive
 *       <em>first</em>, and only then points the record at the archive; {@link #readHistory} puts the conversation
 *       back together from record and archive, so any instance over the same repositories continues it.</li>
 * </ul>
 * Thread-safe if the repositories are. The clock decides lease freshness and timestamps; the id generator mints
 * queued-prompt and archive ids. Inject fixed ones in tests.
 */
public final class SessionService {
    /** How many times an update is re-applied after a conflict before the conflict surfaces. */
    public static final int MAX_RETRIES = 4;
    /** How long a lease stays fresh without a refresh. */
    public static final Duration STALE_AFTER = Duration.ofSeconds(20);
    /** How often a holder should refresh its lease; the interval of {@link #startHeartbeat(LeaseClaim)}. */
    public static final Duration REFRESH_INTERVAL = Duration.ofSeconds(5);
    /** How many of the most recent turn summaries a record keeps (Heddle keeps 8). */
    public static final int RECENT_TURNS = 8;

    private final ChatSessionRepository repository;
    private final ChatArchiveRepository archives;
    private final Clock clock;
    private final IdGenerator ids;

    /**
     * A service over one scope's repositories. Both must be bound to the same scope (the same tenant): the service
     * cannot check it.
     *
     * @param sessions the session records
     * @param archives the archive of compacted history, of the same scope
     * @param clock the time of leases, records and archives
     * @param ids mints queued-prompt and archive ids
     * @throws NullPointerException if any argument is null
     */
    public SessionService(ChatSessionRepository sessions, ChatArchiveRepository archives, Clock clock, IdGenerator ids) {
        this.repository = Objects.requireNonNull(sessions, "sessions");
        this.archives = Objects.requireNonNull(archives, "archives");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /**
     * The session repository the service works on.
     *
     * @return the repository given to the constructor
     */
    public ChatSessionRepository repository() {
        return repository;
    }

    /**
     * The archive repository the service compacts into.
     *
     * @return the repository given to the constructor
     */
    public ChatArchiveRepository archives() {
        return archives;
    }

    /**
     * The session with this id, created with default settings if there is none. Two first writers resolve to one
     * session: the loser of the create re-reads the winner's record. An existing session is never overwritten.
     *
     * @param sessionId the session's id
     * @return the stored record: the existing one, or a new one named {@code Session} at revision 1
     * @throws InvalidInputException if the id is invalid: not 1 to {@value ChatSession#MAX_ID_LENGTH} characters, or
     *     holding a NUL or an unpaired surrogate ({@link ChatSession#requireId})
     */
    public StoredSession ensure(String sessionId) {
        ChatSession.requireId(sessionId, "session id");
        Optional<StoredSession> existing = repository.read(sessionId);
        if (existing.isPresent()) {
            return existing.get();
        }
        Instant now = clock.instant();
        try {
            return repository.create(ChatSession.builder(sessionId, now).name("Session").build());
        } catch (SessionAlreadyExistsException e) {
            return repository.read(sessionId).orElseThrow(() -> e);
        }
    }

    /**
     * Applies a pure updater to the session and writes it, re-applying on conflicts.
     *
     * <p>The written record's {@code updatedAt} is the clock's now, or the stored {@code updatedAt} if that is later
     * (it never goes back), whatever the updater set.
     *
     * @param sessionId the session
     * @param updater a function of the current record only (it may run several times); returning the same object
     *     means "no change" and writes nothing; an exception it throws propagates and nothing is written
     * @return the stored record, or empty if there is no session
     * @throws InvalidInputException if the updater returns a record with another id; nothing was written
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public Optional<StoredSession> update(String sessionId, UnaryOperator<ChatSession> updater) {
        return update(sessionId, null, stored -> updater.apply(stored.session()));
    }

    /**
     * {@link #update} under a lease: each attempt first checks that the claim still holds.
     *
     * @param claim the claim that must hold the session's lease; it names the session
     * @param updater as for {@link #update}
     * @return the stored record, or empty if there is no session
     * @throws LeaseLostException if the lease expired or was taken over; nothing was written
     * @throws InvalidInputException as {@link #update}
     * @throws RevisionConflictException as {@link #update}
     */
    public Optional<StoredSession> updateWithLease(LeaseClaim claim, UnaryOperator<ChatSession> updater) {
        return update(claim.sessionId(), claim, stored -> updater.apply(stored.session()));
    }

    private Optional<StoredSession> update(String sessionId, @Nullable LeaseClaim claim,
                                           Function<StoredSession, ChatSession> updater) {
        for (int attempt = 0; ; attempt++) {
            Optional<StoredSession> current = repository.read(sessionId);
            if (current.isEmpty()) {
                return Optional.empty();
            }
            ChatSession before = current.get().session();
            if (claim != null) {
                requireHeld(before, claim, clock.instant());
            }
            ChatSession after = updater.apply(current.get());
            if (after == before) {
                return current;
            }
            if (!after.id().equals(sessionId)) {
                throw new InvalidInputException("an updater must not change the session id");
            }
            ChatSession touched = after.toBuilder().updatedAt(later(clock.instant(), before.updatedAt())).build();
            try {
                return repository.update(touched, current.get().revision());
            } catch (RevisionConflictException e) {
                if (attempt >= MAX_RETRIES) {
                    throw e;
                }
            }
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /**
     * Deletes the session at the revision it has now. Never retried: a conflict surfaces.
     *
     * @param sessionId the session
     * @return whether it existed
     * @throws RevisionConflictException if the record changed between this call's read and its delete; nothing was
     *     deleted
     */
    public boolean delete(String sessionId) {
        Optional<StoredSession> current = repository.read(sessionId);
        return current.isPresent() && repository.delete(sessionId, current.get().revision());
    }

    // ---- queued prompts ----

    /**
     * Queues a prompt for the session's next turn.
     *
     * @param sessionId the session
     * @param prompt the prompt; queued stripped of leading and trailing white space
     * @return its 1-based position in the queue
     * @throws NotFoundException if there is no session
     * @throws InvalidInputException if the prompt is blank
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public int enqueuePrompt(String sessionId, String prompt) {
        if (prompt == null || prompt.isBlank()) {
            throw new InvalidInputException("a queued prompt must not be empty");
        }
        Instant now = clock.instant();
        QueuedPrompt q = new QueuedPrompt("queued-prompt-" + ids.newId(), prompt.strip(), null, null, null, now, now);
        AtomicReference<Integer> position = new AtomicReference<>();
        update(sessionId, s -> {
            List<QueuedPrompt> queue = new ArrayList<>(s.queuedPrompts());
            queue.add(q);
            position.set(queue.size());
            return s.toBuilder().queuedPrompts(queue).build();
        }).orElseThrow(() -> new NotFoundException("no session " + sessionId));
        return position.get();
    }

    /**
     * Replaces the text of a queued prompt, stripped of leading and trailing white space, and stamps its
     * {@code updatedAt}. One compare-and-swap update, re-applied on conflict as {@link #update} does.
     *
     * @param sessionId the session
     * @param promptId the queued prompt's id
     * @param prompt the new text
     * @throws NotFoundException if there is no session or no queued prompt with that id
     * @throws InvalidInputException if the prompt is blank; nothing was written
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public void updateQueuedPrompt(String sessionId, String promptId, String prompt) {
        update(sessionId, s -> {
            List<QueuedPrompt> queue = new ArrayList<>();
            boolean found = false;
            for (QueuedPrompt q : s.queuedPrompts()) {
                if (q.id().equals(promptId)) {
                    queue.add(new QueuedPrompt(q.id(), prompt.strip(), q.agentProfileId(), q.agentSnapshot(),
                            q.systemContext(), q.createdAt(), clock.instant()));
                    found = true;
                } else {
                    queue.add(q);
                }
            }
            if (!found) {
                throw new NotFoundException("no queued prompt " + promptId + " in session " + sessionId);
            }
            return s.toBuilder().queuedPrompts(queue).build();
        }).orElseThrow(() -> new NotFoundException("no session " + sessionId));
    }

    /**
     * Removes a queued prompt; nothing happens if it is not queued, or if there is no session.
     *
     * @param sessionId the session
     * @param promptId the queued prompt's id
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public void deleteQueuedPrompt(String sessionId, String promptId) {
        update(sessionId, s -> {
            List<QueuedPrompt> queue = new ArrayList<>(s.queuedPrompts());
            return queue.removeIf(q -> q.id().equals(promptId)) ? s.toBuilder().queuedPrompts(queue).build() : s;
        });
    }

    /**
     * Takes the oldest queued prompt off the queue (FIFO), or empty when the queue is empty or there is no session.
     *
     * @param sessionId the session
     * @return the prompt taken off the queue; it is no longer stored
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was taken
     */
    public Optional<QueuedPrompt> dequeuePrompt(String sessionId) {
        AtomicReference<QueuedPrompt> taken = new AtomicReference<>();
        update(sessionId, s -> {
            taken.set(null);
            if (s.queuedPrompts().isEmpty()) {
                return s;
            }
            List<QueuedPrompt> queue = new ArrayList<>(s.queuedPrompts());
            taken.set(queue.remove(0));
            return s.toBuilder().queuedPrompts(queue).build();
        });
        return Optional.ofNullable(taken.get());
    }

    // ---- leases ----

    /**
     * Whether the lease is fresh at {@code now}: refreshed within {@link #STALE_AFTER}.
     *
     * @param lease the lease
     * @param now the instant to judge at
     * @return true if {@code now} is before the lease's {@code lastSeenAt} plus {@link #STALE_AFTER}
     */
    public static boolean isFresh(Lease lease, Instant now) {
        return now.isBefore(lease.lastSeenAt().plus(STALE_AFTER));
    }

    /**
     * Whether the claim holds the session's lease now: fresh, same owner, same fencing token.
     *
     * @param session the record, as read
     * @param claim the claim
     * @return true if the record's lease is fresh at the clock's now, of the claim's owner (the same owner id and
     *     host) and carries the claim's fencing token
     */
    public boolean isHeld(ChatSession session, LeaseClaim claim) {
        return isHeld(session, claim, clock.instant());
    }

    private static boolean isHeld(ChatSession session, LeaseClaim claim, Instant now) {
        Lease lease = session.lease();
        return lease != null && isFresh(lease, now) && sameOwner(lease, claim.owner())
                && lease.fencingToken() == claim.fencingToken();
    }

    private static void requireHeld(ChatSession session, LeaseClaim claim, Instant now) {
        if (!isHeld(session, claim, now)) {
            throw new LeaseLostException(claim.sessionId(), claim.fencingToken(), session.lease());
        }
    }

    /**
     * Acquires the session's lease. A fresh lease of the same owner is kept (with its token); an expired lease, or
     * none, gives a new token one above every token issued before.
     *
     * @param sessionId the session
     * @param owner the owner; its {@link LeaseOwner#kind() kind} must be {@code tui}, {@code daemon} or {@code ask}
     * @throws LeaseLostException if another owner holds a fresh lease (the exception carries it, and its
     *     {@link LeaseLostException#expectedToken() expected token} is -1)
     * @return the claim: the session, the owner and the lease's fencing token
     * @throws InvalidInputException if the owner's kind is not {@code tui}, {@code daemon} or {@code ask}; nothing
     *     was written
     * @throws NotFoundException if there is no session
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public LeaseClaim acquireLease(String sessionId, LeaseOwner owner) {
        AtomicReference<Long> token = new AtomicReference<>();
        update(sessionId, s -> {
            Instant now = clock.instant();
            Lease lease = s.lease();
            if (lease != null && isFresh(lease, now)) {
                if (!sameOwner(lease, owner)) {
                    throw new LeaseLostException(sessionId, -1, lease);
                }
                token.set(lease.fencingToken());
                return s.toBuilder().lease(new Lease(owner.kind(), owner.hostId(), owner.ownerId(), lease.fencingToken(),
                        lease.acquiredAt(), now, owner.clientLabel())).build();
            }
            long epoch = Math.max(s.leaseEpoch() == null ? 0 : s.leaseEpoch(), lease == null ? 0 : lease.fencingToken());
            long next = epoch + 1;
            token.set(next);
            return s.toBuilder().leaseEpoch(next)
                    .lease(new Lease(owner.kind(), owner.hostId(), owner.ownerId(), next, now, now, owner.clientLabel()))
                    .build();
        }).orElseThrow(() -> new NotFoundException("no session " + sessionId));
        return new LeaseClaim(sessionId, owner, token.get());
    }

    /**
     * Refreshes a held lease (keeps its token and acquisition time). Freshness is judged at the same instant the
     * lease is stamped with, so a refresh can never revive a lease that had expired when it was checked.
     *
     * @param claim the claim that holds the lease
     * @throws LeaseLostException if the claim no longer holds it — an expired lease cannot be refreshed; nothing was
     *     written
     * @throws NotFoundException if there is no session
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public void refreshLease(LeaseClaim claim) {
        updateWithLease(claim, s -> {
            Instant now = clock.instant();
            requireHeld(s, claim, now);
            Lease l = s.lease();
            return s.toBuilder().lease(new Lease(l.ownerKind(), l.hostId(), l.ownerId(), l.fencingToken(),
                    l.acquiredAt(), now, l.clientLabel())).build();
        }).orElseThrow(() -> new NotFoundException("no session " + claim.sessionId()));
    }

    /**
     * Releases the lease if the claim holds it; keeps {@code leaseEpoch}. A foreign owner's lease is left alone, and a
     * missing session is not an error: nothing happens.
     *
     * @param claim the claim to release; only its owner and fencing token are compared, not the lease's freshness
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public void releaseLease(LeaseClaim claim) {
        update(claim.sessionId(), s -> {
            Lease l = s.lease();
            if (l == null || !sameOwner(l, claim.owner()) || l.fencingToken() != claim.fencingToken()) {
                return s;
            }
            return s.toBuilder().lease(null).build();
        });
    }

    private static boolean sameOwner(Lease lease, LeaseOwner owner) {
        return lease.ownerId().equals(owner.ownerId()) && Objects.equals(lease.hostId(), owner.hostId());
    }

    // ---- turns ----

    /**
     * Records a completed turn, in one compare-and-swap write under the caller's lease (Heddle's
     * {@code applyCompletedTurn}):
     * <ol>
     *   <li>the turn's summary joins the record's turns, of which only the latest {@value #RECENT_TURNS} are
     *       kept;</li>
     *   <li>the turn's messages are appended to the transcript ({@code history}) and its lines to the UI projection
     *       ({@code messages});</li>
     *   <li>the oldest queued prompt, if any, is taken off the queue and returned. The queue is the one stored at
     *       the time of the write, so a prompt queued while the turn ran is neither lost nor skipped.</li>
     * </ol>
     * On a revision conflict (a concurrent queue edit, a lease refresh) the whole change is re-applied to the fresh
     * record, as {@link #update} does.
     *
     * @param claim the claim that must hold the session's lease
     * @param turn what the turn adds to the record
     * @return the record as written and the prompt taken off the queue
     * @throws LeaseLostException if the claim no longer holds the lease (a stale fencing token, an expired lease);
     *     nothing was written
     * @throws InvalidInputException if the record's recent turns already hold a turn with this id (the turn was
     *     already recorded); nothing was written
     * @throws NotFoundException if there is no session
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public AppliedTurn applyCompletedTurn(LeaseClaim claim, CompletedTurn turn) {
        Objects.requireNonNull(turn, "turn");
        AtomicReference<@Nullable QueuedPrompt> next = new AtomicReference<>();
        StoredSession stored = update(claim.sessionId(), claim, current -> {
            ChatSession s = current.session();
            for (TurnSummary t : s.turns()) {
                if (t.id().equals(turn.summary().id())) {
                    throw new InvalidInputException("turn " + t.id() + " is already recorded in session " + s.id());
                }
            }
            List<TurnSummary> turns = new ArrayList<>(s.turns());
            turns.add(turn.summary());
            List<ChatMessage> history = new ArrayList<>(s.history());
            history.addAll(turn.messages());
            List<ConversationLine> lines = new ArrayList<>(s.messages());
            lines.addAll(turn.lines());
            List<QueuedPrompt> queue = new ArrayList<>(s.queuedPrompts());
            next.set(queue.isEmpty() ? null : queue.remove(0));
            return s.toBuilder()
                    .turns(turns.subList(Math.max(0, turns.size() - RECENT_TURNS), turns.size()))
                    .history(history)
                    .messages(lines)
                    .queuedPrompts(queue)
                    .build();
        }).orElseThrow(() -> new NotFoundException("no session " + claim.sessionId()));
        return new AppliedTurn(stored, next.get());
    }

    /**
     * Starts refreshing the claim's lease every {@link #REFRESH_INTERVAL} on a daemon thread of the heartbeat's own,
     * which {@link TurnHeartbeat#close()} stops. The lease is refreshed once before this returns.
     *
     * @param claim the claim whose lease to keep fresh
     * @return the running heartbeat; the caller closes it
     * @throws LeaseLostException if the claim does not hold the lease now; no heartbeat was started
     * @throws NotFoundException if there is no session
     */
    public TurnHeartbeat startHeartbeat(LeaseClaim claim) {
        refreshLease(claim);
        ScheduledExecutorService own = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "parley-lease-heartbeat " + claim.sessionId());
            t.setDaemon(true);
            return t;
        });
        return new TurnHeartbeat(this, claim, own, REFRESH_INTERVAL, true);
    }

    /**
     * Starts refreshing the claim's lease every {@code interval} on the given scheduler, which stays the caller's
     * (closing the heartbeat cancels its task only). The lease is refreshed once before this returns.
     *
     * @param claim the claim whose lease to keep fresh
     * @param scheduler runs the refreshes; not shut down by the heartbeat
     * @param interval positive and shorter than {@link #STALE_AFTER}; {@link #REFRESH_INTERVAL} in production
     * @return the running heartbeat; the caller closes it
     * @throws InvalidInputException if the interval is out of range
     * @throws LeaseLostException if the claim does not hold the lease now; no heartbeat was started
     * @throws NotFoundException if there is no session
     * @throws java.util.concurrent.RejectedExecutionException if the scheduler is shut down
     */
    public TurnHeartbeat startHeartbeat(LeaseClaim claim, ScheduledExecutorService scheduler, Duration interval) {
        Objects.requireNonNull(scheduler, "scheduler");
        TurnHeartbeat.requireInterval(interval);
        refreshLease(claim);
        return new TurnHeartbeat(this, claim, scheduler, interval, false);
    }

    /**
     * Runs one turn under the claim's lease: starts a heartbeat ({@link #startHeartbeat(LeaseClaim)}), runs the body,
     * stops the heartbeat — also when the body fails — and records the result with {@link #applyCompletedTurn}. The
     * lease stays held afterwards (the caller may run the returned queued prompt under it, or release it).
     *
     * @param claim the claim that holds the session's lease
     * @param body the turn's work
     * @return what {@link #applyCompletedTurn} committed
     * @throws LeaseLostException if the claim does not hold the lease when the turn starts, or a refresh found it lost
     *     while the body ran, or it is lost at the final write; the turn was not recorded
     * @throws RuntimeException whatever the body throws; the turn was not recorded
     * @throws NotFoundException if there is no session
     * @throws InvalidInputException if the turn is already recorded ({@link #applyCompletedTurn})
     * @throws RevisionConflictException as {@link #applyCompletedTurn}
     */
    public AppliedTurn runTurn(LeaseClaim claim, TurnBody body) {
        Objects.requireNonNull(body, "body");
        return runTurn(startHeartbeat(claim), body);
    }

    /**
     * {@link #runTurn(LeaseClaim, TurnBody)} with the heartbeat on the given scheduler and interval
     * ({@link #startHeartbeat(LeaseClaim, ScheduledExecutorService, Duration)}).
     *
     * @param claim the claim that holds the session's lease
     * @param scheduler runs the heartbeat's refreshes; not shut down by it
     * @param interval the refresh interval: positive and shorter than {@link #STALE_AFTER}
     * @param body the turn's work
     * @return what {@link #applyCompletedTurn} committed
     * @throws InvalidInputException if the interval is out of range, or as {@link #runTurn(LeaseClaim, TurnBody)}
     */
    public AppliedTurn runTurn(LeaseClaim claim, ScheduledExecutorService scheduler, Duration interval, TurnBody body) {
        Objects.requireNonNull(body, "body");
        return runTurn(startHeartbeat(claim, scheduler, interval), body);
    }

    private AppliedTurn runTurn(TurnHeartbeat heartbeat, TurnBody body) {
        CompletedTurn turn;
        try (heartbeat) {
            turn = Objects.requireNonNull(body.run(heartbeat), "a turn body must return its completed turn");
        }
        Optional<LeaseLostException> lost = heartbeat.lost();
        if (lost.isPresent()) {
            LeaseClaim claim = heartbeat.claim();
            LeaseLostException e = new LeaseLostException(claim.sessionId(), claim.fencingToken(), lost.get().actual());
            e.addSuppressed(lost.get());
            throw e;
        }
        return applyCompletedTurn(heartbeat.claim(), turn);
    }

    // ---- conversation ----

    /**
     * Starts the conversation over (Heddle's {@code resetConversation}): clears the transcript ({@code history}), the
     * UI lines ({@code messages}), the turns, the queued prompts and {@code lastContinuePrompt}, and also what
     * described the old transcript — the archive pointers ({@code archives}) and the context statistics
     * ({@code context}, which holds the compaction state). The archives themselves stay in the archive repository,
     * unreferenced. Name, settings, lease and lease epoch are kept. One compare-and-swap update, re-applied on
     * conflict; it needs no lease.
     *
     * @param sessionId the session
     * @return the record as written
     * @throws NotFoundException if there is no session
     * @throws RevisionConflictException if the record kept changing through {@value #MAX_RETRIES} retries; nothing
     *     was written
     */
    public StoredSession resetConversation(String sessionId) {
        return update(sessionId, s -> s.toBuilder()
                .history(List.of())
                .messages(List.of())
                .turns(List.of())
                .queuedPrompts(List.of())
                .lastContinuePrompt(null)
                .archives(List.of())
                .context(null)
                .build())
                .orElseThrow(() -> new NotFoundException("no session " + sessionId));
    }

    /**
     * Compacts the transcript under the caller's lease: the oldest messages, all but the latest
     * {@code keepMessages}, are archived with a new rolling summary, and the record keeps only the rest.
     *
     * <p>The split never separates a tool result from the call it answers: if the first kept message would be a tool
     * result, the split moves back until it is not (so more than {@code keepMessages} may be kept).
     *
     * <p>Order of writes, which is the point of the operation:
     * <ol>
     *   <li>the summarizer writes the new rolling summary from the current one and the messages to archive;</li>
     *   <li>the archive repository's {@link ChatArchiveRepository#append append} stores those messages and the
     *       summary (content, then manifest, atomically);</li>
     *   <li>only then is the record updated, in one fenced compare-and-swap: its transcript loses the archived
     *       messages, its {@code archives} list gains the new archive, and {@code context.compaction} /
     *       {@code context.archive} describe it (when {@code context} is absent or a JSON object).</li>
     * </ol>
     * A failure after step 2 leaves an archive that no record points at, never a record that points at missing
     * content; the record is exactly as before and the compaction can be run again (it appends a new archive; the
     * orphan is never read, because {@link #readHistory} follows the record's {@code archives}, not the manifest).
     * If the transcript's archived prefix or the record's archives changed between the read and the write (a
     * reset, another compaction), the write fails with {@link RevisionConflictException} and the record is left as
     * the other writer made it.
     *
     * @param claim the claim that must hold the session's lease; it names the session
     * @param keepMessages how many of the newest messages stay in the record, at least 0
     * @param summarizer writes the new rolling summary; called at most once (not when there is nothing to compact),
     *     before anything is written
     * @return the archive and the updated record, or empty if there was nothing to compact (nothing was written)
     * @throws InvalidInputException if {@code keepMessages} is negative
     * @throws LeaseLostException if the claim does not hold the lease, before the archive append (nothing was
     *     written) or at the record update (the archive was appended; the record is unchanged)
     * @throws NotFoundException if there is no session
     * @throws StorageCorruptionException if the record points at a summary the archive repository does not hold, or
     *     the manifest cannot be decoded; nothing was written
     * @throws RevisionConflictException if the transcript changed under the compaction, or the record kept changing
     *     through {@value #MAX_RETRIES} retries; the archive was appended, the record is not changed by this call
     * @throws RuntimeException whatever the summarizer or the archive append throws; the record is unchanged (and,
     *     per the archive contract, a failed append references nothing new)
     */
    public Optional<Compacted> compactHistory(LeaseClaim claim, int keepMessages, Summarizer summarizer) {
        Objects.requireNonNull(summarizer, "summarizer");
        if (keepMessages < 0) {
            throw new InvalidInputException("keepMessages must not be negative, got " + keepMessages);
        }
        String sessionId = claim.sessionId();
        StoredSession read = repository.read(sessionId)
                .orElseThrow(() -> new NotFoundException("no session " + sessionId));
        ChatSession before = read.session();
        requireHeld(before, claim, clock.instant());
        int split = splitPoint(before.history(), keepMessages);
        if (split == 0) {
            return Optional.empty();
        }
        List<ChatMessage> compacted = List.copyOf(before.history().subList(0, split));
        Summarizer.Summary summary = Objects.requireNonNull(
                summarizer.summarize(currentSummary(before), compacted), "a summarizer must return a summary");

        ArchiveRecord archive = archives.append(new ArchiveAppend(sessionId,
                ArchiveRecord.draft(ids.newId(), summary.shortDescription(), compacted.size(), clock.instant(),
                        summary.model()),
                compacted, summary.text())).archive();

        StoredSession written = update(sessionId, claim, current -> {
            ChatSession s = current.session();
            if (!s.archivesOrEmpty().equals(before.archivesOrEmpty()) || s.history().size() < split
                    || !s.history().subList(0, split).equals(compacted)) {
                throw new RevisionConflictException(sessionId, read.revision(), current.revision());
            }
            List<ArchiveRecord> pointers = new ArrayList<>(s.archivesOrEmpty());
            pointers.add(archive);
            return s.toBuilder()
                    .history(s.history().subList(split, s.history().size()))
                    .archives(pointers)
                    .context(withCompaction(s.context(), archive, pointers.size(), clock.instant()))
                    .build();
        }).orElseThrow(() -> new NotFoundException("no session " + sessionId));
        return Optional.of(new Compacted(archive, written));
    }

    /** Where the archived prefix ends: all but the newest {@code keep}, moved back so a tool result stays with its call. */
    private static int splitPoint(List<ChatMessage> history, int keep) {
        int split = history.size() - keep;
        if (split <= 0) {
            return 0;
        }
        while (split > 0 && split < history.size() && "tool".equals(history.get(split).role())) {
            split--;
        }
        return split;
    }

    /** {@code context} with Heddle's {@code compaction} and {@code archive} statistics; left alone unless an object. */
    private static @Nullable RawJson withCompaction(@Nullable RawJson context, ArchiveRecord archive, int count,
                                                    Instant at) {
        JsonNode node = context == null ? Json.object() : Json.tree(context);
        if (!(node instanceof ObjectNode o)) {
            return context;
        }
        ObjectNode compaction = o.putObject("compaction");
        compaction.put("compactedMessages", archive.messageCount());
        compaction.put("compactedAt", Instants.format(at));
        compaction.put("status", "idle");
        ObjectNode stats = o.putObject("archive");
        stats.put("count", count);
        stats.put("currentSummaryPath", archive.summaryPath());
        stats.put("lastArchivePath", archive.path());
        return Json.raw(o);
    }

    /**
     * The rolling summary the record points at: that of its latest archive.
     *
     * @throws StorageCorruptionException if the archive repository does not hold it
     */
    private @Nullable String currentSummary(ChatSession session) {
        List<ArchiveRecord> pointers = session.archivesOrEmpty();
        if (pointers.isEmpty()) {
            return null;
        }
        ArchiveRecord latest = pointers.get(pointers.size() - 1);
        return archives.readSummary(latest.summaryPath()).orElseThrow(() -> new StorageCorruptionException(
                latest.summaryPath(), "session " + session.id() + " points at archive " + latest.id()
                + " whose summary the archive repository does not hold", null, true));
    }

    /**
     * The whole conversation of a session, from the record and the archives it points at: the archived messages
     * (oldest archive first), the record's own transcript, and the rolling summary. This is what a second instance
     * over the same repositories continues from. Archives that the record does not point at (left by a compaction
     * that failed after its append) are not read. Reads only; the record and the archives are each read once, and
     * archives are immutable, so the parts are consistent with the record's revision.
     *
     * @param sessionId the session
     * @return the archived messages, the record and its revision, and the rolling summary (null when the record points
     *     at no archive)
     * @throws NotFoundException if there is no session
     * @throws StorageCorruptionException if the record points at archived messages or a summary that the archive
     *     repository does not hold, or holds with a different message count, or cannot decode
     */
    public SessionHistory readHistory(String sessionId) {
        StoredSession stored = repository.read(sessionId)
                .orElseThrow(() -> new NotFoundException("no session " + sessionId));
        List<ArchiveRecord> pointers = stored.session().archivesOrEmpty();
        if (pointers.isEmpty()) {
            return new SessionHistory(stored, List.of(), null);
        }
        List<ChatMessage> archived = new ArrayList<>();
        for (ArchiveRecord a : pointers) {
            List<ChatMessage> messages = archives.readMessages(a.path()).orElseThrow(() -> new StorageCorruptionException(
                    a.path(), "session " + sessionId + " points at archive " + a.id()
                    + " whose messages the archive repository does not hold", null, true));
            if (messages.size() != a.messageCount()) {
                throw new StorageCorruptionException(a.path(), "archive " + a.id() + " holds " + messages.size()
                        + " messages, its record says " + a.messageCount(), null, true);
            }
            archived.addAll(messages);
        }
        return new SessionHistory(stored, archived, currentSummary(stored.session()));
    }
}
