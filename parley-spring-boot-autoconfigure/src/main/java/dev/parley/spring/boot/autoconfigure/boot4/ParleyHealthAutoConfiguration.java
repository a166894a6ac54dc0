package dev.parley.spring.boot.autoconfigure.boot4;

import dev.parley.core.store.Store;
import dev.parley.spring.boot.autoconfigure.ParleyAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * On Spring Boot 4, a health indicator named {@code parley} for the store, when Boot's health support
 * ({@code spring-boot-health}, which Actuator brings) is on the class path; switched off with
 * {@code management.health.parley.enabled=false}. On Boot 3 its class condition fails first, so none of the Boot 4
 * types it names is loaded, and {@link dev.parley.spring.boot.autoconfigure.ParleyHealthAutoConfiguration} registers
 * Boot 3's indicator instead.
 */
@AutoConfiguration(after = ParleyAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(Store.class)
@ConditionalOnEnabledHealthIndicator("parley")
public class ParleyHealthAutoConfiguration {

    /**
     * The store's health.
     *
     * @param store the application's store
     * @return an indicator that checks {@code store}
     */
    @Bean
    @ConditionalOnMissingBean(name = "parleyHealthIndicator")
    public ParleyHealthIndicator parleyHealthIndicator(Store store) {
        return new ParleyHealthIndicator(store);
    }
}
