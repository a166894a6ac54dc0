package dev.parley.spring.boot.autoconfigure.boot4;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.store.Store;
import dev.parley.spring.boot.autoconfigure.FailedStartUp;
import dev.parley.spring.boot.autoconfigure.ParleyAutoConfiguration;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The starter on Spring Boot 4: its health indicator, and the report of a store that cannot be opened. Runs on Boot 4's class path only: the build's own test run (Boot 3) leaves
 * this package out, and CI runs it with Spring Boot 4.0.7 and Spring AI 2.0.1 (.ci/run). On Boot 4 the starter had no
 * health indicator: its only one was written to Boot 3's Actuator API, whose class condition fails there.
 */
@ExtendWith(OutputCaptureExtension.class)
class ParleyHealthOnBoot4Test {
    @TempDir
    Path dir;

    final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            ParleyAutoConfiguration.class, ParleyHealthAutoConfiguration.class));

    @Test
    void onBoot4_theParleyHealthIndicatorIsUp_withTheStoresDetails() {
        runner.withPropertyValues("parley.store=memory:").run(context -> {
            Health health = context.getBean("parleyHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("store", "memory:").containsEntry("scope", "default")
                    .containsKey("capabilities");
        });
    }

    @Test
    void onBoot4_aClosedStore_isDown_withItsDetailsAndTheFailure() {
        runner.withPropertyValues("parley.store=sqlite:" + dir.resolve("down.db")).run(context -> {
            context.getBean(Store.class).close();
            Health health = context.getBean("parleyHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsKey("store").containsKey("error");
        });
    }

    @Test
    void onBoot4_disabled_noHealthIndicator() {
        runner.withPropertyValues("parley.store=memory:", "management.health.parley.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("parleyHealthIndicator"));
    }

    /** As on Boot 3 (ParleyAutoConfigurationTest): Boot 4 finds the failure analyzer and reports with it. */
    @Test
    void onBoot4_aStoreThatCannotBeOpened_failsTheStartUpWithADescriptionAndAnAction(CapturedOutput output) {
        assertThat(FailedStartUp.ofAnUnknownScheme(output)).contains("APPLICATION FAILED TO START")
                .contains("Parley could not open the store that parley.store names")
                .contains("unknown store scheme 'nosuch'");
    }
}
