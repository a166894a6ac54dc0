package dev.parley.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import java.time.Clock;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SessionServiceTest {
    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        volatile Instant now = Instant.parse("2026-03-01T10:00:00.000Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    final Store store = MemoryStore.open().withScope("scope");
    final MovableClock clock = new MovableClock();
    final SessionService service = new SessionService(store.sessions().orElseThrow(), store.archives().orElseThrow(),
            clock, IdGenerator.uuidV7());
    final LeaseOwner tui = new LeaseOwner("tui", "host-1", "me", null);
    final LeaseOwner daemon = new LeaseOwner("daemon", "host-2", "me", null);

    @Test
    void ensure_twoFirstWritersResolveToOneSession_andNeverOverwrite() {
        StoredSession first = service.ensure("s1");
        service.update("s1", s -> s.toBuilder().name("Renamed").build());
        StoredSession again = service.ensure("s1");
        assertThat(again.revision()).isEqualTo(2);
        assertThat(again.session().name()).isEqualTo("Renamed");
        assertThat(first.revision()).isEqualTo(1);
        assertThatThrownBy(() -> service.ensure("")).isInstanceOf(InvalidInputException.class);
    }

    @Test
    void update_reappliesThePureUpdaterOnConflict_andGivesUpAfterFourRetries() {
        service.ensure("s1");
        ChatSessionRepository repo = store.sessions().orElseThrow();
        AtomicInteger calls = new AtomicInteger();
        // Another writer changes the record once while the first attempt is in flight.
        Optional<StoredSession> result = service.update("s1", s -> {
            if (calls.incrementAndGet() == 1) {
                StoredSession now = repo.read("s1").orElseThrow();
                repo.update(now.session().toBuilder().model("changed-meanwhile").build(), now.revision());
            }
            return s.toBuilder().name("mine").build();
        });
        assertThat(calls).hasValue(2);
        assertThat(result.orElseThrow().session().name()).isEqualTo("mine");
        assertThat(result.orElseThrow().session().model()).isEqualTo("changed-meanwhile");

        AtomicInteger always = new AtomicInteger();
        assertThatThrownBy(() -> service.update("s1", s -> {
            always.incrementAndGet();
            StoredSession now = repo.read("s1").orElseThrow();
            repo.update(now.session().toBuilder().name("interloper " + always.get()).build(), now.revision());
            return s.toBuilder().name("never").build();
        })).isInstanceOf(RevisionConflictException.class);
        assertThat(always).hasValue(SessionService.MAX_RETRIES + 1);
    }

    @Test
    void queuedPrompts_areAFifoWithPositions() {
        service.ensure("s1");
        assertThat(service.enqueuePrompt("s1", " first ")).isEqualTo(1);
        assertThat(service.enqueuePrompt("s1", "second")).isEqualTo(2);
        QueuedPrompt first = store.sessions().orElseThrow().read("s1").orElseThrow().session().queuedPrompts().get(0);
        service.updateQueuedPrompt("s1", first.id(), "first, edited");
        assertThatThrownBy(() -> service.updateQueuedPrompt("s1", "nope", "x")).isInstanceOf(NotFoundException.class);
        service.deleteQueuedPrompt("s1", "nope");
        assertThat(service.dequeuePrompt("s1")).map(QueuedPrompt::prompt).contains("first, edited");
        assertThat(service.dequeuePrompt("s1")).map(QueuedPrompt::prompt).contains("second");
        assertThat(service.dequeuePrompt("s1")).isEmpty();
        assertThatThrownBy(() -> service.enqueuePrompt("nope", "x")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void leases_fenceWritersAndExpireAfterTwentySeconds() {
        service.ensure("s1");
        LeaseClaim mine = service.acquireLease("s1", tui);
        assertThat(mine.fencingToken()).isEqualTo(1);
        assertThat(service.acquireLease("s1", tui).fencingToken()).as("a fresh owner keeps its token").isEqualTo(1);
        assertThatThrownBy(() -> service.acquireLease("s1", daemon)).isInstanceOf(LeaseLostException.class);

        service.updateWithLease(mine, s -> s.toBuilder().name("written under the lease").build());
        clock.advance(Duration.ofSeconds(15));
        service.refreshLease(mine);
        clock.advance(Duration.ofSeconds(15));
        service.updateWithLease(mine, s -> s.toBuilder().name("still fresh after a refresh").build());

        clock.advance(Duration.ofSeconds(21));
        assertThatThrownBy(() -> service.updateWithLease(mine, s -> s.toBuilder().name("too late").build()))
                .as("an expired lease has lost write authority before any takeover").isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> service.refreshLease(mine)).isInstanceOf(LeaseLostException.class);

        LeaseClaim theirs = service.acquireLease("s1", daemon);
        assertThat(theirs.fencingToken()).isEqualTo(2);
        LeaseLostException lost = org.assertj.core.api.Assertions.catchThrowableOfType(LeaseLostException.class,
                () -> service.updateWithLease(mine, s -> s.toBuilder().name("stale").build()));
        assertThat(lost.stableCode()).isEqualTo("CHAT_SESSION_LEASE_LOST");
        assertThat(lost.actual().ownerId()).isEqualTo("me");
        assertThat(lost.actual().hostId()).isEqualTo("host-2");
        // From a break-it pass: the message named only the holder's owner id and token, the caller's own when the
        // refusal came from another host id; it names the host and when the lease was last seen.
        assertThat(lost).hasMessageContaining("on host host-2").hasMessageContaining("token 2")
                .hasMessageContaining("last seen").hasMessageContaining("same owner id and host id");

        service.releaseLease(mine); // a foreign owner's lease is left alone
        assertThat(store.sessions().orElseThrow().read("s1").orElseThrow().session().lease()).isNotNull();
        service.releaseLease(theirs);
        ChatSession released = store.sessions().orElseThrow().read("s1").orElseThrow().session();
        assertThat(released.lease()).isNull();
        assertThat(released.leaseEpoch()).as("the epoch survives release").isEqualTo(2);
        assertThat(service.acquireLease("s1", tui).fencingToken()).isEqualTo(3);
        assertThat(released.name()).isEqualTo("still fresh after a refresh");
    }

    @Test
    void readiness_isNonCertifying_andFailsFastOnMixedConfiguration() {
        assertThat(Readiness.assess(Readiness.Configuration.defaults()).requiredHostChecks())
                .extracting(Readiness.HostCheck::id).containsExactly("persistent-state-root", "backup-and-restore");
        Readiness.Report complete = Readiness.assess(new Readiness.Configuration(
                new Readiness.Conversations(store.withScope("x").sessions().orElseThrow(), store.withScope("x").archives().orElseThrow()), null, null));
        assertThat(complete.source()).isEqualTo("conversation-capability");
        assertThat(complete.configurationComplete()).isTrue();
        assertThat(complete.requiredHostChecks()).hasSize(6);
        Readiness.Report partial = Readiness.assess(new Readiness.Configuration(null, store.withScope("x").sessions().orElseThrow(), null));
        assertThat(partial.configurationComplete()).isFalse();
        assertThat(partial.issues()).extracting(Readiness.Issue::code)
                .containsExactly("legacy-repository-options", "archive-repository-missing");
        assertThatThrownBy(() -> Readiness.assess(new Readiness.Configuration(
                new Readiness.Conversations(store.withScope("x").sessions().orElseThrow(), null), null, null))).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> Readiness.assess(new Readiness.Configuration(
                new Readiness.Conversations(store.withScope("x").sessions().orElseThrow(), store.withScope("x").archives().orElseThrow()), store.withScope("x").sessions().orElseThrow(), null)))
                .isInstanceOf(InvalidInputException.class);
    }
}
