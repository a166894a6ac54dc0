package dev.parley.tck.process;

import dev.parley.core.log.MessageLog;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Stores;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One process of {@link MultiProcessCas}: until its deadline, reads a random session of the list and updates it with
 * one more conversation line named {@code <worker>-<n>}, expecting the revision it read. It writes what happened to its
 * result file, one line per attempt: {@code ok SESSION LINE REVISION} when the update was acknowledged,
 * {@code conflict SESSION EXPECTED ACTUAL} when it lost, then {@code done}. Any other error ends it with status 1.
 *
 * <p>Arguments: {@code STORE-URI SCOPE SESSION[,SESSION…] WORKER START-AT-EPOCH-MILLIS DURATION-MILLIS RESULT-FILE}.
 */
public final class CasWorker {
    private CasWorker() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: CasWorker STORE-URI SCOPE SESSIONS WORKER START-AT-MILLIS DURATION-MILLIS RESULT");
            System.exit(2);
        }
        String uri = args[0];
        String scope = args[1];
        List<String> sessions = List.of(args[2].split(","));
        String worker = args[3];
        long startAt = Long.parseLong(args[4]);
        long duration = Long.parseLong(args[5]);
        Path result = Path.of(args[6]);
        List<String> lines = new ArrayList<>();
        try (MessageLog log = Stores.open(uri)) {
            ChatSessionRepository repo = log.repositories().orElseThrow().sessions(scope);
            long wait = startAt - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            long deadline = System.currentTimeMillis() + duration;
            int n = 0;
            while (System.currentTimeMillis() < deadline) {
                String id = sessions.get(ThreadLocalRandom.current().nextInt(sessions.size()));
                StoredSession current = repo.read(id).orElseThrow(() -> new IllegalStateException("no session " + id));
                String line = worker + "-" + n++;
                List<ConversationLine> messages = new ArrayList<>(current.session().messages());
                messages.add(new ConversationLine(line, "user", "written by " + worker, null, null, null));
                ChatSession next = current.session().toBuilder().messages(messages).build();
                try {
                    long revision = repo.update(next, current.revision())
                            .orElseThrow(() -> new IllegalStateException("session " + id + " vanished")).revision();
                    lines.add("ok " + id + " " + line + " " + revision);
                } catch (RevisionConflictException e) {
                    lines.add("conflict " + id + " " + e.expectedRevision() + " " + e.actualRevision());
                }
            }
        }
        lines.add("done");
        try (BufferedWriter w = Files.newBufferedWriter(result, StandardCharsets.UTF_8)) {
            for (String l : lines) {
                w.write(l);
                w.newLine();
            }
        } catch (IOException e) {
            System.err.println("cannot write " + result + ": " + e);
            System.exit(1);
        }
    }
}
