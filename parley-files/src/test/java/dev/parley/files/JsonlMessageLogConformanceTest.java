package dev.parley.files;

import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.store.StoreOptions;
import dev.parley.tck.MessageLogConformance;
import dev.parley.tck.MessageLogHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/** The JSONL store passes the whole message-log kit, corruption included; each scope is its own directory. */
class JsonlMessageLogConformanceTest extends MessageLogConformance {
    @TempDir
    static Path root;

    @Override
    protected MessageLogHarness harness() {
        return new MessageLogHarness() {
            @Override
            public MessageLog open(String scope) {
                return JsonlMessageLog.open(root.resolve(scope), StoreOptions.defaults());
            }

            @Override
            public void cleanupScope(String scope) {
                Path dir = root.resolve(scope);
                if (!Files.exists(dir)) {
                    return;
                }
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public void corruptEntry(String scope, SessionId session, EntryId entry) {
                FilesConformanceSupport.corruptEntry(root.resolve(scope), session, entry);
            }
        };
    }
}
