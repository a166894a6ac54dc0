package dev.parley.spring.boot.autoconfigure;

import dev.parley.core.store.Store;
import dev.parley.springai.ParleyChatMemoryRepository;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Spring AI's {@link ChatMemoryRepository} on the Parley store, in place of Spring AI's in-memory default: runs
 * before Spring AI's {@code ChatMemoryAutoConfiguration}, whose {@code @ConditionalOnMissingBean} repository then
 * backs off, and whose {@code ChatMemory} (a {@code MessageWindowChatMemory}) uses this repository. Backs off itself
 * when the application defines a {@code ChatMemoryRepository} (a JDBC one, say).
 */
@AutoConfiguration(after = ParleyAutoConfiguration.class,
        beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnClass({ChatMemoryRepository.class, ParleyChatMemoryRepository.class})
@ConditionalOnBean(Store.class)
public class ParleyChatMemoryAutoConfiguration {

    /**
     * The repository over the application's store.
     *
     * @param store the application's store; the repository does not close it
     * @return a {@link ParleyChatMemoryRepository} on {@code store}, stamping entries with the system clock
     */
    @Bean
    @ConditionalOnMissingBean
    public ChatMemoryRepository parleyChatMemoryRepository(Store store) {
        return new ParleyChatMemoryRepository(store);
    }
}
