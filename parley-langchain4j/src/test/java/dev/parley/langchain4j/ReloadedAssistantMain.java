package dev.parley.langchain4j;

import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;

/**
 * A fresh JVM that reopens the store and asks the assistant again with the reloaded memory: exits 0 and prints the
 * answer if the model server accepted the history, exits 1 if the call failed.
 * Arguments: store URI, model server base URL, memory id, question.
 */
public final class ReloadedAssistantMain {
    private ReloadedAssistantMain() {}

    public static void main(String[] args) {
        try (Store store = Stores.open(args[0])) {
            ParleyChatMemoryStore memory = new ParleyChatMemoryStore(store);
            System.out.println("reloaded " + memory.getMessages(args[2]).size() + " messages");
            System.out.println("answer: " + WeatherAssistant.create(args[1], memory).chat(args[2], args[3]));
        } catch (RuntimeException e) {
            e.printStackTrace();
            System.exit(1);
        }
    }
}
