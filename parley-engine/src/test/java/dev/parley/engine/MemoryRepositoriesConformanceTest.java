package dev.parley.engine;

import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.tck.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import org.junit.jupiter.api.Nested;

/** The in-memory repositories pass both kits. */
class MemoryRepositoriesConformanceTest {
    static final MemoryRepositories STORE = new MemoryRepositories();

    static final class Harness implements SessionRepositoryHarness {
        @Override
        public ChatSessionRepository createRepository(String scopeId) {
            return STORE.sessions(scopeId);
        }

        @Override
        public void cleanupScope(String scopeId) {
            STORE.dropScope(scopeId);
        }

        @Override
        public void corruptSessionRecord(String scopeId, String sessionId) {
            STORE.corruptSession(scopeId, sessionId);
        }

        void corruptManifest(String scopeId, String sessionId) {
            STORE.corruptManifest(scopeId, sessionId);
        }

        ChatArchiveRepository archives(String scopeId) {
            return STORE.archives(scopeId);
        }
    }

    @Nested
    class Sessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return new Harness();
        }
    }

    @Nested
    class Archives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            Harness h = new Harness();
            return new ArchiveRepositoryHarness() {
                @Override
                public ChatArchiveRepository createRepository(String scopeId) {
                    return h.archives(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    h.cleanupScope(scopeId);
                }

                @Override
                public void corruptManifest(String scopeId, String sessionId) {
                    h.corruptManifest(scopeId, sessionId);
                }
            };
        }
    }
}
