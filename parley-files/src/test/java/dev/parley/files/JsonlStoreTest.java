package dev.parley.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.AgentId;
import dev.parley.core.EntryConflictException;
import dev.parley.core.EntryId;
import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.MessageLog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import dev.parley.files.internal.FileRepositories;
import dev.parley.tck.Fixtures;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the store adds to the log: scopes on disk, usage inside its batch, files from before both, closing. */
class JsonlStoreTest {
    static final SessionId S = new SessionId("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    static final AgentId A = AgentId.MAIN;
    static final AgentId W = new AgentId("worker-1");
    static final Instant T = Instant.parse("2026-03-02T09:00:01.120Z");

    @TempDir
    Path dir;

    static NewEntry user(String id, String parent, String text) {
        return NewEntry.of(new EntryId(id), parent == null ? null : new EntryId(parent), T, Message.user(text));
    }

    static NewEntry assistant(String id, String parent, String text) {
        return NewEntry.of(new EntryId(id), new EntryId(parent), T, Message.builder(Role.ASSISTANT).plainText(text).build());
    }

    static List<String> ids(List<Entry> entries) {
        return entries.stream().map(e -> e.id().value()).toList();
    }

    Path fileOf(Path logDir) {
        return logDir.resolve(S.value() + ".jsonl");
    }

    // ---- files written before scopes and batched usage ----

    /** The lines a store wrote before usage joined its batch: standalone usage lines, a truncation marker. */
    static final String PREVIOUS_FORMAT = String.join("\n",
            "{\"type\":\"session\",\"version\":1,\"id\":\"" + S.value() + "\",\"createdAt\":\"2026-03-02T09:00:01.120Z\","
                    + "\"title\":\"before scopes\"}",
            "{\"type\":\"entry\",\"seq\":1,\"id\":\"e1\",\"parentId\":null,\"agent\":\"main\",\"timestamp\":"
                    + "\"2026-03-02T09:00:01.120Z\",\"kind\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"hello\"},"
                    + "\"more\":true}",
            "{\"type\":\"entry\",\"seq\":2,\"id\":\"e2\",\"parentId\":\"e1\",\"agent\":\"main\",\"timestamp\":"
                    + "\"2026-03-02T09:00:01.120Z\",\"kind\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}",
            "{\"type\":\"usage\",\"agent\":\"main\",\"usage\":{\"input\":30,\"output\":4}}",
            "{\"type\":\"truncate\",\"after\":\"e2\",\"highWater\":4}",
            "{\"type\":\"usage\",\"agent\":\"main\",\"usage\":{\"input\":5,\"output\":1}}",
            "{\"type\":\"entry\",\"seq\":5,\"id\":\"w1\",\"parentId\":null,\"agent\":\"worker-1\",\"timestamp\":"
                    + "\"2026-03-02T09:00:01.120Z\",\"kind\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"task\"}}",
            "{\"type\":\"usage\",\"agent\":\"worker-1\",\"usage\":{\"input\":7,\"output\":8}}") + "\n";

    @Test
    void open_readsAStoreDirectoryWrittenBeforeScopesAndBatchedUsage() throws IOException {
        Files.writeString(fileOf(dir), PREVIOUS_FORMAT);
        // Records as the JSON file store has always laid them out, in DIR/records/<scope>/.
        new FileRepositories(dir.resolve("records")).sessions("default").create(Fixtures.session("record-1"));
        new FileRepositories(dir.resolve("records")).sessions("tenant-a").create(Fixtures.session("record-a"));

        try (Store store = Stores.open("jsonl:" + dir)) {
            MessageLog log = store.log();
            assertThat(log.load(S, null)).extracting(e -> e.id().value() + "@" + e.seq())
                    .containsExactly("e1@1", "e2@2", "w1@5");
            assertThat(log.loadUsage(S, A)).isEqualTo(Usage.of(35, 5));
            assertThat(log.loadUsage(S, W)).isEqualTo(Usage.of(7, 8));
            assertThat(store.catalog().orElseThrow().find(S)).map(SessionInfo::title).contains("before scopes");
            assertThat(store.sessions().orElseThrow().read("record-1")).isPresent();
            assertThat(store.withScope("tenant-a").sessions().orElseThrow().read("record-a")).isPresent();
            assertThat(store.withScope("tenant-a").sessions().orElseThrow().read("record-1")).isEmpty();

            AppendResult retry = log.append(S, A, List.of(assistant("e2", "e1", "hi")), Usage.of(1, 1));
            assertThat(retry.written()).as("an entry of the old file is recognised").isZero();
            AppendResult next = log.append(S, A, List.of(user("e3", "e2", "more")), Usage.of(2, 2));
            assertThat(next.entries().get(0).seq()).as("seqs go on after the old high-water mark").isEqualTo(6);
        }
        try (Store store = Stores.open("jsonl:" + dir)) {
            assertThat(ids(store.log().load(S, null))).containsExactly("e1", "e2", "w1", "e3");
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(37, 7));
        }
        assertThat(Files.readString(fileOf(dir))).as("the old lines are kept as they were").startsWith(PREVIOUS_FORMAT);
    }

    // ---- usage in its batch ----

    @Test
    void append_writesTheUsageAsTheLastLineOfItsBatch() throws IOException {
        try (JsonlStore store = JsonlStore.open(dir)) {
            store.log().append(S, A, List.of(user("e1", null, "hello"), assistant("e2", "e1", "hi")), Usage.of(30, 4));
            store.log().append(S, A, List.of(user("e3", "e2", "no cost")), Usage.ZERO);
            store.log().persistUsage(S, W, Usage.of(1, 2));
        }
        List<String> lines = Files.readAllLines(fileOf(dir));
        assertThat(lines).hasSize(6);
        assertThat(lines.get(1)).startsWith("{\"type\":\"entry\",\"seq\":1,").endsWith(",\"more\":true}");
        assertThat(lines.get(2)).startsWith("{\"type\":\"entry\",\"seq\":2,").endsWith(",\"more\":true}");
        assertThat(lines.get(3)).isEqualTo("{\"type\":\"usage\",\"agent\":\"main\",\"usage\":{\"input\":30,\"output\":4}}");
        assertThat(lines.get(4)).startsWith("{\"type\":\"entry\",\"seq\":3,").doesNotContain("\"more\"");
        assertThat(lines.get(5)).isEqualTo("{\"type\":\"usage\",\"agent\":\"worker-1\",\"usage\":{\"input\":1,\"output\":2}}");
    }

    @Test
    void append_cutShortAnywhereInItsBatchKeepsNeitherTheEntriesNorTheUsage() throws IOException {
        List<NewEntry> batch = List.of(user("e1", null, "hello"), assistant("e2", "e1", "hi"));
        long batchStart;
        try (JsonlStore store = JsonlStore.open(dir)) {
            store.catalog().orElseThrow().create(dev.parley.core.log.NewSession.of(S));
            batchStart = Files.size(fileOf(dir));
            store.log().append(S, A, batch, Usage.of(30, 4));
        }
        Path file = fileOf(dir);
        long end = Files.size(file);
        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThat(store.log().load(S, null)).hasSize(2);
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(30, 4));
        }
        // A crash may leave any prefix of the batch's one write: every line but the usage line included. (Only the
        // final newline missing leaves the whole batch: see finalNewlineRemovedByHand_keepsTheLastBatch.)
        for (long cut = end - 2; cut >= batchStart; cut--) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(cut);
            }
            try (JsonlStore store = JsonlStore.open(dir)) {
                assertThat(store.log().load(S, null)).as("entries after a cut at %d", cut).isEmpty();
                assertThat(store.log().loadUsage(S, A)).as("usage after a cut at %d", cut).isEqualTo(Usage.ZERO);
                assertThat(store.catalog().orElseThrow().find(S)).map(SessionInfo::entryCount).contains(0L);
            }
        }
        try (JsonlStore store = JsonlStore.open(dir)) {
            AppendResult again = store.log().append(S, A, batch, Usage.of(30, 4));
            assertThat(again.written()).isEqualTo(2);
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(30, 4));
        }
    }

    /** Appends one batch through a store opened and closed for it; the session's file. */
    Path appendInOneStore(List<NewEntry> batch, Usage usage) {
        try (JsonlStore store = JsonlStore.open(dir)) {
            store.log().append(S, A, batch, usage);
        }
        return fileOf(dir);
    }

    /** Issue 14, break 9: removing a file's final newline by hand made its whole last batch vanish. */
    @Test
    void finalNewlineRemovedByHand_keepsTheLastBatch() throws IOException {
        List<NewEntry> batch = List.of(user("e1", null, "hello"), assistant("e2", "e1", "hi"));
        Path file = appendInOneStore(batch, Usage.of(30, 4));
        String whole = Files.readString(file);
        Files.writeString(file, whole.substring(0, whole.length() - 1));

        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThat(ids(store.log().load(S, null))).containsExactly("e1", "e2");
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(30, 4));
            assertThat(store.catalog().orElseThrow().find(S)).map(SessionInfo::entryCount).contains(2L);
            AppendResult retry = store.log().append(S, A, batch, Usage.of(30, 4));
            assertThat(retry.written()).as("the batch is recognised as stored").isZero();
            store.log().append(S, A, List.of(user("e3", "e2", "next")), Usage.ZERO);
        }
        assertThat(Files.readString(file)).as("the next append ended the line first").isEqualTo(whole
                + Files.readAllLines(file).get(4) + "\n");
        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThat(ids(store.log().load(S, null))).containsExactly("e1", "e2", "e3");
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(p -> p.getFileName().toString().contains(".torn-"))).as("nothing set aside").isEmpty();
        }
    }

    /** A last line without its newline that is not a whole record is still a torn tail: the open batch is dropped. */
    @Test
    void finalNewlineMissingInsideAnOpenBatch_dropsTheBatch() throws IOException {
        Path file = appendInOneStore(List.of(user("e1", null, "hello"), assistant("e2", "e1", "hi")), Usage.of(30, 4));
        List<String> lines = Files.readAllLines(file);
        // The header and the first entry (with "more":true), its newline gone: a whole line, but the batch is open.
        Files.writeString(file, lines.get(0) + "\n" + lines.get(1));

        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThat(store.log().load(S, null)).isEmpty();
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.ZERO);
        }
    }

    @Test
    void append_cutJustBeforeItsUsageLineIsIgnoredWholeAndSetAsideByTheRetry() throws IOException {
        List<NewEntry> batch = List.of(user("e1", null, "hello"), assistant("e2", "e1", "hi"));
        Path file = appendInOneStore(batch, Usage.of(30, 4));
        List<String> lines = Files.readAllLines(file);
        String withoutUsage = String.join("\n", lines.subList(0, 3)) + "\n";
        Files.writeString(file, withoutUsage);

        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThat(store.log().load(S, null)).isEmpty();
            AppendResult retried = store.log().append(S, A, batch, Usage.of(30, 4));
            assertThat(retried.written()).isEqualTo(2);
            assertThat(retried.entries()).extracting(Entry::seq).containsExactly(1L, 2L);
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(30, 4));
        }
        try (Stream<Path> files = Files.list(dir)) {
            Path sidecar = files.filter(p -> p.getFileName().toString().contains(".torn-")).findFirst().orElseThrow();
            assertThat(Files.readString(sidecar)).isEqualTo(String.join("\n", lines.subList(1, 3)) + "\n");
        }
        assertThat(Files.readAllLines(file)).hasSize(4);
    }

    @Test
    void truncateAfter_insideABatchWithUsageKeepsTheUsageOnce() {
        try (JsonlStore store = JsonlStore.open(dir)) {
            store.log().append(S, A, List.of(user("e1", null, "hello"), assistant("e2", "e1", "hi"),
                    user("e3", "e2", "more")), Usage.of(30, 4));
            store.log().truncateAfter(S, new EntryId("e1"));
            assertThat(ids(store.log().load(S, null))).containsExactly("e1");
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(30, 4));
            Entry next = store.log().append(S, A, List.of(user("e4", "e1", "after")), Usage.of(1, 1)).entries().get(0);
            assertThat(next.seq()).isEqualTo(4);
        }
        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThat(ids(store.log().load(S, null))).containsExactly("e1", "e4");
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(31, 5));
        }
    }

    // ---- idempotence under the writer lock ----

    @Test
    void append_sameBatchRacingFromTwoStoresIsWrittenOnceWithItsUsage() throws Exception {
        try (JsonlStore one = JsonlStore.open(dir); JsonlStore two = JsonlStore.open(dir)) {
            one.log().append(S, A, List.of(user("root", null, "root")));
            two.log().load(S, null); // each store's index knows the file as it is now
            String parent = "root";
            for (int round = 0; round < 25; round++) {
                List<NewEntry> batch = List.of(user("q" + round, parent, "question " + round),
                        assistant("a" + round, "q" + round, "answer " + round));
                parent = "a" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Integer> written = new CopyOnWriteArrayList<>();
                List<Throwable> failures = new CopyOnWriteArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (JsonlStore store : List.of(one, two)) {
                    Thread t = new Thread(() -> {
                        try {
                            start.await();
                            written.add(store.log().append(S, A, batch, Usage.of(10, 1)).written());
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    });
                    threads.add(t);
                    t.start();
                }
                start.countDown();
                for (Thread t : threads) {
                    t.join();
                }
                assertThat(failures).isEmpty();
                assertThat(written).as("round %d", round).containsExactlyInAnyOrder(2, 0);
            }
            assertThat(one.log().load(S, null)).hasSize(51);
            assertThat(two.log().loadUsage(S, A)).isEqualTo(Usage.of(250, 25));
        }
    }

    @Test
    void append_conflictingBatchLeavesTheFileUntouched() throws IOException {
        Path file = fileOf(dir);
        try (JsonlStore store = JsonlStore.open(dir)) {
            store.log().append(S, A, List.of(user("e1", null, "original")), Usage.of(1, 1));
            Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
            byte[] before = Files.readAllBytes(file);

            assertThatThrownBy(() -> store.log().append(S, A, List.of(user("e2", "e1", "new"),
                    user("e1", null, "edited")), Usage.of(5, 5))).isInstanceOf(EntryConflictException.class);
            AppendResult retry = store.log().append(S, A, List.of(user("e1", null, "original")), Usage.of(1, 1));

            assertThat(retry.written()).isZero();
            assertThat(Files.readAllBytes(file)).isEqualTo(before);
            assertThat(Files.getLastModifiedTime(file).toInstant()).as("a retry is no activity")
                    .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.of(1, 1));
        }
    }

    @Test
    void append_invalidBatchForANewSessionCreatesNoFile() {
        try (JsonlStore store = JsonlStore.open(dir)) {
            assertThatThrownBy(() -> store.log().append(S, A, List.of(user("e1", "nowhere", "orphan")), Usage.of(1, 1)))
                    .isInstanceOf(InvalidInputException.class);
            assertThat(store.catalog().orElseThrow().find(S)).isEmpty();
        }
        assertThat(fileOf(dir)).doesNotExist();
    }

    // ---- scopes on disk ----

    @Test
    void withScope_keepsEachScopesSessionsAndRecordsInItsOwnDirectory() throws IOException {
        String hostile = "../tenant/ä b";
        try (JsonlStore store = JsonlStore.open(dir)) {
            Store other = store.withScope(hostile);
            store.log().append(S, A, List.of(user("e1", null, "default scope")));
            other.log().append(S, A, List.of(user("e1", null, "other scope")), Usage.of(3, 3));
            store.sessions().orElseThrow().create(Fixtures.session("record"));
            other.sessions().orElseThrow().create(Fixtures.session("record"));

            Path otherDir = dir.resolve("scopes").resolve("..%2Ftenant%2F%C3%A4%20b".replace("..", "%2E%2E"));
            assertThat(fileOf(dir)).exists();
            assertThat(fileOf(otherDir)).exists();
            assertThat(dir.resolve("records/default/chat-sessions.catalog.json")).exists();
            assertThat(dir.resolve("records").resolve(otherDir.getFileName()).resolve("chat-sessions.catalog.json"))
                    .exists();
            try (Stream<Path> all = Files.walk(dir)) {
                assertThat(all.filter(Files::isRegularFile)).allSatisfy(p -> assertThat(p.normalize()).startsWith(dir));
            }

            assertThat(store.log().load(S, null)).extracting(e -> ((Message) e.payload()).text())
                    .containsExactly("default scope");
            assertThat(other.log().load(S, null)).extracting(e -> ((Message) e.payload()).text())
                    .containsExactly("other scope");
            assertThat(store.log().loadUsage(S, A)).isEqualTo(Usage.ZERO);
            assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
            assertThat(store.catalog().orElseThrow().findByPrefix("", 10)).containsExactly(S);
            Store third = store.withScope("third");
            assertThat(third.log().load(S, null)).isEmpty();
            assertThat(third.catalog().orElseThrow().list(null, 10).sessions()).isEmpty();
            assertThat(third.sessions().orElseThrow().read("record")).isEmpty();
            assertThat(dir.resolve("scopes/third")).as("reading a scope writes nothing").doesNotExist();
        }
    }

    @Test
    void deleteScope_removesThatScopesFilesAndNothingElse() throws IOException {
        try (JsonlStore store = JsonlStore.open(dir)) {
            Store tenant = store.withScope("tenant");
            for (Store s : List.of(store, tenant)) {
                s.log().append(S, A, List.of(user("e1", null, "hello")));
                s.sessions().orElseThrow().create(Fixtures.session("record"));
                s.catalog().orElseThrow().list(null, 10);
            }
            tenant.deleteScope();

            assertThat(dir.resolve("scopes/tenant")).doesNotExist();
            assertThat(dir.resolve("records/tenant")).doesNotExist();
            assertThat(tenant.log().load(S, null)).isEmpty();
            assertThat(store.log().load(S, null)).hasSize(1);
            assertThat(store.sessions().orElseThrow().read("record")).isPresent();

            tenant.log().append(S, A, List.of(user("e1", null, "again")));
            store.deleteScope();
            assertThat(fileOf(dir)).doesNotExist();
            assertThat(store.sessions().orElseThrow().list(CatalogQuery.first(10)).items()).isEmpty();
            assertThat(tenant.log().load(S, null)).as("the default scope's deletion keeps the others").hasSize(1);
        }
    }

    @Test
    void open_uriThatPinsAScopeWritesThereAndRefusesAnother() {
        try (Store store = Stores.open("jsonl:" + dir + "?parley.scope=pinned")) {
            store.log().append(S, A, List.of(user("e1", null, "hello")));
            assertThatThrownBy(() -> store.withScope("other")).isInstanceOf(InvalidInputException.class);
            assertThat(store.capabilities()).hasSize(6);
        }
        assertThat(fileOf(dir.resolve("scopes/pinned"))).exists();
        assertThat(fileOf(dir)).doesNotExist();
        try (JsonlStore store = JsonlStore.open(dir, StoreOptions.defaults().withScope("pinned"))) {
            assertThat(store.log().load(S, null)).hasSize(1);
        }
    }

    @Test
    void close_makesTheStoreItsViewsAndWhatTheyHandedOutUnusable() {
        JsonlStore store = JsonlStore.open(dir);
        Store view = store.withScope("tenant");
        MessageLog log = view.log();
        view.close(); // a view's close does nothing
        log.append(S, A, List.of(user("e1", null, "hello")));
        store.close();
        store.close();

        assertThatThrownBy(() -> log.load(S, null)).isInstanceOf(UnavailableException.class);
        assertThatThrownBy(() -> store.log().append(S, A, List.of(user("e2", "e1", "late"))))
                .isInstanceOf(UnavailableException.class);
        assertThatThrownBy(() -> view.sessions().orElseThrow().read("x")).isInstanceOf(UnavailableException.class);
        assertThatThrownBy(view::deleteScope).isInstanceOf(UnavailableException.class);
    }

    @Test
    void open_aFileIsRefusedNamingWhatToUseInstead() throws IOException {
        Path file = Files.writeString(dir.resolve("parley.db"), "", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JsonlStore.open(file)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("sqlite:");
    }
}
