package dev.parley.sqlite;

import dev.parley.tck.junit.ArchiveRepositoryConformance;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.junit.MessageLogConformance;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.junit.SessionRepositoryConformance;
import dev.parley.tck.SessionRepositoryHarness;
import dev.parley.tck.StoreHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * All three kits — message log, session records, archives — against one SQLite file through its URI, as
 * {@code parley conformance --store sqlite:PATH} runs them: each scenario in a scope of its own, cleaned up with
 * {@code deleteScope}, damage injected by {@link dev.parley.sqlite.internal.SqliteConformanceSupport}.
 */
class SqliteConformanceTest {
    @TempDir
    static Path dir;

    static StoreHarness kit() {
        return StoreHarness.of("sqlite:" + dir.resolve("conformance.db"));
    }

    @Nested
    class Log extends MessageLogConformance {
        @Override
        protected MessageLogHarness harness() {
            return kit();
        }
    }

    @Nested
    class Records extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return kit();
        }
    }

    @Nested
    class Archives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            return kit();
        }
    }
}
