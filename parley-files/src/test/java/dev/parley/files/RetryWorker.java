package dev.parley.files;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One process of {@link MultiProcessRetryTest}: from a shared start time, appends the same chain of batches (round
 * {@code r}: entries {@code q<r>} and {@code a<r>}, usage 10/1) to one session, and writes how many entries each append
 * wrote, one line per round. Arguments: {@code STORE-URI START-AT-EPOCH-MILLIS ROUNDS RESULT-FILE}.
 */
public final class RetryWorker {
    static final SessionId SESSION = new SessionId("retried");
    static final Instant T = Instant.parse("2026-03-02T09:00:01.120Z");

    private RetryWorker() {}

    static List<NewEntry> batch(int round) {
        EntryId question = new EntryId("q" + round);
        return List.of(NewEntry.of(question, round == 0 ? null : new EntryId("a" + (round - 1)), T,
                        Message.user("question " + round)),
                NewEntry.of(new EntryId("a" + round), question, T, Message.user("answer " + round)));
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[2]);
        List<String> out = new ArrayList<>();
        try (Store store = Stores.open(args[0])) {
            long wait = Long.parseLong(args[1]) - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            for (int r = 0; r < rounds; r++) {
                out.add(r + " " + store.log().append(SESSION, AgentId.MAIN, batch(r), Usage.of(10, 1)).written());
            }
        }
        Files.write(Path.of(args[3]), out);
    }
}
