/**
 * Spring Boot auto-configuration for Parley: a {@link dev.parley.core.store.Store} from {@code parley.store} (the
 * embedded default without configuration), Parley's Spring AI {@code ChatMemoryRepository} in place of the in-memory
 * one, and a {@code parley} health indicator. Bring it in with {@code dev.parley:parley-spring-boot-starter}.
 */
@NullMarked
package dev.parley.spring.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
