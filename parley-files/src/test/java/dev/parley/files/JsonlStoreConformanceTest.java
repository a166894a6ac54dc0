package dev.parley.files;

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
 * {@code jsonl:} passes all three kits through the generic harness, as {@code parley conformance --store jsonl:DIR}
 * runs them: every scenario's scope is the one directory opened with {@code parley.scope} bound, cleaned up with
 * {@code deleteScope()}, damaged through the module's {@code ConformanceSupport} — corruption scenarios included,
 * since none may be reported as not applicable.
 */
class JsonlStoreConformanceTest {
    @TempDir
    static Path dir;

    static StoreHarness harness() {
        return StoreHarness.of("jsonl:" + dir.resolve("store"));
    }

    @Nested
    class Log extends MessageLogConformance {
        @Override
        protected MessageLogHarness harness() {
            return JsonlStoreConformanceTest.harness();
        }
    }

    @Nested
    class Sessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return JsonlStoreConformanceTest.harness();
        }
    }

    @Nested
    class Archives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            return JsonlStoreConformanceTest.harness();
        }
    }
}
