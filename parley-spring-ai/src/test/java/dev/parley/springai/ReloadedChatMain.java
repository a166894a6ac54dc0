package dev.parley.springai;

import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;

/**
 * A fresh JVM that reopens the store and sends again through both kinds of turn with the reloaded memory: exits 0
 * and prints the answers if the model server accepted the histories, exits 1 if a call failed.
 * Arguments: store URI, model server base URL.
 */
public final class ReloadedChatMain {
    private ReloadedChatMain() {}

    public static void main(String[] args) {
        try (Store store = Stores.open(args[0])) {
            ParleyChatMemoryRepository repository = new ParleyChatMemoryRepository(store);
            System.out.println("conversations " + repository.findConversationIds());
            System.out.println("reloaded client " + repository.findByConversationId("client").size()
                    + ", memory " + repository.findByConversationId("memory").size());
            WeatherChat chat = new WeatherChat(args[1], repository);
            System.out.println("client answer: " + chat.clientTurn("client", "And in Faro?"));
            System.out.println("memory answer: " + chat.memoryTurn("memory", "And in Faro?"));
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
    }
}
