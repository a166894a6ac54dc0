package dev.parley.postgres;

import dev.parley.tck.ArchiveRepositoryHarness;
import dev.parley.tck.ArchiveRepositoryScenarios;
import dev.parley.tck.ConformanceRunner;
import dev.parley.tck.MessageLogHarness;
import dev.parley.tck.MessageLogScenarios;
import dev.parley.tck.Scenario;
import dev.parley.tck.SessionRepositoryHarness;
import dev.parley.tck.SessionRepositoryScenarios;
import dev.parley.tck.StoreHarness;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The whole conformance kit — message log, session records, archives — on PostgreSQL through the store URI, as
 * {@code parley conformance --store postgres:…} runs it: on the embedded server (always), and on the server that
 * {@code PARLEY_TEST_POSTGRES_URL} names (when it is set; {@code .ci/run} sets it to the machine's own PostgreSQL).
 * Every scenario runs in a scope of its own, so the external database may hold other data.
 */
class PostgresConformanceTest {

    @TestFactory
    Stream<DynamicNode> embeddedServer() {
        return allKits("postgres:" + TestDatabases.newEmbeddedDatabase());
    }

    @TestFactory
    @EnabledIfEnvironmentVariable(named = TestDatabases.EXTERNAL, matches = ".+")
    Stream<DynamicNode> givenServer() {
        return allKits("postgres:" + TestDatabases.external());
    }

    static Stream<DynamicNode> allKits(String uri) {
        StoreHarness harness = StoreHarness.of(uri);
        return Stream.of(
                kit("message log", MessageLogScenarios.all(), harness, MessageLogHarness::cleanupScope),
                kit("session records", SessionRepositoryScenarios.all(), harness,
                        SessionRepositoryHarness::cleanupScope),
                kit("archives", ArchiveRepositoryScenarios.all(), harness, ArchiveRepositoryHarness::cleanupScope));
    }

    static <H> DynamicContainer kit(String name, List<Scenario<H>> scenarios, H harness,
                                    BiConsumer<H, String> cleanup) {
        return DynamicContainer.dynamicContainer(name, scenarios.stream().map(scenario ->
                DynamicTest.dynamicTest(scenario.title(), () -> ConformanceRunner.runOne(scenario, harness, cleanup))));
    }
}
