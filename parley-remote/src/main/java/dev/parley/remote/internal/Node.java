package dev.parley.remote.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.InvalidInputException;
import dev.parley.core.ParleyException;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import dev.parley.json.wire.Wire;
import dev.parley.remote.RemoteListener;
import dev.parley.remote.RemoteSettings;
import dev.parley.remote.SyncReport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every scope of one remote store shares: the transport, the fallback store (opened on first need), the replay
 * journal, the listeners, the counters and the background replay. Thread-safe.
 */
public final class Node implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("dev.parley.remote");

    private final RemoteSettings settings;
    private final StoreOptions options;
    private final Transport transport;
    private final Journal journal;
    private final List<RemoteListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong fallbacks = new AtomicLong();
    private final AtomicLong replays = new AtomicLong();
    private final AtomicLong conflicts = new AtomicLong();
    /** Calls that fell back since the server last answered; the first of them is logged at WARN, the rest at DEBUG. */
    private final AtomicLong outageFallbacks = new AtomicLong();
    private final ScheduledExecutorService replayer;
    private volatile @Nullable Store fallback;

    public Node(RemoteSettings settings, StoreOptions options) {
        this.settings = settings;
        this.options = options;
        this.transport = new Transport(settings);
        this.journal = new Journal(settings.journal());
        this.replayer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "parley-remote-replay");
            t.setDaemon(true);
            return t;
        });
        long every = settings.replayInterval().toMillis();
        replayer.scheduleWithFixedDelay(this::replayInBackground, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * The clock of the store's options.
     *
     * @return the clock this store reads the time from
     */
    public java.time.Clock clock() {
        return options.clock();
    }

    public RemoteSettings settings() {
        return settings;
    }

    public Transport transport() {
        return transport;
    }

    public Journal journal() {
        return journal;
    }

    public void addListener(RemoteListener listener) {
        listeners.add(listener);
    }

    public long calls() {
        return calls.get();
    }

    public long fallbacks() {
        return fallbacks.get();
    }

    public long replays() {
        return replays.get();
    }

    public long conflicts() {
        return conflicts.get();
    }

    /**
     * The fallback store bound to {@code scope} (null: {@value Store#DEFAULT_SCOPE}, as a server without tokens
     * would), opened on first need.
     */
    public Store fallback(@Nullable String scope) {
        Store root = fallback;
        if (root == null) {
            synchronized (this) {
                transport.requireOpen();
                root = fallback;
                if (root == null) {
                    root = Stores.open(settings.fallbackUri(), new StoreOptions(options.clock(), options.ids()));
                    fallback = root;
                }
            }
        }
        return root.withScope(scope == null ? Store.DEFAULT_SCOPE : scope);
    }

    /**
     * A read: from the server, or, when it does not answer (or writes that fell back are still pending), from the
     * fallback store, with a warning and a fallback event.
     */
    public <T> T read(@Nullable String scope, String label, Request request, Function<JsonNode, T> decode,
                      Function<Store, T> onFallback) {
        calls.incrementAndGet();
        Outage behind = catchUp();
        if (behind != null) {
            return fellBack(scope, label, behind, onFallback);
        }
        JsonNode answer;
        try {
            answer = sendNotingAnswer(request, scope);
        } catch (Outage e) {
            return fellBack(scope, label, e, onFallback);
        }
        return decoded(request, answer, decode);
    }

    /**
     * A write: to the server, or, when it does not answer (or earlier writes that fell back are still pending, so
     * order is kept), journaled and carried out on the fallback store.
     *
     * @throws UnavailableException if the fallback store could not take the write either; nothing was acknowledged
     * @throws LastEntryMovedException if the fallback store refused a conditional append as the server would have;
     *     nothing was acknowledged or journaled
     */
    public <T> T write(@Nullable String scope, String label, Request request, Function<JsonNode, T> decode,
                       Function<Store, T> onFallback) {
        return write(scope, label, request, request, decode, onFallback);
    }

    /**
     * {@link #write(String, String, Request, Function, Function)} whose fallback is journaled, and later replayed, as
     * {@code replayed}: the write the fallback store carried out, where that differs from the request (a conditional
     * append falls back, and is replayed, as a plain one).
     */
    public <T> T write(@Nullable String scope, String label, Request request, Request replayed,
                       Function<JsonNode, T> decode, Function<Store, T> onFallback) {
        calls.incrementAndGet();
        Outage behind = catchUp();
        if (behind != null) {
            return journaled(scope, label, replayed, behind, onFallback);
        }
        try {
            return decoded(request, sendNotingAnswer(request, scope), decode);
        } catch (Outage e) {
            return journaled(scope, label, replayed, e, onFallback);
        }
    }

    /**
     * Refuses to fall back with a write whose body is larger than the server accepts: the fallback would acknowledge
     * it, and the server refuse it at replay (413), filed as a conflict, with every later write that names one of its
     * entries as a parent. While the server answers, its own limit decides (a 413 is an answer, never a fallback).
     *
     * @throws InvalidInputException naming the body's size and the limit; nothing was written
     */
    private void requireBodyWithinLimit(String label, Request request) {
        if (request.body() == null) {
            return;
        }
        long bytes = Wire.write(request.body()).getBytes(StandardCharsets.UTF_8).length;
        if (bytes > settings.maxBodyBytes()) {
            throw new InvalidInputException(label + " to " + settings.server() + ", which did not answer: the request"
                    + " body would be " + bytes + " bytes, over the " + settings.maxBodyBytes() + " the server accepts"
                    + " (parley.maxBody, the server's --max-body-bytes), so it cannot fall back and be replayed;"
                    + " nothing was written");
        }
    }

    /**
     * A call with no fallback (session records, archives): an outage is an {@link UnavailableException}.
     *
     * @param decode reads the answer (see {@link #decoded})
     */
    public <T> T strict(@Nullable String scope, Request request, Function<JsonNode, T> decode) {
        calls.incrementAndGet();
        JsonNode answer;
        try {
            answer = sendNotingAnswer(request, scope);
        } catch (Outage e) {
            throw new UnavailableException(e.getMessage() + " (session records and archives do not fall back: a"
                    + " revisioned record cannot be forked safely; retry later)", e);
        }
        return decoded(request, answer, decode);
    }

    /**
     * A successful answer read by {@code decode}. An answer it refuses ({@link InvalidInputException},
     * {@link CorruptRecordException}: a field missing, a value of the wrong kind) did not come from a Parley server of
     * this protocol — something else answers at the server's address — and is an {@link UnavailableException} naming
     * the request and the server, as every other answer that is not Parley's is.
     */
    public <T> T decoded(Request request, JsonNode answer, Function<JsonNode, T> decode) {
        try {
            return decode.apply(answer);
        } catch (InvalidInputException | CorruptRecordException e) {
            throw transport.notParley(request, "what this client cannot read as Parley's answer, of this version or"
                    + " any (" + e.getMessage() + ")", e);
        }
    }

    private <T> T journaled(@Nullable String scope, String label, Request request, Outage cause,
                            Function<Store, T> onFallback) {
        requireBodyWithinLimit(label, request);
        return journal.locked(() -> {
            String id = journal.record(scope, label, request);
            try {
                return fellBack(scope, label, cause, onFallback);
            } catch (ParleyException e) {
                journal.cancel(id);
                if (e instanceof UnavailableException || e instanceof LastEntryMovedException) {
                    // the fallback's own outage, or a conditional append it refused as the server would: as they are
                    throw e;
                }
                throw new UnavailableException("the server did not answer ("
                        + cause.getMessage() + ") and the fallback store " + settings.fallbackUri()
                        + " refused the write: " + e.getMessage(), e);
            } catch (RuntimeException e) {
                journal.cancel(id);
                throw e;
            }
        });
    }

    /**
     * Sends {@code request} to the server ({@link Transport#send}). Any answer — an error answer too — after calls fell
     * back ends the outage in the log: an INFO line counts them, and the next fallback warns again.
     *
     * @throws Outage if the server did not answer
     */
    public JsonNode sendNotingAnswer(Request request, @Nullable String scope) {
        JsonNode answer;
        try {
            answer = transport.send(request, scope);
        } catch (Outage e) {
            throw e;
        } catch (RuntimeException e) {
            answered(); // an error answer (or a refusal this client must mend): not an outage
            throw e;
        }
        answered();
        return answer;
    }

    private void answered() {
        long fellBack = outageFallbacks.getAndSet(0);
        if (fellBack > 0) {
            LOG.info("remote store {}: the server answers again; calls that fell back to {} meanwhile: {}",
                    settings.server(), Stores.redact(settings.fallbackUri()), fellBack);
        }
    }

    /**
     * Carries out a call on the fallback store. The first fallback of an outage is logged at WARN with its cause, the
     * others at DEBUG (an outage of a busy agent would otherwise write a warning per message); every one is counted
     * ({@link dev.parley.remote.RemoteStats#fallbacks()}) and passed to the listeners.
     */
    private <T> T fellBack(@Nullable String scope, String label, Outage cause, Function<Store, T> onFallback) {
        fallbacks.incrementAndGet();
        if (outageFallbacks.getAndIncrement() == 0) {
            LOG.warn("remote store {}: {} fell back to {}: {}; further fallbacks are logged at DEBUG until the server"
                    + " answers again", settings.server(), label, Stores.redact(settings.fallbackUri()),
                    cause.getMessage());
        } else {
            LOG.debug("remote store {}: {} fell back to {}: {}", settings.server(), label,
                    Stores.redact(settings.fallbackUri()), cause.getMessage());
        }
        for (RemoteListener l : listeners) {
            l.fellBack(label, cause);
        }
        return onFallback.apply(fallback(scope));
    }

    /**
     * Replays pending writes if there are any.
     *
     * @return null when nothing is pending afterwards; else the outage that stopped the replay, for the call to fall
     *     back behind the pending writes with (naming its cause: the server's own failure, such as a refused connection)
     * @throws Misconfigured if this client cannot use the server as configured, which the call itself would meet: it
     *     fails, rather than fall back and hide it
     * @throws UnavailableException if what answers is not a Parley server, as for the call itself
     */
    private @Nullable Outage catchUp() {
        if (!journal.hasPending()) {
            return null;
        }
        Replay replay = replayPending();
        if (replay.stoppedBy() != null) {
            throw replay.stoppedBy();
        }
        SyncReport report = replay.report();
        return report.pending() == 0 ? null : new Outage(report.pending() + " earlier writes that fell back are not"
                + " replayed yet: " + Objects.requireNonNullElse(report.stoppedBy(), "the replay stopped"));
    }

    /** What a replay did, and the error that is no outage that stopped it, or null. */
    private record Replay(SyncReport report, @Nullable ParleyException stoppedBy) {}

    /**
     * Replays every pending write to the server, in order, until one meets an outage, a server this client cannot use
     * as configured ({@link Misconfigured}: refused credentials, a TLS failure), or an answer that is not a Parley
     * server's (each leaves it and the rest pending). A write the server refuses otherwise is filed as a
     * conflict: it stays in the fallback store and the conflicts file, and the replay goes on.
     *
     * @return what was replayed, refused and left pending
     */
    public SyncReport replay() {
        return replayPending().report();
    }

    private Replay replayPending() {
        transport.requireOpen(); // a closed store replays nothing: its calls fail here, before any write is judged
        return journal.locked(() -> {
            Replay replay;
            try {
                replay = replayLocked();
            } catch (RuntimeException e) {
                try {
                    journal.flush(); // what was replayed before the failure stays settled
                } catch (RuntimeException flushFailed) {
                    e.addSuppressed(flushFailed);
                }
                throw e;
            }
            journal.flush(); // the done marks of the appends replayed, in one fsync
            return replay;
        });
    }

    private Replay replayLocked() {
        int replayed = 0;
        int refused = 0;
        List<Journal.Line> pending = journal.pending();
        for (int i = 0; i < pending.size(); i++) {
            Journal.Op op = journal.op(pending.get(i));
            if (!op.idempotent()) {
                // Settle the appends replayed before it first: sent again after it, they could undo what it does.
                journal.flush();
            }
            try {
                sendNotingAnswer(op.request(), op.scope());
            } catch (Outage | StoreClosed e) { // a closed store leaves the rest for the next open
                return new Replay(new SyncReport(replayed, refused, pending.size() - i, e.getMessage()), null);
            } catch (Misconfigured e) { // not a verdict on the write: it waits for a configuration that works
                LOG.warn("remote store {}: the replay stopped, this client cannot use the server as configured; {}"
                        + " writes stay pending: {}", settings.server(), pending.size() - i, e.getMessage());
                return new Replay(new SyncReport(replayed, refused, pending.size() - i, e.getMessage()), e);
            } catch (UnavailableException e) { // what answers is not a Parley server: no verdict on the write
                LOG.warn("remote store {}: the replay stopped, {} writes stay pending: {}", settings.server(),
                        pending.size() - i, e.getMessage());
                return new Replay(new SyncReport(replayed, refused, pending.size() - i, e.getMessage()), e);
            } catch (ParleyException e) {
                journal.conflict(op, e.stableCode() + ": " + e.getMessage());
                refused++;
                conflicts.incrementAndGet();
                LOG.error("remote store {}: the replay of {} was refused; it stays in the fallback store and in {}:"
                        + " {}", settings.server(), op.label(), journal.conflictsFile(), e.getMessage());
                for (RemoteListener l : listeners) {
                    l.conflict(op.label(), e);
                }
                continue;
            }
            journal.done(op); // outside the try: the journal's own failure is no verdict on the server's answer
            replayed++;
            replays.incrementAndGet();
            for (RemoteListener l : listeners) {
                l.replayed(op.label());
            }
        }
        journal.compact();
        return new Replay(new SyncReport(replayed, refused, 0, null), null);
    }

    private void replayInBackground() {
        if (transport.isClosed() || !journal.hasPending()) {
            return;
        }
        try {
            SyncReport r = replay();
            if (r.replayed() > 0) {
                LOG.info("remote store {}: writes that fell back replayed: {} ({} pending)", settings.server(),
                        r.replayed(), r.pending());
            }
        } catch (RuntimeException e) {
            if (transport.isClosed()) { // close() interrupted it: what was not replayed stays pending, for the next open or sync
                LOG.debug("remote store {}: the background replay stopped as the store closed: {}", settings.server(),
                        e.toString());
            } else {
                LOG.warn("remote store {}: the background replay failed: {}", settings.server(), e.toString());
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) { // no fallback store is opened after this
            transport.close();
        }
        replayer.shutdownNow();
        Store f = fallback;
        if (f != null) {
            f.close();
        }
    }
}
