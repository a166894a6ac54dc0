package dev.parley.engine;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.repository.TurnSummary;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat runs on a real scheduler with a short interval; lease freshness is decided by the test's clock, which
 * only the test moves. The tests wait for events (a count of refreshes, a lost lease), never for durations.
 */
class TurnHeartbeatTest {
    static final Duration TICK = Duration.ofMillis(2);
    static final Duration PATIENCE = Duration.ofSeconds(30);

    final Store store = MemoryStore.open().withScope("scope");
    final SessionServiceTest.MovableClock clock = new SessionServiceTest.MovableClock();
    final SessionService service = new SessionService(store.sessions().orElseThrow(), store.archives().orElseThrow(), clock,
            IdGenerator.uuidV7());
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final LeaseOwner tui = new LeaseOwner("tui", "host-1", "me", null);
    final LeaseOwner daemon = new LeaseOwner("daemon", "host-2", "other", null);

    @AfterEach
    void stopScheduler() throws InterruptedException {
        scheduler.shutdownNow();
        assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Waits until the condition holds; fails only if it never does within {@link #PATIENCE}. */
    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("gave up waiting for " + what);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** Moves the clock, then waits for a refresh that started after the move (two completed refreshes later). */
    void advanceAndAwaitRefresh(TurnHeartbeat heartbeat, Duration by) {
        long seen = heartbeat.refreshes();
        clock.advance(by);
        await("a refresh after the clock moved", () -> heartbeat.refreshes() >= seen + 2 || heartbeat.lost().isPresent());
    }

    ChatSession stored() {
        return store.sessions().orElseThrow().read("s1").orElseThrow().session();
    }

    @Test
    void runTurn_turnLongerThanTheLeaseLifetime_heartbeatKeepsTheLeaseFresh() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        AtomicReference<TurnHeartbeat> seen = new AtomicReference<>();

        AppliedTurn applied = service.runTurn(claim, scheduler, TICK, heartbeat -> {
            seen.set(heartbeat);
            for (int i = 0; i < 4; i++) { // 60 s of turn time, three times the lease's lifetime
                advanceAndAwaitRefresh(heartbeat, Duration.ofSeconds(15));
                assertThat(heartbeat.lost()).isEmpty();
                assertThatThrownBy(() -> service.acquireLease("s1", daemon))
                        .as("nobody else can take a lease that is kept fresh").isInstanceOf(LeaseLostException.class);
            }
            return TurnCompletionTest.turn("long");
        });

        assertThat(seen.get().isClosed()).as("stopped when the turn completed").isTrue();
        assertThat(seen.get().refreshes()).isGreaterThanOrEqualTo(8);
        assertThat(applied.stored().session().turns()).extracting(TurnSummary::id).containsExactly("long");
        assertThat(stored().lease().fencingToken()).isEqualTo(claim.fencingToken());
        assertThat(stored().lease().lastSeenAt()).isAfter(clock.instant().minus(SessionService.STALE_AFTER));
        assertThat(service.isHeld(stored(), claim)).as("the lease stays held after the turn").isTrue();
    }

    @Test
    void runTurn_leaseLostWhileTheTurnRan_finalWriteFailsWithLeaseLost() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        AtomicReference<StoredSession> beforeFinalWrite = new AtomicReference<>();

        assertThatThrownBy(() -> service.runTurn(claim, scheduler, TICK, heartbeat -> {
            // The process stalls past the lease's lifetime (the heartbeat could not run), and another owner takes over.
            clock.advance(SessionService.STALE_AFTER.plusSeconds(5));
            service.acquireLease("s1", daemon);
            await("the heartbeat to find the lease lost", () -> heartbeat.lost().isPresent());
            beforeFinalWrite.set(store.sessions().orElseThrow().read("s1").orElseThrow());
            return TurnCompletionTest.turn("lost");
        })).isInstanceOfSatisfying(LeaseLostException.class,
                e -> assertThat(e.expectedToken()).isEqualTo(claim.fencingToken()));

        assertThat(store.sessions().orElseThrow().read("s1").orElseThrow()).as("the turn was not recorded")
                .isEqualTo(beforeFinalWrite.get());
        assertThat(stored().turns()).isEmpty();
        assertThat(stored().history()).isEmpty();
        assertThat(stored().lease().ownerId()).isEqualTo("other");
    }

    @Test
    void runTurn_bodyFails_stopsTheHeartbeatAndRecordsNothing() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        AtomicReference<TurnHeartbeat> seen = new AtomicReference<>();

        assertThatThrownBy(() -> service.runTurn(claim, scheduler, TICK, heartbeat -> {
            seen.set(heartbeat);
            await("a first refresh", () -> heartbeat.refreshes() >= 1);
            throw new IllegalStateException("the model call failed");
        })).isInstanceOf(IllegalStateException.class).hasMessage("the model call failed");

        assertThat(seen.get().isClosed()).isTrue();
        assertThat(stored().turns()).isEmpty();
        assertThat(service.isHeld(stored(), claim)).as("a failed turn does not release the lease").isTrue();
    }

    @Test
    void startHeartbeat_staleClaim_failsBeforeStarting() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        clock.advance(SessionService.STALE_AFTER);
        assertThatThrownBy(() -> service.startHeartbeat(claim, scheduler, TICK)).isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> service.runTurn(claim, heartbeat -> fail("the body must not run")))
                .isInstanceOf(LeaseLostException.class);
    }

    @Test
    void startHeartbeat_intervalOutOfRange_isRejected() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        assertThatThrownBy(() -> service.startHeartbeat(claim, scheduler, Duration.ZERO))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> service.startHeartbeat(claim, scheduler, SessionService.STALE_AFTER))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void startHeartbeat_ownScheduler_refreshesAtOnceAndCloseStopsIt() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        clock.advance(Duration.ofSeconds(10));
        TurnHeartbeat heartbeat = service.startHeartbeat(claim);
        assertThat(stored().lease().lastSeenAt()).isEqualTo(clock.instant());
        heartbeat.close();
        heartbeat.close();
        assertThat(heartbeat.isClosed()).isTrue();
        assertThat(heartbeat.lost()).isEmpty();
    }

    @Test
    void heartbeat_sessionDeleted_reportsTheLeaseLost() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        try (TurnHeartbeat heartbeat = service.startHeartbeat(claim, scheduler, TICK)) {
            deleteWhileRefreshing();
            await("the heartbeat to find the lease lost", () -> heartbeat.lost().isPresent());
            assertThat(heartbeat.lost().orElseThrow().actual()).isNull();
        }
    }

    /** Deletes the session; a delete is never retried by the service, and the heartbeat's refreshes move the revision. */
    void deleteWhileRefreshing() {
        for (int attempt = 0; ; attempt++) {
            try {
                assertThat(service.delete("s1")).isTrue();
                return;
            } catch (RevisionConflictException e) {
                if (attempt > 1000) {
                    throw e;
                }
            }
        }
    }
}
