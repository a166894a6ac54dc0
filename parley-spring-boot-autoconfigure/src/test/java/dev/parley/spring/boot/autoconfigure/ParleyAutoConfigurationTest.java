package dev.parley.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.springai.ParleyChatMemoryRepository;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One test per condition of the auto-configuration, each on a real context. */
@ExtendWith(OutputCaptureExtension.class)
class ParleyAutoConfigurationTest {
    @TempDir
    Path dir;

    /** Ours and Spring AI's own memory auto-configuration, ordered by their annotations as in an application. */
    final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            ParleyAutoConfiguration.class, ParleyChatMemoryAutoConfiguration.class, ParleyHealthAutoConfiguration.class,
            ChatMemoryAutoConfiguration.class));

    @Test
    void noConfiguration_storeOnTheEmbeddedDefault() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(Store.class);
            assertThat(context.getBean(Store.class).uri()).isEqualTo(Stores.defaultUri()).startsWith("sqlite:");
        });
    }

    @Test
    void parleyStore_selectsTheStoreUri() {
        String uri = "sqlite:" + dir.resolve("app.db");
        runner.withPropertyValues("parley.store=" + uri)
                .run(context -> assertThat(context.getBean(Store.class).uri()).isEqualTo(uri));
        runner.withPropertyValues("parley.store=memory:")
                .run(context -> assertThat(context.getBean(Store.class)).isInstanceOf(MemoryStore.class));
    }

    @Test
    void parleyStore_unknownScheme_failsTheStartUp() {
        runner.withPropertyValues("parley.store=nosuch:x").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("unknown store scheme 'nosuch'"));
    }

    /**
     * Found by a newcomer's trial: a {@code parley.store} that cannot be opened (here a scheme whose module is not on
     * the class path) failed the start-up with about 90 lines of stack trace, Parley's message at their end. Spring
     * Boot now reports it as it reports its own configuration errors: a description that carries Parley's message, and
     * what to do.
     */
    @Test
    void parleyStore_thatCannotBeOpened_failsTheStartUpWithADescriptionAndAnAction(CapturedOutput output) {
        assertThat(FailedStartUp.ofAnUnknownScheme(output)).contains("APPLICATION FAILED TO START")
                .contains("Parley could not open the store that parley.store names")
                .contains("unknown store scheme 'nosuch'")
                .contains("put the module of its backend on the class path");
    }

    /** A ParleyException that the application's own bean throws is no failure to open the store. */
    @Test
    void failureAnalyzer_leavesAnotherBeansParleyExceptionAlone() {
        new ApplicationContextRunner().withUserConfiguration(ThrowingBean.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(new ParleyStoreFailureAnalyzer().analyze(context.getStartupFailure())).isNull();
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class ThrowingBean {
        @Bean
        String needsAStore() {
            throw new dev.parley.core.InvalidInputException("the application's own failure");
        }
    }

    @Test
    void applicationStore_backsOff() {
        runner.withUserConfiguration(OwnStore.class).run(context -> {
            assertThat(context).hasSingleBean(Store.class);
            assertThat(context.getBean(Store.class)).isSameAs(context.getBean("ownStore"));
        });
    }

    @Test
    void springAiOnTheClassPath_parleyRepositoryReplacesTheInMemoryDefault() {
        runner.withPropertyValues("parley.store=sqlite:" + dir.resolve("chat.db")).run(context -> {
            assertThat(context).hasSingleBean(ChatMemoryRepository.class);
            assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(ParleyChatMemoryRepository.class);
            ChatMemory memory = context.getBean(ChatMemory.class);
            memory.add("c-1", new UserMessage("kept in the store"));
        });
        try (Store store = Stores.open("sqlite:" + dir.resolve("chat.db"))) { // after the context closed
            assertThat(new ParleyChatMemoryRepository(store).findByConversationId("c-1"))
                    .containsExactly(new UserMessage("kept in the store"));
        }
    }

    @Test
    void applicationRepository_backsOff() {
        runner.withUserConfiguration(OwnRepository.class).run(context -> {
            assertThat(context).hasSingleBean(ChatMemoryRepository.class);
            assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(InMemoryChatMemoryRepository.class);
        });
    }

    @Test
    void withoutSpringAi_storeOnly() {
        runner.withClassLoader(new FilteredClassLoader(ChatMemoryRepository.class)).run(context -> {
            assertThat(context).hasSingleBean(Store.class);
            assertThat(context).doesNotHaveBean("parleyChatMemoryRepository");
        });
    }

    @Test
    void actuatorOnTheClassPath_healthIndicatorIsUp() {
        runner.withPropertyValues("parley.store=memory:").run(context -> {
            HealthIndicator health = context.getBean("parleyHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            assertThat(health.health().getDetails()).containsEntry("store", "memory:")
                    .containsKey("capabilities");
        });
    }

    @Test
    void withoutActuator_noHealthIndicator() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).doesNotHaveBean("parleyHealthIndicator"));
    }

    @Test
    void healthIndicatorDisabled_noHealthIndicator() {
        runner.withPropertyValues("management.health.parley.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("parleyHealthIndicator"));
    }

    @Test
    void closedStore_healthIsDown() {
        runner.withPropertyValues("parley.store=sqlite:" + dir.resolve("down.db")).run(context -> {
            context.getBean(Store.class).close();
            assertThat(context.getBean("parleyHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.DOWN);
        });
    }

    @Test
    void remoteStoreWhoseServerIsDown_healthIsUpOnTheFallback_andSaysTheServerDoesNotAnswer() throws IOException {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = socket.getLocalPort(); // closed below: nothing listens there
        }
        String remote = "remote:http://127.0.0.1:" + deadPort + "?parley.fallback="
                + URLEncoder.encode("sqlite:" + dir.resolve("fallback.db"), StandardCharsets.UTF_8)
                + "&parley.journal=" + URLEncoder.encode(dir.resolve("journal.jsonl").toString(), StandardCharsets.UTF_8)
                + "&parley.timeout=2000";
        runner.withPropertyValues("parley.store=" + remote).run(context -> {
            Health health = context.getBean("parleyHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP); // reads and writes go to the fallback store
            assertThat(health.getDetails()).containsEntry("serverReachable", false)
                    .containsEntry("server", "http://127.0.0.1:" + deadPort).containsEntry("pendingReplay", 0)
                    .containsKeys("breaker", "replayConflicts", "fallback");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnStore {
        @Bean
        Store ownStore() {
            return MemoryStore.open();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRepository {
        @Bean
        ChatMemoryRepository ownRepository() {
            return new InMemoryChatMemoryRepository();
        }
    }

}
