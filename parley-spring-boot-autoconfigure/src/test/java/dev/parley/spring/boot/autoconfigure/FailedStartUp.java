package dev.parley.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.context.annotation.Configuration;

/** A Spring Boot start-up that fails on a store that cannot be opened, and what it reported (on Boot 3 and Boot 4). */
public final class FailedStartUp {
    private FailedStartUp() {}

    /**
     * Starts an application of the store's auto-configuration alone with {@code parley.store=nosuch:x} (a scheme of
     * no backend), checks that the start-up failed on Parley's {@link InvalidInputException}, and answers what the
     * application wrote meanwhile (Spring Boot reports a failed start-up through its logging).
     */
    public static String ofAnUnknownScheme(CapturedOutput output) {
        SpringApplication app = new SpringApplication(StoreOnly.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.setDefaultProperties(Map.of("parley.store", "nosuch:x", "spring.main.banner-mode", "off"));
        assertThatThrownBy(app::run).hasRootCauseInstanceOf(InvalidInputException.class);
        return output.toString();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ParleyAutoConfiguration.class)
    static class StoreOnly {}
}
