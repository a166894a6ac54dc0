package dev.parley.files;

import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.StoreOptions;
import dev.parley.tck.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON file store passes both repository kits; every createRepository opens a fresh JSONL store on the same
 * directory, so nothing is shared between instances but the files.
 */
class FileRepositoriesConformanceTest {
    @TempDir
    static Path dir;

    static FileRepositories fresh() {
        return FilesConformanceSupport.of(JsonlMessageLog.open(dir, StoreOptions.defaults()).repositories().orElseThrow());
    }

    @Nested
    class Sessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return new SessionRepositoryHarness() {
                @Override
                public ChatSessionRepository createRepository(String scopeId) {
                    return fresh().sessions(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    fresh().dropScope(scopeId);
                }

                @Override
                public void corruptSessionRecord(String scopeId, String sessionId) {
                    FilesConformanceSupport.corruptSessionRecord(fresh(), scopeId, sessionId);
                }
            };
        }
    }

    @Nested
    class Archives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            return new ArchiveRepositoryHarness() {
                @Override
                public ChatArchiveRepository createRepository(String scopeId) {
                    return fresh().archives(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    fresh().dropScope(scopeId);
                }

                @Override
                public void corruptManifest(String scopeId, String sessionId) {
                    FilesConformanceSupport.corruptManifest(fresh(), scopeId, sessionId);
                }
            };
        }
    }
}
