package dev.parley.spring.boot.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Parley's Spring Boot properties, prefix {@code parley}.
 *
 * <p>{@code parley.store} is the store URI, the same as in code and on the command line: {@code sqlite:PATH},
 * {@code jsonl:DIR}, {@code postgres:JDBC-URL}, {@code remote:URL}, {@code memory:}… (the backend's module must be on
 * the class path; the starter brings SQLite). Unset, the store is the embedded default,
 * {@code sqlite:$PARLEY_HOME/parley.db}.
 */
@ConfigurationProperties(prefix = "parley")
public class ParleyProperties {
    private @Nullable String store;

    /**
     * The store URI, or null for the embedded default.
     *
     * @return {@code parley.store} as bound; null when unset (a blank value also means the embedded default)
     */
    public @Nullable String getStore() {
        return store;
    }

    /**
     * Sets the store URI ({@code parley.store}), as Spring's binding does. It is not checked here: a bad URI fails at
     * start-up, when the store is opened.
     *
     * @param store the store URI, or null (or blank) for the embedded default
     */
    public void setStore(@Nullable String store) {
        this.store = store;
    }
}
