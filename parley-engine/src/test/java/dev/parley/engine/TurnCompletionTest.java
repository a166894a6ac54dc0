package dev.parley.engine;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.core.repository.QueuedPrompt;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.repository.TurnSummary;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TurnCompletionTest {
    final Store store = MemoryStore.open().withScope("scope");
    final SessionServiceTest.MovableClock clock = new SessionServiceTest.MovableClock();
    final SessionService service = new SessionService(store.sessions().orElseThrow(), store.archives().orElseThrow(), clock,
            IdGenerator.uuidV7());
    final LeaseOwner tui = new LeaseOwner("tui", "host-1", "me", null);
    final LeaseOwner daemon = new LeaseOwner("daemon", "host-2", "other", null);

    static TurnSummary summary(String id) {
        return new TurnSummary(id, "prompt of " + id, "done", "summary of " + id, 1, "trace-" + id, List.of(), null,
                null, null);
    }

    static CompletedTurn turn(String id) {
        return new CompletedTurn(summary(id),
                List.of(ChatMessage.of("user", "prompt of " + id), ChatMessage.of("assistant", "reply to " + id)),
                List.of(new ConversationLine("line-" + id, "assistant", "reply to " + id, null, null, null)));
    }

    ChatSession stored() {
        return read().session();
    }

    StoredSession read() {
        return store.sessions().orElseThrow().read("s1").orElseThrow();
    }

    @Test
    void applyCompletedTurn_keepsTheMostRecentTurnsOnly_andAppendsEveryMessage() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        int total = SessionService.RECENT_TURNS + 3;
        for (int i = 1; i <= total; i++) {
            service.applyCompletedTurn(claim, turn("t" + i));
        }
        ChatSession s = stored();
        assertThat(s.turns()).extracting(TurnSummary::id)
                .containsExactlyElementsOf(IntStream.rangeClosed(4, total).mapToObj(i -> "t" + i).toList());
        assertThat(s.history()).hasSize(2 * total);
        assertThat(s.history().get(0).content()).isEqualTo("prompt of t1");
        assertThat(s.history().get(2 * total - 1).content()).isEqualTo("reply to t" + total);
        assertThat(s.messages()).extracting(ConversationLine::id).startsWith("line-t1").endsWith("line-t" + total);
    }

    @Test
    void applyCompletedTurn_takesTheOldestQueuedPrompt_inTheSameWrite() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        service.enqueuePrompt("s1", "first");
        service.enqueuePrompt("s1", "second");
        long before = read().revision();

        AppliedTurn applied = service.applyCompletedTurn(claim, turn("t1"));

        assertThat(applied.next()).map(QueuedPrompt::prompt).contains("first");
        assertThat(applied.stored().revision()).as("one compare-and-swap write").isEqualTo(before + 1);
        assertThat(read()).isEqualTo(applied.stored());
        assertThat(stored().queuedPrompts()).extracting(QueuedPrompt::prompt).containsExactly("second");
        assertThat(stored().turns()).extracting(TurnSummary::id).containsExactly("t1");

        assertThat(service.applyCompletedTurn(claim, turn("t2")).next()).map(QueuedPrompt::prompt).contains("second");
        assertThat(service.applyCompletedTurn(claim, turn("t3")).next()).isEmpty();
    }

    @Test
    void applyCompletedTurn_staleClaim_throwsLeaseLostAndChangesNothing() {
        service.ensure("s1");
        LeaseClaim mine = service.acquireLease("s1", tui);
        service.enqueuePrompt("s1", "waiting");
        clock.advance(SessionService.STALE_AFTER.plusSeconds(1));
        LeaseClaim theirs = service.acquireLease("s1", daemon);
        StoredSession before = read();

        assertThatThrownBy(() -> service.applyCompletedTurn(mine, turn("late")))
                .isInstanceOfSatisfying(LeaseLostException.class, e -> {
                    assertThat(e.expectedToken()).isEqualTo(mine.fencingToken());
                    assertThat(e.actual().fencingToken()).isEqualTo(theirs.fencingToken());
                });
        assertThat(read()).as("no turn, no messages, the queue untouched").isEqualTo(before);
    }

    @Test
    void applyCompletedTurn_expiredClaimWithoutTakeover_throwsLeaseLost() {
        service.ensure("s1");
        LeaseClaim mine = service.acquireLease("s1", tui);
        clock.advance(SessionService.STALE_AFTER);
        StoredSession before = read();
        assertThatThrownBy(() -> service.applyCompletedTurn(mine, turn("late"))).isInstanceOf(LeaseLostException.class);
        assertThat(read()).isEqualTo(before);
    }

    @Test
    void applyCompletedTurn_sameTurnTwice_isRejectedAndWritesNothing() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        service.applyCompletedTurn(claim, turn("t1"));
        StoredSession before = read();
        assertThatThrownBy(() -> service.applyCompletedTurn(claim, turn("t1"))).isInstanceOf(InvalidInputException.class);
        assertThat(read()).isEqualTo(before);
    }

    @Test
    void applyCompletedTurn_missingSession_throwsNotFound() {
        service.ensure("s1");
        LeaseClaim claim = service.acquireLease("s1", tui);
        service.delete("s1");
        assertThatThrownBy(() -> service.applyCompletedTurn(claim, turn("t1"))).isInstanceOf(NotFoundException.class);
    }

    @Test
    void resetConversation_clearsTranscriptTurnsQueueAndCompactionState_keepsSettingsAndLease() {
        service.ensure("s1");
        service.update("s1", s -> s.toBuilder().name("Kept").model("m-1").lastContinuePrompt("go on").build());
        LeaseClaim claim = service.acquireLease("s1", tui);
        service.applyCompletedTurn(claim, turn("t1"));
        service.applyCompletedTurn(claim, turn("t2"));
        service.compactHistory(claim, 1, (previous, compacted) -> Summarizer.Summary.of("earlier"));
        service.enqueuePrompt("s1", "queued");
        assertThat(stored().archives()).hasSize(1);
        assertThat(stored().context()).isNotNull();

        StoredSession reset = service.resetConversation("s1");

        ChatSession s = reset.session();
        assertThat(reset).isEqualTo(read());
        assertThat(s.history()).isEmpty();
        assertThat(s.messages()).isEmpty();
        assertThat(s.turns()).isEmpty();
        assertThat(s.queuedPrompts()).isEmpty();
        assertThat(s.lastContinuePrompt()).isNull();
        assertThat(s.archives()).as("the record no longer points at the old transcript's archives").isEmpty();
        assertThat(s.context()).isNull();
        assertThat(s.name()).isEqualTo("Kept");
        assertThat(s.model()).isEqualTo("m-1");
        assertThat(s.lease()).isNotNull();
        assertThat(service.isHeld(s, claim)).isTrue();
        assertThat(store.archives().orElseThrow().loadManifest("s1").archives()).as("archives are append-only").hasSize(1);
        assertThat(service.readHistory("s1").fullHistory()).isEmpty();
        assertThatThrownBy(() -> service.resetConversation("nope")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void applyCompletedTurn_promptQueuedDuringTheWrite_isKeptByTheReappliedUpdate() {
        service.ensure("s1");
        service.enqueuePrompt("s1", "first");
        // Another writer queues a prompt between the completion's read and its compare-and-swap.
        SessionService other = new SessionService(store.sessions().orElseThrow(), store.archives().orElseThrow(), clock,
                IdGenerator.uuidV7());
        boolean[] interfered = {false};
        SessionService racing = new SessionService(new BrokenRepositoriesTest.Delegating(store.sessions().orElseThrow()) {
            @Override
            public java.util.Optional<StoredSession> update(ChatSession session, long expectedRevision) {
                if (!interfered[0] && !session.turns().isEmpty()) {
                    interfered[0] = true;
                    other.enqueuePrompt("s1", "queued meanwhile");
                }
                return super.update(session, expectedRevision);
            }
        }, store.archives().orElseThrow(), clock, IdGenerator.uuidV7());
        LeaseClaim claim = racing.acquireLease("s1", tui);

        AppliedTurn applied = racing.applyCompletedTurn(claim, turn("t1"));

        assertThat(interfered[0]).isTrue();
        assertThat(applied.next()).map(QueuedPrompt::prompt).contains("first");
        assertThat(stored().queuedPrompts()).extracting(QueuedPrompt::prompt).containsExactly("queued meanwhile");
        assertThat(stored().turns()).extracting(TurnSummary::id).containsExactly("t1");
        assertThat(stored().history()).hasSize(2);
    }
}
