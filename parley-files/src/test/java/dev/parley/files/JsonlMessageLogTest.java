package dev.parley.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.StoreOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the file format adds to the kit: torn tails, unfinished batches, damaged lines, other writers, truncation. */
class JsonlMessageLogTest {
    static final SessionId S = new SessionId("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    static final AgentId A = AgentId.MAIN;

    @TempDir
    Path dir;

    JsonlStore open() {
        return JsonlStore.open(dir, StoreOptions.defaults());
    }

    static NewEntry entry(String id, String parent, String text) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), null, Message.user(text));
    }

    @Test
    void append_writesHeaderThenOneLinePerEntry() throws IOException {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("a", null, "one"), entry("b", "a", "two")));
        }
        List<String> lines = Files.readAllLines(dir.resolve(S.value() + ".jsonl"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("{\"type\":\"session\",\"version\":1,\"id\":\"" + S.value() + "\"");
        assertThat(lines.get(1)).contains("\"id\":\"a\"").contains("\"more\":true");
        assertThat(lines.get(2)).contains("\"id\":\"b\"").doesNotContain("\"more\"");
    }

    @Test
    void tornLastLine_isIgnoredOnReadAndSetAsideOnNextAppend() throws IOException {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("a", null, "kept")));
        }
        Path file = dir.resolve(S.value() + ".jsonl");
        String torn = "{\"type\":\"entry\",\"seq\":2,\"id\":\"b\",\"paren";
        Files.writeString(file, torn, StandardOpenOption.APPEND);
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            assertThat(log.load(S, null)).extracting(e -> e.id().value()).containsExactly("a");
            log.append(S, A, List.of(entry("c", "a", "after the crash")));
            assertThat(log.load(S, null)).extracting(e -> e.id().value()).containsExactly("a", "c");
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3).allSatisfy(l -> assertThat(l).startsWith("{\"type\":"));
        try (Stream<Path> files = Files.list(dir)) {
            Path sidecar = files.filter(p -> p.getFileName().toString().contains(".torn-")).findFirst().orElseThrow();
            assertThat(Files.readString(sidecar)).isEqualTo(torn);
        }
    }

    @Test
    void unfinishedBatch_isIgnoredWhole() throws IOException {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("a", null, "kept")));
            log.append(S, A, List.of(entry("b", "a", "1"), entry("c", "b", "2"), entry("d", "c", "3")));
        }
        Path file = dir.resolve(S.value() + ".jsonl");
        List<String> lines = Files.readAllLines(file);
        // A crash after two of the three lines of the batch reached the file.
        Files.writeString(file, String.join("\n", lines.subList(0, 4)) + "\n");
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            assertThat(log.load(S, null)).extracting(e -> e.id().value()).containsExactly("a");
            Entry next = log.append(S, A, List.of(entry("b", "a", "retried"))).get(0);
            assertThat(next.seq()).isEqualTo(2);
        }
    }

    @Test
    void corruptLineInTheMiddle_failsTheReadNamingFileAndLine() throws IOException {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("a", null, "1")));
            log.append(S, A, List.of(entry("b", "a", "2")));
            log.append(S, A, List.of(entry("c", "b", "3")));
        }
        Path file = dir.resolve(S.value() + ".jsonl");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(file));
        lines.set(2, "{\"type\":\"entry\", not json");
        Files.write(file, lines, StandardCharsets.UTF_8);
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            assertThatThrownBy(() -> log.load(S, null))
                    .isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining(file + ":3");
            assertThatThrownBy(() -> log.append(S, A, List.of(entry("d", "c", "4"))))
                    .isInstanceOf(CorruptRecordException.class);
        }
        assertThat(Files.readAllLines(file)).hasSize(4);
    }

    /**
     * A number beyond BigDecimal's exponent made Jackson throw an unchecked NumberFormatException, which a load passed
     * on as it was instead of naming the file and line.
     */
    @Test
    void lineWithANumberBeyondBigDecimal_failsTheReadAsCorruptNamingFileAndLine() throws IOException {
        Path file = threeEntries();
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(file));
        lines.set(2, lines.get(2).replaceFirst("\\{", "{\"x\":1e9999999999,"));
        Files.write(file, lines, StandardCharsets.UTF_8);
        try (JsonlStore store = open()) {
            assertThatThrownBy(() -> store.log().load(S, null))
                    .isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining(file + ":3")
                    .hasMessageContaining("malformed number");
        }
    }

    /**
     * An entry line is read in one pass when it has the common shape; a line whose envelope repeats its type (the
     * tree keeps the last value: a usage line without usage) must still be refused, not read as the entry it holds.
     */
    @Test
    void entryLineThatRepeatsItsType_isReadAsTheLastTypeSays() throws IOException {
        Path file = threeEntries();
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(file));
        assertThat(lines.get(2)).startsWith("{\"type\":\"entry\",");
        lines.set(2, lines.get(2).replaceFirst("\\}$", ",\"type\":\"usage\"}"));
        Files.write(file, lines, StandardCharsets.UTF_8);
        try (JsonlStore store = open()) {
            assertThatThrownBy(() -> store.log().load(S, null))
                    .isInstanceOf(CorruptRecordException.class)
                    .hasMessageContaining(file + ":3");
        }
    }

    /** A session of three single-entry lines after its header: the file. */
    private Path threeEntries() {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("a", null, "1")));
            log.append(S, A, List.of(entry("b", "a", "2")));
            log.append(S, A, List.of(entry("c", "b", "3")));
        }
        return dir.resolve(S.value() + ".jsonl");
    }

    @Test
    void appendFromAnotherInstance_isSeenByTheIndexWithoutRereadingEverything() {
        try (JsonlStore one = open(); JsonlStore two = open()) {
            MessageLog first = one.log();
            MessageLog second = two.log();
            first.append(S, A, List.of(entry("a", null, "1")));
            assertThat(second.lastEntry(S, A)).map(e -> e.id().value()).contains("a");
            first.append(S, A, List.of(entry("b", "a", "2")));
            assertThat(second.lastEntry(S, A)).map(e -> e.id().value()).contains("b");
            first.truncateAfter(S, new EntryId("a"));
            assertThat(second.lastEntry(S, A)).map(e -> e.id().value()).contains("a");
            Entry c = second.append(S, A, List.of(entry("c", "a", "3"))).get(0);
            assertThat(c.seq()).as("seqs are not reused after truncation").isEqualTo(3);
        }
    }

    static List<String> ids(List<Entry> entries) {
        return entries.stream().map(e -> e.id().value()).toList();
    }

    @Test
    void truncateAfter_insideABatchKeepsWhatPrecedesTheCutAndEndsTheBatch() {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("e1", null, "one"), entry("e2", "e1", "two"), entry("e3", "e2", "three")));
            log.truncateAfter(S, new EntryId("e1"));
            assertThat(ids(log.load(S, null))).containsExactly("e1");
            Entry next = log.append(S, A, List.of(entry("e4", "e1", "four"))).get(0);
            assertThat(next.seq()).as("seqs are never reused").isEqualTo(4);
        }
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            assertThat(ids(log.load(S, null))).containsExactly("e1", "e4");
        }
    }

    @Test
    void append_afterAnotherInstanceTruncatedReadsTheFileAfresh() throws IOException {
        // A truncation followed by usage records can leave, at the very offset a stale index remembers, a line identical
        // to the one it remembers; for some length of e2's text it does. The index must still be known stale.
        for (int length = 1; length < 200; length++) {
            Path d = Files.createDirectory(dir.resolve("l" + length));
            try (JsonlStore one = JsonlStore.open(d, StoreOptions.defaults());
                 JsonlStore two = JsonlStore.open(d, StoreOptions.defaults())) {
                MessageLog a = one.log();
                MessageLog b = two.log();
                b.append(S, A, List.of(entry("e1", null, "one")));
                b.append(S, A, List.of(entry("e2", "e1", "x".repeat(length))));
                b.persistUsage(S, A, new dev.parley.core.model.Usage(5, 0, 0, 0, 0, null));
                a.append(S, A, List.of(entry("e3", "e2", "three")));
                a.truncateAfter(S, new EntryId("e1"));
                for (int i = 0; i < 10; i++) {
                    a.persistUsage(S, A, new dev.parley.core.model.Usage(5, 0, 0, 0, 0, null));
                }
                assertThatThrownBy(() -> b.append(S, A, List.of(entry("e4", "e2", "four")))).as("length %d", length)
                        .isInstanceOf(dev.parley.core.InvalidInputException.class).hasMessageContaining("e2");
                b.append(S, A, List.of(entry("e4", "e1", "four")));
                assertThat(ids(a.load(S, null))).containsExactly("e1", "e4");
                assertThat(a.load(S, null).get(1).seq()).as("seqs are never reused").isEqualTo(4);
                assertThat(a.loadUsage(S, A).inputTokens()).isEqualTo(55);
            }
        }
    }

    @Test
    void truncateAfter_missingSessionCreatesNothing() {
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            assertThatThrownBy(() -> log.truncateAfter(S, new EntryId("e1")))
                    .isInstanceOf(dev.parley.core.NotFoundException.class);
            assertThat(store.catalog().orElseThrow().find(S)).isEmpty();
        }
        assertThat(dir.resolve(S.value() + ".jsonl")).doesNotExist();
    }

    @Test
    void findByPrefix_skipsAnEmptyFile() throws IOException {
        Files.createFile(dir.resolve("0199a1b2-ghost.jsonl"));
        try (JsonlStore store = open()) {
            MessageLog log = store.log();
            log.append(S, A, List.of(entry("e1", null, "one")));
            assertThat(store.catalog().orElseThrow().findByPrefix("0199a1b2", 5)).containsExactly(S);
        }
    }

    @Test
    void list_neverServesADeletedSessionsTitle() {
        try (JsonlStore one = open(); JsonlStore two = open()) {
            SessionCatalog a = one.catalog().orElseThrow();
            SessionCatalog b = two.catalog().orElseThrow();
            for (int i = 0; i < 300; i++) {
                String title = "title-" + (char) ('a' + i % 26);
                a.delete(S);
                a.create(new dev.parley.core.log.NewSession(S, title, null, java.util.Map.of()));
                assertThat(b.list(null, 10).sessions()).as("round %d", i)
                        .extracting(dev.parley.core.log.SessionInfo::title).containsExactly(title);
            }
        }
    }

    /**
     * loadAfter answers from the session's index of lines: what another instance (another process) appended or cut
     * since is seen, and a window read after a truncation holds no entry that was cut.
     */
    @Test
    void loadAfter_seesWhatAnotherInstanceAppendedAndCut() {
        try (JsonlStore mine = open(); JsonlStore other = open()) {
            mine.log().append(S, A, List.of(entry("a", null, "one"), entry("b", "a", "two"), entry("c", "b", "three")));
            assertThat(mine.log().loadAfter(S, 1, 10)).extracting(e -> e.id().value()).containsExactly("b", "c");

            other.log().append(S, A, List.of(entry("d", "c", "four")));
            assertThat(mine.log().loadAfter(S, 2, 2)).extracting(e -> e.id().value()).containsExactly("c", "d");

            other.log().truncateAfter(S, new EntryId("a"));
            other.log().append(S, A, List.of(entry("e", "a", "five")));
            List<Entry> window = mine.log().loadAfter(S, 0, 10);
            assertThat(window).extracting(e -> e.id().value()).containsExactly("a", "e");
            assertThat(window.get(1).seq()).isEqualTo(5); // seqs are never reused
            assertThat(mine.log().loadAfter(S, 4, 10)).extracting(e -> e.id().value()).containsExactly("e");
            assertThat(mine.log().loadAfter(S, 5, 10)).isEmpty();
        }
    }

    // ---- seqs after a deletion (the kit's ML-19 checks the plain case on every backend) ----

    /**
     * Found by a break-it pass: a session deleted and created again under its id started its seqs over at 1, so a
     * reader following it by seq (the server's event stream with Last-Event-ID 3) missed its first three entries. A
     * damaged session is deleted all the same, and the seqs its lines name still bound the next ones.
     */
    @Test
    void delete_ofADamagedSession_stillKeepsItsSeqsFromBeingReused() throws IOException {
        try (JsonlStore store = open()) {
            store.log().append(S, A, List.of(entry("a", null, "one"), entry("b", "a", "two"), entry("c", "b", "3")));
        }
        Path file = dir.resolve(S.value() + ".jsonl");
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(file));
        lines.set(3, "{broken"); // the line of seq 3: no readable line names it
        Files.write(file, lines);
        try (JsonlStore store = open()) {
            assertThatThrownBy(() -> store.log().load(S, null)).isInstanceOf(CorruptRecordException.class);
            assertThat(store.catalog().orElseThrow().delete(S)).isTrue();
            assertThat(Files.readString(dir.resolve(S.value() + ".jsonl.deleted")))
                    .startsWith("{\"type\":\"deleted\",\"id\":\"" + S.value() + "\",\"highWater\":");
            assertThat(store.log().append(S, A, List.of(entry("d", null, "again"))).get(0).seq())
                    .isGreaterThan(3);
        }
    }

    /**
     * From a review: a damaged tombstone is read only by a session with no entry yet (whose first seq it decides); a
     * session with entries goes on, and deleting it replaces the tombstone.
     */
    @Test
    void aDamagedTombstone_doesNotStopASessionWithEntries_andItsDeletionReplacesIt() throws IOException {
        try (JsonlStore store = open()) {
            store.log().append(S, A, List.of(entry("a", null, "one")));
            store.catalog().orElseThrow().delete(S);
            store.log().append(S, A, List.of(entry("b", null, "two")));
        }
        Path tombstone = dir.resolve(S.value() + ".jsonl.deleted");
        Files.writeString(tombstone, "{damaged \"highWater\":9");
        try (JsonlStore store = open()) {
            assertThat(store.log().append(S, A, List.of(entry("c", "b", "three"))).get(0).seq()).isEqualTo(3);
            store.catalog().orElseThrow().delete(S);
            assertThat(Files.readString(tombstone)).contains("\"highWater\":9"); // the damaged one's 9 kept
            assertThat(store.log().append(S, A, List.of(entry("d", null, "four"))).get(0).seq()).isEqualTo(10);
        }
    }

    @Test
    void aDamagedTombstone_failsTheNextAppendNamingIt_andWritesNothing() throws IOException {
        try (JsonlStore store = open()) {
            store.log().append(S, A, List.of(entry("a", null, "one")));
            store.catalog().orElseThrow().delete(S);
        }
        Path tombstone = dir.resolve(S.value() + ".jsonl.deleted");
        Files.writeString(tombstone, "{\"type\":\"deleted\",\"id\":\"other\",\"highWater\":1}\n");
        try (JsonlStore store = open()) {
            assertThatThrownBy(() -> store.log().append(S, A, List.of(entry("b", null, "two"))))
                    .isInstanceOf(CorruptRecordException.class).hasMessageContaining(tombstone.toString());
            assertThat(store.log().load(S, null)).isEmpty();
        }
    }

    @Test
    void deleteScope_removesTheTombstones_andASessionCreatedAgainStartsOver() throws IOException {
        try (JsonlStore store = open()) {
            store.log().append(S, A, List.of(entry("a", null, "one"), entry("b", "a", "two")));
            store.catalog().orElseThrow().delete(S);
            assertThat(dir.resolve(S.value() + ".jsonl.deleted")).exists();
            assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
            store.log().append(S, A, List.of(entry("c", null, "three")));
            store.deleteScope();
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(S.value()));
            }
            assertThat(store.log().append(S, A, List.of(entry("d", null, "four"))).get(0).seq())
                    .isEqualTo(1);
        }
    }
}
