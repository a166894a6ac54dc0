package dev.parley.sqlite;

import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Scopes;
import dev.parley.core.store.StoreOptions;
import dev.parley.tck.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** SQLite passes both repository kits; every createRepository opens a fresh store instance on the same file. */
class SqliteRepositoriesConformanceTest {
    @TempDir
    static Path dir;

    static final List<MessageLog> OPEN = new ArrayList<>();

    static Path db() {
        return dir.resolve("repositories.db");
    }

    static synchronized Repositories fresh() {
        SqliteMessageLog log = SqliteMessageLog.open(db(), StoreOptions.defaults());
        OPEN.add(log);
        return log.repositories().orElseThrow();
    }

    static synchronized void cleanup(String scope) {
        fresh().dropScope(scope);
        OPEN.forEach(MessageLog::close);
        OPEN.clear();
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
                    cleanup(scopeId);
                }

                @Override
                public void corruptSessionRecord(String scopeId, String sessionId) {
                    SqliteConformanceSupport.corruptSessionRecord(db(), scopeId, sessionId);
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
                    cleanup(scopeId);
                }

                @Override
                public void corruptManifest(String scopeId, String sessionId) {
                    SqliteConformanceSupport.corruptManifest(db(), scopeId, sessionId);
                }
            };
        }
    }
}
