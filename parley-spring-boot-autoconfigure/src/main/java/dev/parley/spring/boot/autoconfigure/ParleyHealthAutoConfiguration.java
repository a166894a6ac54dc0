package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.store.Store;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * A health indicator named {@code parley} for the store, when Spring Boot Actuator is on the class path; switched off
 * with {@code management.health.parley.enabled=false}.
 */
@AutoConfiguration(after = ParleyAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
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
