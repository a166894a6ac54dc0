package dev.parley.engine;

import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.tck.junit.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.junit.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import org.junit.jupiter.api.Nested;

/** The memory store's repositories pass both kits (damage comes from a layer above them: values cannot rot). */
class MemoryRepositoriesConformanceTest {
    static final BrokenRepositoriesTest.DamageableMemory STORE = new BrokenRepositoriesTest.DamageableMemory();

    @Nested
    class Sessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return new SessionRepositoryHarness() {
                @Override
                public ChatSessionRepository createRepository(String scopeId) {
                    return STORE.sessions(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    STORE.cleanup(scopeId);
                }

                @Override
                public void corruptSessionRecord(String scopeId, String sessionId) {
                    STORE.damaged.add(scopeId + "/" + sessionId);
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
                public ChatArchiveRepository createArchiveRepository(String scopeId) {
                    return STORE.archives(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    STORE.cleanup(scopeId);
                }

                @Override
                public void corruptManifest(String scopeId, String sessionId) {
                    STORE.damaged.add(scopeId + "/manifest/" + sessionId);
                }
            };
        }
    }
}
