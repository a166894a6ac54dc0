package dev.parley.files;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.tck.process.BackupUnderLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Breaks of issue 14 on the JSONL store, and its backup while writers append. */
class JsonlReliabilityTest {
    @TempDir
    Path dir;

    @Test
    void list_directoryNamedLikeASessionFile_doesNotHideTheOtherSessions() throws Exception {
        Path store = dir.resolve("store");
        try (Store s = Stores.open("jsonl:" + store)) {
            s.log().append(new SessionId("real"), AgentId.MAIN, List.of(NewEntry.of(new EntryId("e1"), null, null,
                    Message.user("hello"))));
        }
        Files.createDirectories(store.resolve("x.jsonl"));
        Files.writeString(store.resolve("y.jsonl"), "not json\n");

        try (Store s = Stores.open("jsonl:" + store)) {
            assertThat(s.catalog().orElseThrow().list(null, 10).sessions()).extracting(SessionInfo::id)
                    .containsExactly(new SessionId("real"));
        }
    }

    @Test
    void backup_whileWritersAppend_restoresEveryEntryAcknowledgedBeforeItAndNoPartialBatch() throws Exception {
        BackupUnderLoad.Report report = BackupUnderLoad.run("jsonl:" + dir.resolve("live"), dir.resolve("backup"),
                "jsonl:" + dir.resolve("restored"));

        assertThat(report.violations()).isEmpty();
        assertThat(report.acknowledgedBefore()).isPositive();
    }
}
