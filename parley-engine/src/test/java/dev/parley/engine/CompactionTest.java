package dev.parley.engine;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parley.core.IdGenerator;
import dev.parley.core.RawJson;
import dev.parley.core.UnavailableException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class CompactionTest {
    final Store store = MemoryStore.open().withScope("scope");
    final SessionServiceTest.MovableClock clock = new SessionServiceTest.MovableClock();
    final SessionService service = engine();
    final LeaseOwner tui = new LeaseOwner("tui", "host-1", "me", null);
    final LeaseOwner daemon = new LeaseOwner("daemon", "host-2", "other", null);

    /** An engine over fresh repository instances of the same store and scope. */
    SessionService engine() {
        return new SessionService(store.sessions().orElseThrow(), store.archives().orElseThrow(), clock, IdGenerator.uuidV7());
    }

    /** A summarizer that records what it was given and numbers its summaries. */
    static final class RecordingSummarizer implements Summarizer {
        final List<@Nullable String> previous = new ArrayList<>();
        final List<List<ChatMessage>> compacted = new ArrayList<>();

        @Override
        public Summary summarize(@Nullable String previousSummary, List<ChatMessage> messages) {
            previous.add(previousSummary);
            compacted.add(messages);
            return new Summary("summary " + compacted.size(), "summary-model", "part " + compacted.size());
        }
    }

    static List<ChatMessage> messages(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> ChatMessage.of(i % 2 == 0 ? "user" : "assistant", "message " + i)).toList();
    }

    /** A session holding {@code count} messages, and a lease on it. */
    LeaseClaim sessionWith(List<ChatMessage> history) {
        service.ensure("s1");
        service.update("s1", s -> s.toBuilder().history(history).build());
        return service.acquireLease("s1", tui);
    }

    StoredSession read() {
        return store.sessions().orElseThrow().read("s1").orElseThrow();
    }

    @Test
    void compactHistory_archivesTheOldestMessages_thenPointsTheRecordAtTheArchive() {
        List<ChatMessage> all = messages(0, 10);
        LeaseClaim claim = sessionWith(all);
        RecordingSummarizer summarizer = new RecordingSummarizer();

        Compacted compacted = service.compactHistory(claim, 4, summarizer).orElseThrow();

        assertThat(summarizer.previous).containsExactly((String) null);
        assertThat(summarizer.compacted).containsExactly(all.subList(0, 6));
        ArchiveRecord archive = compacted.archive();
        assertThat(archive.messageCount()).isEqualTo(6);
        assertThat(archive.summaryModel()).isEqualTo("summary-model");
        assertThat(archive.shortDescription()).isEqualTo("part 1");
        ChatArchiveManifest manifest = store.archives().orElseThrow().loadManifest("s1");
        assertThat(manifest.archives()).containsExactly(archive);
        assertThat(store.archives().orElseThrow().readSummary(archive.summaryPath())).contains("summary 1");
        assertThat(store.archives().orElseThrow().readMessages(archive.path()))
                .contains(all.subList(0, 6));

        ChatSession s = read().session();
        assertThat(compacted.stored()).isEqualTo(read());
        assertThat(s.history()).isEqualTo(all.subList(6, 10));
        assertThat(s.archives()).containsExactly(archive);
        JsonNode context = Json.tree(s.context());
        assertThat(context.path("compaction").path("compactedMessages").asLong()).isEqualTo(6);
        assertThat(context.path("compaction").path("status").asText()).isEqualTo("idle");
        assertThat(context.path("archive").path("count").asInt()).isEqualTo(1);
        assertThat(context.path("archive").path("currentSummaryPath").asText()).isEqualTo(archive.summaryPath());

        SessionHistory history = service.readHistory("s1");
        assertThat(history.fullHistory()).isEqualTo(all);
        assertThat(history.activeMessages()).isEqualTo(all.subList(6, 10));
        assertThat(history.rollingSummary()).isEqualTo("summary 1");
    }

    @Test
    void compactHistory_secondCompaction_rollsTheSummaryForward() {
        List<ChatMessage> all = messages(0, 10);
        LeaseClaim claim = sessionWith(all);
        RecordingSummarizer summarizer = new RecordingSummarizer();
        service.compactHistory(claim, 6, summarizer);
        service.compactHistory(claim, 2, summarizer);

        assertThat(summarizer.previous).containsExactly(null, "summary 1");
        assertThat(summarizer.compacted).containsExactly(all.subList(0, 4), all.subList(4, 8));
        SessionHistory history = service.readHistory("s1");
        assertThat(history.archives()).hasSize(2);
        assertThat(history.archivedMessages()).isEqualTo(all.subList(0, 8));
        assertThat(history.fullHistory()).isEqualTo(all);
        assertThat(history.rollingSummary()).isEqualTo("summary 2");
    }

    @Test
    void compactHistory_recordUpdateFails_archiveExistsUnreferencedAndRecordIsUnchanged() {
        List<ChatMessage> all = messages(0, 10);
        sessionWith(all);
        boolean[] failUpdates = {true};
        SessionService failing = new SessionService(new BrokenRepositoriesTest.Delegating(store.sessions().orElseThrow()) {
            @Override
            public Optional<StoredSession> update(ChatSession session, long expectedRevision) {
                if (failUpdates[0] && !session.archivesOrEmpty().isEmpty()) {
                    throw new UnavailableException("the database went away", null);
                }
                return super.update(session, expectedRevision);
            }
        }, store.archives().orElseThrow(), clock, IdGenerator.uuidV7());
        LeaseClaim claim = failing.acquireLease("s1", tui);
        StoredSession before = read();
        RecordingSummarizer summarizer = new RecordingSummarizer();

        assertThatThrownBy(() -> failing.compactHistory(claim, 4, summarizer)).isInstanceOf(UnavailableException.class);

        ChatArchiveManifest manifest = store.archives().orElseThrow().loadManifest("s1");
        assertThat(manifest.archives()).as("the archive was written first").hasSize(1);
        ArchiveRecord orphan = manifest.archives().get(0);
        assertThat(store.archives().orElseThrow().readMessages(orphan.path()))
                .contains(all.subList(0, 6));
        assertThat(store.archives().orElseThrow().readSummary(orphan.summaryPath())).contains("summary 1");
        assertThat(read()).as("the record is exactly as before").isEqualTo(before);
        assertThat(engine().readHistory("s1").fullHistory()).as("a second engine still sees every message once")
                .isEqualTo(all);
        assertThat(engine().readHistory("s1").rollingSummary()).isNull();

        failUpdates[0] = false;
        Compacted retried = failing.compactHistory(claim, 4, summarizer).orElseThrow();

        assertThat(summarizer.previous).as("the unreferenced archive's summary is not followed")
                .containsExactly(null, null);
        assertThat(store.archives().orElseThrow().loadManifest("s1").archives()).hasSize(2);
        assertThat(read().session().archives()).containsExactly(retried.archive());
        SessionHistory history = engine().readHistory("s1");
        assertThat(history.fullHistory()).isEqualTo(all);
        assertThat(history.rollingSummary()).isEqualTo("summary 2");
    }

    @Test
    void compactHistory_archiveAppendFails_recordIsUnchanged() {
        LeaseClaim claim = sessionWith(messages(0, 10));
        StoredSession before = read();
        SessionService failing = new SessionService(store.sessions().orElseThrow(), new ChatArchiveRepository() {
            @Override
            public ChatArchiveManifest loadManifest(String sessionId) {
                return store.archives().orElseThrow().loadManifest(sessionId);
            }

            @Override
            public Optional<String> readSummary(String summaryLocator) {
                return store.archives().orElseThrow().readSummary(summaryLocator);
            }

            @Override
            public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
                return store.archives().orElseThrow().readMessages(messagesLocator);
            }

            @Override
            public ArchiveAppend.Result append(ArchiveAppend request) {
                throw new UnavailableException("the archive store went away", null);
            }
        }, clock, IdGenerator.uuidV7());

        assertThatThrownBy(() -> failing.compactHistory(claim, 4, new RecordingSummarizer()))
                .isInstanceOf(UnavailableException.class);
        assertThat(read()).isEqualTo(before);
        assertThat(store.archives().orElseThrow().loadManifest("s1").archives()).isEmpty();
    }

    @Test
    void compactHistory_neverSeparatesAToolResultFromItsCall() {
        List<ChatMessage> all = List.of(
                ChatMessage.of("user", "read two files"),
                new ChatMessage("assistant", "", List.of(
                        new ChatMessage.ToolCall("c1", "read", RawJson.of("{\"path\":\"a\"}")),
                        new ChatMessage.ToolCall("c2", "read", RawJson.of("{\"path\":\"b\"}"))), null, null),
                new ChatMessage("tool", "A", List.of(), "c1", null),
                new ChatMessage("tool", "B", List.of(), "c2", null),
                ChatMessage.of("assistant", "done"));
        LeaseClaim claim = sessionWith(all);

        // Keeping 2 would cut between the call and its second result: the call and both results stay.
        Compacted compacted = service.compactHistory(claim, 2, new RecordingSummarizer()).orElseThrow();

        assertThat(compacted.archive().messageCount()).isEqualTo(1);
        assertThat(read().session().history()).isEqualTo(all.subList(1, 5));
        assertThat(service.readHistory("s1").fullHistory()).isEqualTo(all);
    }

    @Test
    void compactHistory_keepNone_archivesTheWholeTranscript() {
        List<ChatMessage> all = messages(0, 4);
        LeaseClaim claim = sessionWith(all);
        Compacted compacted = service.compactHistory(claim, 0, new RecordingSummarizer()).orElseThrow();
        assertThat(compacted.archive().messageCount()).isEqualTo(4);
        assertThat(read().session().history()).isEmpty();
        assertThat(service.readHistory("s1").fullHistory()).isEqualTo(all);
        assertThat(service.compactHistory(claim, 0, new RecordingSummarizer())).isEmpty();
    }

    @Test
    void compactHistory_nothingToCompact_writesNothing() {
        LeaseClaim claim = sessionWith(messages(0, 3));
        StoredSession before = read();
        RecordingSummarizer summarizer = new RecordingSummarizer();
        assertThat(service.compactHistory(claim, 3, summarizer)).isEmpty();
        assertThat(service.compactHistory(claim, 10, summarizer)).isEmpty();
        assertThat(summarizer.compacted).isEmpty();
        assertThat(read()).isEqualTo(before);
        assertThat(store.archives().orElseThrow().loadManifest("s1").archives()).isEmpty();
    }

    @Test
    void compactHistory_staleClaim_throwsLeaseLostBeforeArchiving() {
        LeaseClaim mine = sessionWith(messages(0, 10));
        clock.advance(SessionService.STALE_AFTER);
        service.acquireLease("s1", daemon);
        StoredSession before = read();
        RecordingSummarizer summarizer = new RecordingSummarizer();

        assertThatThrownBy(() -> service.compactHistory(mine, 4, summarizer)).isInstanceOf(LeaseLostException.class);
        assertThat(summarizer.compacted).isEmpty();
        assertThat(store.archives().orElseThrow().loadManifest("s1").archives()).isEmpty();
        assertThat(read()).isEqualTo(before);
    }

    @Test
    void compactHistory_transcriptResetWhileSummarizing_conflictsAndKeepsTheReset() {
        LeaseClaim claim = sessionWith(messages(0, 10));
        assertThatThrownBy(() -> service.compactHistory(claim, 4, (previous, compacted) -> {
            engine().resetConversation("s1");
            return Summarizer.Summary.of("of a transcript that is gone");
        })).isInstanceOf(RevisionConflictException.class);
        assertThat(read().session().history()).isEmpty();
        assertThat(read().session().archives()).isEmpty();
        assertThat(service.readHistory("s1").fullHistory()).isEmpty();
    }

    @Test
    void secondEngine_continuesFromRecordPlusArchive() {
        LeaseClaim first = sessionWith(List.of());
        for (int i = 1; i <= 5; i++) {
            service.applyCompletedTurn(first, TurnCompletionTest.turn("t" + i));
        }
        List<ChatMessage> before = read().session().history();
        service.compactHistory(first, 2, new RecordingSummarizer());
        service.releaseLease(first);

        SessionService second = engine();
        SessionHistory resumed = second.readHistory("s1");
        assertThat(resumed.fullHistory()).isEqualTo(before);
        assertThat(resumed.rollingSummary()).isEqualTo("summary 1");
        assertThat(resumed.stored().session().turns()).hasSize(5);

        LeaseClaim claim = second.acquireLease("s1", daemon);
        assertThat(claim.fencingToken()).isGreaterThan(first.fencingToken());
        second.applyCompletedTurn(claim, TurnCompletionTest.turn("t6"));
        RecordingSummarizer summarizer = new RecordingSummarizer();
        second.compactHistory(claim, 2, summarizer);

        assertThat(summarizer.previous).as("the rolling summary continues from the first engine's")
                .containsExactly("summary 1");
        List<ChatMessage> expected = new ArrayList<>(before);
        expected.addAll(TurnCompletionTest.turn("t6").messages());
        SessionHistory history = service.readHistory("s1");
        assertThat(history.fullHistory()).isEqualTo(expected);
        assertThat(history.archives()).hasSize(2);
        assertThat(history.stored().session().turns()).hasSize(6);
    }

    @Test
    void readHistory_recordPointsAtASummaryTheArchiveLacks_failsAsCorrupt() {
        LeaseClaim claim = sessionWith(messages(0, 6));
        service.compactHistory(claim, 2, new RecordingSummarizer());
        ArchiveRecord pointer = read().session().archives().get(0);
        service.update("s1", s -> s.toBuilder()
                .archives(List.of(pointer.withLocators(pointer.path(), pointer.summaryPath() + "-missing"))).build());

        assertThatThrownBy(() -> service.readHistory("s1")).isInstanceOf(StorageCorruptionException.class)
                .hasMessageContaining("summary");
        assertThatThrownBy(() -> service.compactHistory(claim, 0, new RecordingSummarizer()))
                .isInstanceOf(StorageCorruptionException.class);
    }
}
