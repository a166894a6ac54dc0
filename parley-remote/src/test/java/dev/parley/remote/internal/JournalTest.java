package dev.parley.remote.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.json.Json;
import dev.parley.json.wire.Wire;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay journal on its own: what {@link Journal#pending} reads as the file changes under it (from this instance,
 * another instance standing for another process, an earlier version's file, a torn line), and which replayed writes
 * may be sent again.
 */
class JournalTest {
    private static final IdGenerator IDS = IdGenerator.uuidV7();

    @TempDir
    Path dir;

    private static Request append(String text) {
        return new Request("POST", "/v1/log/sessions/s/agents/main/entries", Map.of(), Wire.encodeBatch(AgentId.MAIN,
                List.of(NewEntry.of(IDS.newEntryId(), null, Instant.now(), Message.user(text))), Usage.ZERO));
    }

    /** The texts of the writes {@code journal} holds pending, in order, as it reads them under its lock. */
    private static List<String> texts(Journal journal) {
        return journal.locked(() -> journal.pending().stream().map(journal::op).map(op -> op.request().body()
                .path("entries").path(0).path("message").path("content").asText()).toList());
    }

    private static void replayAllAndEmpty(Journal journal) {
        journal.locked(() -> {
            journal.pending().forEach(line -> journal.done(journal.op(line)));
            journal.compact();
            return null;
        });
    }

    private static List<String> record(Journal journal, String prefix, int n) {
        List<String> written = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            written.add(prefix + i);
            journal.record(null, "append", append(prefix + i));
        }
        return written;
    }

    /**
     * The fault: every call during an outage read and parsed the whole journal to find its first pending write, so a
     * call cost in proportion to the writes that had fallen back (16 ms each from the 3,000th to the 4,000th, against
     * 1.1–1.5 ms now).
     */
    @Test
    void pending_readsOnlyTheLinesWrittenSinceItLastRead() {
        Journal journal = new Journal(dir.resolve("journal.jsonl"));
        List<String> written = record(journal, "w", 200);
        journal.locked(journal::pending);
        long parsed = journal.linesParsed();

        written.addAll(record(journal, "x", 1));
        journal.locked(journal::pending);

        assertThat(journal.linesParsed() - parsed).isEqualTo(1);
        assertThat(texts(journal)).isEqualTo(written);
    }

    @Test
    void pending_afterAnotherProcessReplayedEmptiedAndBeganTheJournalAgain_holdsOnlyTheNewWrites() {
        Path file = dir.resolve("journal.jsonl");
        Journal here = new Journal(file);
        Journal there = new Journal(file); // its own view of the file, as another process has
        record(here, "old", 3);
        assertThat(here.locked(here::pendingCount)).isEqualTo(3);

        replayAllAndEmpty(there);
        List<String> renewed = record(there, "a much longer text than the writes before it had, to pass their end ", 6);

        assertThat(texts(here)).isEqualTo(renewed);
    }

    @Test
    void pending_ofAJournalWithoutAGenerationLine_rereadsItWholeAfterItWasRewritten() throws Exception {
        Path file = dir.resolve("journal.jsonl");
        Journal writer = new Journal(file);
        record(writer, "old", 3);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).startsWith("{\"journal\":");
        Files.write(file, lines.subList(1, lines.size()), StandardCharsets.UTF_8); // as an earlier version wrote it
        Journal reader = new Journal(file);
        assertThat(texts(reader)).containsExactly("old0", "old1", "old2");

        // emptied and begun again by an earlier version, to beyond the length this reader had read
        Files.write(file, List.of(), StandardCharsets.UTF_8);
        List<String> renewed = new ArrayList<>();
        List<String> newLines = new ArrayList<>();
        Journal scratch = new Journal(dir.resolve("scratch.jsonl"));
        renewed.addAll(record(scratch, "rewritten by an earlier version, longer than what was there ", 4));
        List<String> scratchLines = Files.readAllLines(dir.resolve("scratch.jsonl"), StandardCharsets.UTF_8);
        newLines.addAll(scratchLines.subList(1, scratchLines.size()));
        Files.write(file, newLines, StandardCharsets.UTF_8);

        assertThat(texts(reader)).isEqualTo(renewed);
    }

    @Test
    void pending_withATornLastLine_leavesIt_andSkipsItOnceTheNextWriteCompletesIt() throws Exception {
        Path file = dir.resolve("journal.jsonl");
        Journal journal = new Journal(file);
        List<String> written = record(journal, "w", 2);
        Files.writeString(file, "{\"id\":\"torn\",\"request\":{\"met", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertThat(texts(journal)).isEqualTo(written);
        written.addAll(record(journal, "after", 1));
        assertThat(texts(journal)).isEqualTo(written);
        assertThat(texts(new Journal(file))).isEqualTo(written);
    }

    /**
     * Three instances on one file (three processes sharing a journal) record, settle, empty and begin it again in a
     * random order, among torn lines and rewrites by an earlier version that writes no generation line; after every
     * step each instance's pending writes are what a fresh read of the file finds.
     */
    @Test
    void pending_ofThreeInstancesChangingOneFileAtRandom_isAlwaysWhatAFreshReadFinds() throws Exception {
        for (long seed = 0; seed < 100; seed++) {
            Random random = new Random(seed);
            Path file = dir.resolve("journal-" + seed + ".jsonl");
            List<Journal> journals = List.of(new Journal(file), new Journal(file), new Journal(file));
            for (int step = 0; step < 60; step++) {
                Journal journal = journals.get(random.nextInt(journals.size()));
                int kind = random.nextInt(10);
                if (kind < 4) {
                    journal.record(null, "append", append("w" + step + "x".repeat(random.nextInt(50))));
                } else if (kind < 6) {
                    journal.locked(() -> {
                        List<Journal.Line> pending = journal.pending();
                        if (!pending.isEmpty()) {
                            journal.done(journal.op(pending.get(random.nextInt(pending.size()))));
                        }
                        return null;
                    });
                } else if (kind < 7) {
                    replayAllAndEmpty(journal);
                } else if (kind < 8) {
                    Files.writeString(file, "{\"id\":\"torn" + step, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                } else if (kind < 9) { // an earlier version empties the file and writes the pending lines again
                    List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
                    Files.write(file, lines.stream().filter(l -> !l.startsWith("{\"journal\"")).toList());
                } else {
                    journal.locked(() -> {
                        journal.flush();
                        return null;
                    });
                }
                List<String> expected = texts(new Journal(file));
                for (Journal each : journals) {
                    assertThat(texts(each)).as("seed %d, step %d", seed, step).isEqualTo(expected);
                }
            }
        }
    }

    /** The done marks of replayed appends are fsynced together, but never more than {@value Journal#FLUSH_EVERY}. */
    @Test
    void doneMarksOfAppends_waitForAFlush_atMostFlushEveryOfThem_andAnyOtherMarkFlushesThem() {
        Journal journal = new Journal(dir.resolve("journal.jsonl"));
        record(journal, "w", Journal.FLUSH_EVERY + 1);
        journal.record(null, "truncateAfter", new Request("POST", "/v1/log/sessions/s/truncate", Map.of(), null));
        journal.locked(() -> {
            List<Journal.Line> pending = journal.pending();
            for (int i = 0; i < Journal.FLUSH_EVERY - 1; i++) {
                journal.done(journal.op(pending.get(i)));
            }
            assertThat(journal.unsyncedMarks()).isEqualTo(Journal.FLUSH_EVERY - 1);
            journal.done(journal.op(pending.get(Journal.FLUSH_EVERY - 1)));
            assertThat(journal.unsyncedMarks()).isZero();
            journal.done(journal.op(pending.get(Journal.FLUSH_EVERY)));
            assertThat(journal.unsyncedMarks()).isEqualTo(1);
            journal.done(journal.op(pending.get(Journal.FLUSH_EVERY + 1))); // the truncateAfter
            assertThat(journal.unsyncedMarks()).isZero();
            return null;
        });
    }

    @Test
    void idempotent_onlyForAnAppendThatCarriesEntries() {
        Request usageOnly = new Request("POST", "/v1/log/sessions/s/agents/main/entries", Map.of(),
                Wire.encodeBatch(AgentId.MAIN, List.of(), Usage.of(3, 4)));
        Request truncate = new Request("POST", "/v1/log/sessions/s/truncate", Map.of(),
                Json.object().put("afterEntry", IDS.newEntryId().value()));

        assertThat(new Journal.Op("1", null, "append", append("x")).idempotent()).isTrue();
        assertThat(new Journal.Op("2", null, "append", usageOnly).idempotent()).isFalse();
        assertThat(new Journal.Op("3", null, "truncateAfter", truncate).idempotent()).isFalse();
        assertThat(new Journal.Op("4", null, "delete", new Request("DELETE", "/v1/log/sessions/s", Map.of(), null))
                .idempotent()).isFalse();
    }
}
