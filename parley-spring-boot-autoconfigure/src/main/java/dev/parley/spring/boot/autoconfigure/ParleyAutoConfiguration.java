package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * A Parley {@link Store}, opened from {@code parley.store} or, without configuration, on the embedded default
 * ({@link Stores#defaultUri()}). Backs off when the application defines its own {@code Store}. The store is closed
 * with the application context.
 */
@AutoConfiguration
@ConditionalOnClass(Store.class)
@EnableConfigurationProperties(ParleyProperties.class)
public class ParleyAutoConfiguration {

    /**
     * The store.
     *
     * @param properties the bound {@code parley.*} properties
     * @return the store opened from {@code parley.store}, or from {@link Stores#defaultUri()} when that is unset or
     *     blank; closed with the application context
     * @throws dev.parley.core.InvalidInputException (at start-up) if the URI is malformed or its backend's module is
     *     not on the class path
     * @throws dev.parley.core.UnavailableException (at start-up) if the store cannot be opened
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Store parleyStore(ParleyProperties properties) {
        String uri = properties.getStore();
        return Stores.open(uri == null || uri.isBlank() ? Stores.defaultUri() : uri);
    }
}
