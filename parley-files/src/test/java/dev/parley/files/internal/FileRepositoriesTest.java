package dev.parley.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.StorageCorruptionException;
import dev.parley.core.repository.StoredSession;
import dev.parley.tck.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the file layout adds to the kit: hostile ids, crash leftovers, legacy bodies, locators that escape. */
class FileRepositoriesTest {
    @TempDir
    Path dir;

    @Test
    void idsThatLookLikePathsStayInsideTheScopeDirectory() throws IOException {
        FileRepositories repos = new FileRepositories(dir.resolve("records"));
        ChatSessionRepository sessions = repos.sessions("../scope");
        List<String> ids = List.of("../escape", "a/b", ".", "..", "x".repeat(ChatSession.MAX_ID_LENGTH), "😀 é",
                "name.1.json");
        for (String id : ids) {
            sessions.create(Fixtures.session(id));
        }

        for (String id : ids) {
            assertThat(sessions.read(id)).map(s -> s.session().id()).contains(id);
        }
        assertThat(sessions.list(CatalogQuery.first(200)).items()).hasSize(ids.size());
        try (Stream<Path> all = Files.walk(dir)) {
            assertThat(all.filter(Files::isRegularFile))
                    .allSatisfy(p -> assertThat(p).startsWith(repos.scopeDirectory("../scope")))
                    .allSatisfy(p -> assertThat(p.getFileName().toString()).hasSizeLessThan(256));
        }
        assertThat(repos.scopeDirectory("../scope").getParent()).isEqualTo(dir.resolve("records"));
    }

    @Test
    void aCatalogThatNamesAMissingBodyIsCorruptionNamingTheFile() throws IOException {
        FileRepositories repos = new FileRepositories(dir);
        repos.sessions("s").create(Fixtures.session("one"));
        Path body = FileRepositories.body(repos.scopeDirectory("s"), "one", 1);
        Files.delete(body);

        assertThatThrownBy(() -> repos.sessions("s").read("one"))
                .isInstanceOf(StorageCorruptionException.class)
                .hasMessageContaining(body.toString())
                .satisfies(e -> assertThat(((StorageCorruptionException) e).stableCode())
                        .isEqualTo("CHAT_SESSION_STORAGE_CORRUPTION"));
    }

    @Test
    void aBodyLeftByACrashedWriterIsReplacedByTheNextUpdate() throws IOException {
        FileRepositories repos = new FileRepositories(dir);
        ChatSessionRepository sessions = repos.sessions("s");
        StoredSession created = sessions.create(Fixtures.session("one"));
        // A writer wrote revision 2's body and died before replacing the catalog.
        Files.writeString(FileRepositories.body(repos.scopeDirectory("s"), "one", 2), "{\"id\":");
        assertThat(sessions.read("one")).map(StoredSession::revision).contains(1L);

        ChatSession renamed = created.session().toBuilder().name("renamed").build();
        assertThat(sessions.update(renamed, 1)).map(StoredSession::revision).contains(2L);

        assertThat(new FileRepositories(dir).sessions("s").read("one")).map(s -> s.session().name()).contains("renamed");
    }

    @Test
    void aLegacyBodyWithoutARevisionIsReadLeniently() throws IOException {
        FileRepositories repos = new FileRepositories(dir);
        ChatSessionRepository sessions = repos.sessions("s");
        sessions.create(Fixtures.session("old"));
        Path scope = repos.scopeDirectory("s");
        Files.move(FileRepositories.body(scope, "old", 1), scope.resolve("chat-sessions/old.json"));
        // A legacy file carries a key this version does not know.
        Files.writeString(scope.resolve("chat-sessions/old.json"),
                Files.readString(scope.resolve("chat-sessions/old.json")).replaceFirst("\\{", "{\"legacyFlag\":true,"));

        assertThat(sessions.read("old")).map(s -> s.session().name()).contains("Session old");
    }

    @Test
    void writesLeaveNoTemporaryFiles() throws IOException {
        FileRepositories repos = new FileRepositories(dir);
        ChatSessionRepository sessions = repos.sessions("s");
        StoredSession s = sessions.create(Fixtures.session("one"));
        sessions.update(s.session().toBuilder().name("two").build(), 1);
        repos.archives("s").append(new ArchiveAppend("one", ArchiveRecord.draft("a-1", "first", 1,
                Instant.parse("2026-01-01T00:00:00Z"), null), List.of(ChatMessage.of("user", "hi")), "summary"));

        try (Stream<Path> all = Files.walk(dir)) {
            assertThat(all.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void summariesRoundTripAndALocatorCannotEscapeTheStore() {
        FileRepositories repos = new FileRepositories(dir);
        ArchiveAppend.Result result = repos.archives("s").append(new ArchiveAppend("one", ArchiveRecord.draft("a-1",
                "first", 1, Instant.parse("2026-01-01T00:00:00Z"), null), List.of(ChatMessage.of("user", "hi")),
                "two lines\nof summary"));

        assertThat(repos.archives("s").readSummary(result.archive().summaryPath())).contains("two lines\nof summary");
        assertThat(repos.archives("s").readSummary("db://elsewhere")).isEmpty();
        assertThatThrownBy(() -> repos.archives("s").readSummary(FileRepositories.LOCATOR_PREFIX + "../../../etc/passwd"))
                .isInstanceOf(StorageCorruptionException.class);
    }

    @Test
    void scopesAndIdsThatWouldCollideOrEscapeAreRejected() {
        FileRepositories repos = new FileRepositories(dir.resolve("records"));
        repos.sessions("tenant-a").create(Fixtures.session("a1"));
        for (String scope : new String[] {"", "\uD800", "a\u0000b", "x".repeat(129)}) {
            assertThatThrownBy(() -> repos.sessions(scope)).as(scope).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> repos.dropScope(scope)).as(scope).isInstanceOf(InvalidInputException.class);
        }
        assertThatThrownBy(() -> Fixtures.session("\uD800")).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> repos.sessions("s").read("a\u0000b")).isInstanceOf(InvalidInputException.class);
        assertThat(repos.sessions("tenant-a").read("a1")).isPresent();
    }

    @Test
    void anUpdateRemovesTheBodyItReplacedAndADeleteItsLast() throws IOException {
        FileRepositories repos = new FileRepositories(dir);
        ChatSessionRepository sessions = repos.sessions("s");
        StoredSession s = sessions.create(Fixtures.session("one"));
        for (int i = 0; i < 20; i++) {
            s = sessions.update(s.session().toBuilder().name("n" + i).build(), s.revision()).orElseThrow();
        }
        Path bodies = repos.scopeDirectory("s").resolve("chat-sessions");
        try (Stream<Path> files = Files.list(bodies)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("one.21.json");
        }
        sessions.delete("one", 21);
        try (Stream<Path> files = Files.list(bodies)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void readsRacingUpdatesAndDeletesNeverReportCorruption() throws Exception {
        FileRepositories repos = new FileRepositories(dir);
        ChatSessionRepository sessions = repos.sessions("s");
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int i = 0; i < 150 && failure.get() == null; i++) {
                    StoredSession s = sessions.create(Fixtures.session("racy"));
                    s = sessions.update(s.session().toBuilder().name("again").build(), 1).orElseThrow();
                    sessions.delete("racy", s.revision());
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                stop.set(true);
            }
        });
        writer.start();
        long reads = 0;
        while (!stop.get()) {
            try {
                sessions.read("racy");
                reads++;
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                break;
            }
        }
        writer.join();
        assertThat(failure.get()).as("after %d reads", reads).isNull();
    }

    @Test
    void aCatalogFromANewerParleyIsRefusedAndDamagedOnesAreCorruption() throws IOException {
        FileRepositories repos = new FileRepositories(dir);
        repos.sessions("s").create(Fixtures.session("one"));
        Path catalog = repos.scopeDirectory("s").resolve(FileRepositories.CATALOG);
        String good = Files.readString(catalog);

        Files.writeString(catalog, good.replace("\"version\" : 1", "\"version\" : 9"));
        assertThatThrownBy(() -> repos.sessions("s").read("one")).isInstanceOf(UnsupportedException.class)
                .hasMessageContaining("newer");
        for (String damaged : new String[] {good + "{\"junk\":1}", "null", "[]", "{\"version\":1}",
                good.replace("\"sessions\"", "\"extra\" : 1, \"sessions\"")}) {
            Files.writeString(catalog, damaged);
            assertThatThrownBy(() -> repos.sessions("s").list(CatalogQuery.first(10))).as(damaged)
                    .isInstanceOf(StorageCorruptionException.class)
                    .hasMessageContaining(catalog.toString())
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("corrupt record at " + catalog
                            + ": corrupt record"));
        }
    }

    @Test
    void oneDirectoryReachedThroughALinkSharesItsLocks() throws Exception {
        Path real = Files.createDirectories(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        ChatSessionRepository a = new FileRepositories(real).sessions("s");
        ChatSessionRepository b = new FileRepositories(link).sessions("s");
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        for (int t = 0; t < 4; t++) {
            ChatSessionRepository repo = t % 2 == 0 ? a : b;
            int n = t;
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 25; i++) {
                        repo.create(Fixtures.session("t" + n + "-" + i));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failure.get()).isNull();
        assertThat(a.list(CatalogQuery.first(200)).items()).hasSize(100);
    }
}
