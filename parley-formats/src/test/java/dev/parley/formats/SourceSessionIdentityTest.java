package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One session per source session (docs/02-import-identity.md): files with one session id meet in one session. */
class SourceSessionIdentityTest {
    static final Path ROLLOUT = CrossFormatExportTest.SAMPLES
            .resolve("rollout-2025-10-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl");
    static final SessionId ROLLOUT_ID = new SessionId("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");

    @TempDir
    Path dir;

    Store open() {
        return Stores.open("sqlite:" + dir.resolve("p.db"));
    }

    Path copy(String name, List<String> lines) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return file;
    }

    static Recorder importPaths(Store store, Path... paths) {
        Recorder r = new Recorder();
        new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(paths), null, r);
        return r;
    }

    @Test
    void twoFilesWithOneSourceSessionId_theSecondLonger_makeOneSessionWithNoRecordTwice() throws Exception {
        List<String> all = Files.readAllLines(ROLLOUT);
        Path shorter = copy("old/rollout-copy.jsonl", all.subList(0, 12));
        Path longer = copy("new/rollout-copy.jsonl", all);
        try (Store store = open()) {
            Recorder first = importPaths(store, shorter);
            Recorder second = importPaths(store, longer);
            assertThat(first.fatal()).isEmpty();
            assertThat(second.fatal()).isEmpty();
            assertThat(first.sessions).singleElement().satisfies(s -> {
                assertThat(s.session()).isEqualTo(ROLLOUT_ID);
                assertThat(s.status()).isEqualTo(ImportResult.Status.IMPORTED);
            });
            assertThat(second.sessions).singleElement().satisfies(s -> {
                assertThat(s.session()).isEqualTo(ROLLOUT_ID);
                assertThat(s.status()).isEqualTo(ImportResult.Status.UPDATED);
            });
            assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
            List<Entry> entries = store.log().load(ROLLOUT_ID, null);
            assertThat(entries).hasSize(all.size());
            assertThat(new HashSet<>(entries.stream().map(Entry::id).toList())).hasSize(all.size());
            assertThat(RealTranscriptRoundTripTest.parseLines(new Exporter(store).export(ROLLOUT_ID, Format.CODEX, null)))
                    .isEqualTo(RealTranscriptRoundTripTest.parseLines(String.join("\n", all)));
            // The shorter copy again, and the longer one again: nothing new.
            assertThat(importPaths(store, shorter, longer).sessions)
                    .allSatisfy(s -> assertThat(s.status()).isEqualTo(ImportResult.Status.UNCHANGED))
                    .allSatisfy(s -> assertThat(s.session()).isEqualTo(ROLLOUT_ID));
            assertThat(store.log().load(ROLLOUT_ID, null)).hasSize(all.size());
        }
    }

    @Test
    void aFileThatDisagreesOnARecord_isRefused_namingTheRecord() throws Exception {
        List<String> all = Files.readAllLines(ROLLOUT);
        List<String> edited = new java.util.ArrayList<>(all);
        edited.set(2, edited.get(2).replace("List the files", "Delete the files"));
        Path original = copy("a/rollout.jsonl", all);
        Path disagreeing = copy("b/rollout.jsonl", edited);
        try (Store store = open()) {
            importPaths(store, original);
            Recorder r = importPaths(store, disagreeing);
            assertThat(r.sessions).isEmpty();
            assertThat(r.fatal()).singleElement().satisfies(p -> {
                assertThat(p.file()).isEqualTo(disagreeing);
                assertThat(p.line()).isEqualTo(3);
                assertThat(p.record()).isEqualTo("line-3");
                assertThat(p.message()).contains("conflict").contains("line-3").contains(ROLLOUT_ID.value())
                        .contains("content differs");
            });
            assertThat(store.log().load(ROLLOUT_ID, null)).hasSize(all.size());
            assertThat(new Exporter(store).export(ROLLOUT_ID, Format.CODEX, null)).contains("List the files")
                    .doesNotContain("Delete the files");
        }
    }

    @Test
    void claudeCodeCopyThatGrew_extendsTheSessionItCameFrom() throws Exception {
        Path first = copy("x/s.jsonl", List.of(ImporterTest.U1));
        Path grown = copy("y/s-copy.jsonl", List.of(ImporterTest.U1, ImporterTest.A1));
        try (Store store = open()) {
            importPaths(store, first);
            Recorder r = importPaths(store, grown);
            assertThat(r.fatal()).isEmpty();
            assertThat(r.sessions).singleElement().satisfies(s -> assertThat(s.status()).isEqualTo(ImportResult.Status.UPDATED));
            assertThat(store.log().load(new SessionId("aaaaaaaa-0000-4000-8000-000000000000"), null)).hasSize(2);
            assertThat(store.catalog().orElseThrow().list(null, 10).sessions()).hasSize(1);
        }
    }
}
