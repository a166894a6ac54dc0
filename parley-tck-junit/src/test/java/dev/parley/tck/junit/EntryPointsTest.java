package dev.parley.tck.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.Kit;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.MessageLogScenarios;
import dev.parley.tck.Scenario;
import dev.parley.tck.SessionRepositoryHarness;
import dev.parley.tck.StoreHarness;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * What the entry points report, read through the JUnit Platform as a build tool would: a test per scenario named by
 * its id and name, a failure naming the scenario, and nothing skipped without a reason or passed without running.
 * The test classes they run are nested, so the build does not run them by themselves.
 */
class EntryPointsTest {

    /** Runs a test class and returns each test's display name with its result. */
    static Map<String, TestExecutionResult> run(Class<?> testClass) {
        Map<String, TestExecutionResult> results = new LinkedHashMap<>();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
                new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (id.isTest()) {
                            results.put(id.getDisplayName(), result);
                        }
                    }
                });
        return results;
    }

    static String message(TestExecutionResult result) {
        return result.getThrowable().map(Throwable::getMessage).orElse("");
    }

    /** A harness mistake: every open is a new, empty store, so nothing written is there to reopen. */
    static class ForgetfulLog extends MessageLogConformance {
        @Override
        protected MessageLogHarness harness() {
            return new MessageLogHarness() {
                @Override
                public Store open(String scope) {
                    return MemoryStore.open();
                }

                @Override
                public void cleanupScope(String scope) {}
            };
        }
    }

    static class MemoryNoDamageAllowed extends StoreConformance {
        @Override
        protected StoreHarness harness() {
            return StoreHarness.over(MemoryStore.open());
        }
    }

    static class NothingKept extends StoreConformance {
        @Override
        protected StoreHarness harness() {
            return StoreHarness.of("null:");
        }
    }

    static class MemorySessions extends SessionRepositoryConformance {
        @Override
        protected SessionRepositoryHarness harness() {
            return StoreHarness.over(MemoryStore.open());
        }

        @Override
        protected boolean allowMissingCapabilities() {
            return true;
        }
    }

    static class MemoryArchives extends ArchiveRepositoryConformance {
        @Override
        protected ArchiveRepositoryHarness harness() {
            return StoreHarness.over(MemoryStore.open());
        }

        @Override
        protected boolean allowMissingCapabilities() {
            return true;
        }
    }

    static class MemoryLog extends MessageLogConformance {
        @Override
        protected MessageLogHarness harness() {
            return StoreHarness.over(MemoryStore.open());
        }

        @Override
        protected boolean allowMissingCapabilities() {
            return true;
        }
    }

    @Test
    void messageLogConformance_namesEachTestByScenarioAndFailsTheOneThatCatchesTheFault() {
        Map<String, TestExecutionResult> results = run(ForgetfulLog.class);

        assertThat(results.keySet()).containsExactlyElementsOf(
                MessageLogScenarios.all().stream().map(Scenario::title).toList());
        TestExecutionResult reopen = results.get("ML-07 a fresh instance reopens everything");
        assertThat(reopen.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(message(reopen)).startsWith("ML-07 a fresh instance reopens everything: ");
    }

    @Test
    void storeConformance_missingDamageInjection_failsUnlessAllowed() {
        Map<String, TestExecutionResult> results = run(MemoryNoDamageAllowed.class);

        assertThat(results).hasSize(Stream.of(Kit.values()).mapToInt(k -> k.titles().size()).sum());
        results.forEach((title, result) -> {
            if (title.startsWith("ML-08") || title.startsWith("CS-7") || title.startsWith("AR-6")) {
                assertThat(result.getStatus()).as(title).isEqualTo(TestExecutionResult.Status.FAILED);
                assertThat(message(result)).as(title).contains("damage injection");
            } else {
                assertThat(result.getStatus()).as(title + ": " + message(result))
                        .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
            }
        });
    }

    @Test
    void storeConformance_kitsTheStoreDoesNotDeclare_areReportedSkippedWithTheReason() {
        Map<String, TestExecutionResult> results = run(NothingKept.class);

        assertThat(results).hasSize(Stream.of(Kit.values()).mapToInt(k -> k.titles().size()).sum());
        assertThat(results.values()).allSatisfy(r -> {
            assertThat(r.getStatus()).isEqualTo(TestExecutionResult.Status.ABORTED);
            assertThat(message(r)).contains("not run, the store does not declare");
        });
    }

    @Test
    void repositoryConformance_allowedMissingDamage_isReportedSkippedNeverPassed() {
        Map<String, TestExecutionResult> results = new LinkedHashMap<>(run(MemorySessions.class));
        results.putAll(run(MemoryArchives.class));
        results.putAll(run(MemoryLog.class));

        List<String> skipped = results.entrySet().stream()
                .filter(e -> e.getValue().getStatus() == TestExecutionResult.Status.ABORTED).map(Map.Entry::getKey)
                .toList();
        assertThat(skipped).containsExactly("CS-7 malformed stored records propagate as read failures",
                "AR-6 malformed stored manifests propagate as read failures", "ML-08 a corrupt record fails the read");
        assertThat(skipped).allSatisfy(title -> assertThat(message(results.get(title))).contains("not run"));
        assertThat(results.values()).filteredOn(r -> r.getStatus() != TestExecutionResult.Status.ABORTED)
                .allSatisfy(r -> assertThat(r.getStatus()).as(message(r)).isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
    }
}
