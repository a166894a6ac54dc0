package dev.parley.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Scopes;
import dev.parley.tck.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.MessageLogConformance;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The whole conformance kit on PostgreSQL: on the embedded server (always), and on the server that
 * {@code PARLEY_TEST_POSTGRES_URL} names (when it is set; {@code .ci/run} sets it to the machine's own PostgreSQL).
 * Every {@code createRepository} and {@code open} builds a new store instance; scopes keep scenarios apart.
 */
class PostgresConformanceTest {

    /** The three kits against one database. */
    abstract static class Target {
        final HikariDataSource pool;

        Target(String jdbcUrl) {
            pool = TestDatabases.pool(jdbcUrl);
        }

        PostgresStore store(String scope) {
            return PostgresStore.builder(pool).scope(scope).build();
        }

        Repositories repositories() {
            return store(PostgresStore.DEFAULT_SCOPE).repositories().orElseThrow();
        }

        MessageLogHarness messageLog() {
            return new MessageLogHarness() {
                @Override
                public MessageLog open(String scope) {
                    return store(scope);
                }

                @Override
                public void cleanupScope(String scope) {
                    PostgresConformanceSupport.dropLogScope(pool, scope);
                }

                @Override
                public void corruptEntry(String scope, SessionId session, EntryId entry) {
                    PostgresConformanceSupport.corruptEntry(pool, scope, session.value(), entry.value());
                }
            };
        }

        SessionRepositoryHarness sessions() {
            return new SessionRepositoryHarness() {
                @Override
                public ChatSessionRepository createRepository(String scopeId) {
                    return repositories().sessions(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    repositories().dropScope(scopeId);
                }

                @Override
                public void corruptSessionRecord(String scopeId, String sessionId) {
                    PostgresConformanceSupport.corruptSessionRecord(pool, scopeId, sessionId);
                }
            };
        }

        ArchiveRepositoryHarness archives() {
            return new ArchiveRepositoryHarness() {
                @Override
                public ChatArchiveRepository createRepository(String scopeId) {
                    return repositories().archives(scopeId);
                }

                @Override
                public void cleanupScope(String scopeId) {
                    repositories().dropScope(scopeId);
                }

                @Override
                public void corruptManifest(String scopeId, String sessionId) {
                    PostgresConformanceSupport.corruptManifest(pool, scopeId, sessionId);
                }
            };
        }
    }

    static Target embedded;
    static Target external;

    static synchronized Target embedded() {
        if (embedded == null) {
            embedded = new Target(TestDatabases.newEmbeddedDatabase()) {};
        }
        return embedded;
    }

    static synchronized Target external() {
        if (external == null) {
            external = new Target(TestDatabases.external()) {};
        }
        return external;
    }

    @AfterAll
    static void closePools() {
        if (embedded != null) {
            embedded.pool.close();
        }
        if (external != null) {
            external.pool.close();
        }
    }

    @Nested
    class EmbeddedMessageLog extends MessageLogConformance {
        @Override
        protected MessageLogHarness harness() {
            return embedded().messageLog();
        }
    }

    @Nested
    class EmbeddedSessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return embedded().sessions();
        }
    }

    @Nested
    class EmbeddedArchives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            return embedded().archives();
        }
    }

    @Nested
    @EnabledIfEnvironmentVariable(named = TestDatabases.EXTERNAL, matches = ".+")
    class ExternalMessageLog extends MessageLogConformance {
        @Override
        protected MessageLogHarness harness() {
            return external().messageLog();
        }
    }

    @Nested
    @EnabledIfEnvironmentVariable(named = TestDatabases.EXTERNAL, matches = ".+")
    class ExternalSessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return external().sessions();
        }
    }

    @Nested
    @EnabledIfEnvironmentVariable(named = TestDatabases.EXTERNAL, matches = ".+")
    class ExternalArchives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            return external().archives();
        }
    }
}
