package com.example.mapstore;

import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.tck.junit.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.junit.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import org.junit.jupiter.api.Nested;

/**
 * Certifies the map store with Parley's conformance kit: each nested class runs one kit, and each scenario is a test
 * named by its id (CS-1 … CS-10, AR-1 … AR-7).
 */
class MapStoreConformanceTest {
    /** One storage for the whole run, as one database would be; every scenario gets scopes of its own. */
    static final MapStorage STORAGE = new MapStorage();

    @Nested
    class Sessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return new SessionRepositoryHarness() {
                @Override
                public ChatSessionRepository createRepository(String scopeId) {
                    return STORAGE.sessions(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    STORAGE.dropScope(scopeId);
                }

                @Override
                public void corruptSessionRecord(String scopeId, String sessionId) {
                    STORAGE.damageSession(scopeId, sessionId);
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
                    return STORAGE.archives(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    STORAGE.dropScope(scopeId);
                }

                @Override
                public void corruptManifest(String scopeId, String sessionId) {
                    STORAGE.damageManifest(scopeId, sessionId);
                }
            };
        }
    }
}
