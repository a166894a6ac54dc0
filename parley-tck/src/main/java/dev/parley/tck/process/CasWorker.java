package dev.parley.tck.process;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One process of {@link MultiProcessCas}. Until its deadline it repeats: read a random session record and update it
 * with one more conversation line named {@code <worker>-<n>}, expecting the revision it read; and, when given log
 * sessions, load a random one and append one message entry {@code <worker>-<n>} to it. It writes what happened to its
 * result file, one line per event, times in microseconds since the epoch:
 * <pre>
 * read    SESSION REVISION START          a record read that started at START saw REVISION
 * ok      SESSION LINE REVISION ACKED     an update acknowledged at ACKED
 * conflict SESSION EXPECTED ACTUAL        an update rejected with a revision conflict
 * load    SESSION COUNT MAXSEQ START      a log load that started at START saw COUNT entries, the last with MAXSEQ
 * append  SESSION ENTRY SEQ ACKED         an append acknowledged at ACKED
 * done
 * </pre>
 * Any other error ends it with status 1.
 *
 * <p>Arguments: {@code STORE-URI SCOPE SESSION[,…] LOG-SESSION[,…]|- WORKER GO-FILE DURATION-MILLIS RESULT-FILE}.
 * Once its store is open the worker creates {@code RESULT-FILE.ready} and waits for {@code GO-FILE} to exist; its
 * {@code DURATION-MILLIS} run from then, so every worker's run overlaps the others' however slowly each JVM started.
 */
public final class CasWorker {
    private CasWorker() {}

    static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /**
     * Runs the worker as the class comment says and writes its result file, ending with {@code done}, when its time is
     * up. With a number of arguments other than eight it prints its usage on standard error and exits with status 2;
     * if the result file cannot be written, it exits with status 1.
     *
     * @param args {@code STORE-URI SCOPE SESSION[,…] LOG-SESSION[,…]|- WORKER GO-FILE DURATION-MILLIS RESULT-FILE}:
     *     the sessions are the ids of session records that exist; {@code -} for no log sessions
     * @throws IllegalStateException if {@code GO-FILE} does not appear within two minutes of the ready file, or a
     *     session record is missing
     * @throws Exception if the store fails or offers no session records, or an argument is malformed; the JVM then
     *     exits with status 1, and the result file is not written
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 8) {
            System.err.println("usage: CasWorker STORE-URI SCOPE SESSIONS LOG-SESSIONS|- WORKER GO-FILE"
                    + " DURATION-MILLIS RESULT");
            System.exit(2);
        }
        String uri = args[0];
        String scope = args[1];
        List<String> sessions = List.of(args[2].split(","));
        List<String> logSessions = args[3].equals("-") ? List.of() : List.of(args[3].split(","));
        String worker = args[4];
        Path go = Path.of(args[5]);
        long duration = Long.parseLong(args[6]);
        Path result = Path.of(args[7]);
        List<String> lines = new ArrayList<>();
        try (Store store = Stores.open(uri, StoreOptions.defaults().withScope(scope))) {
            MessageLog log = store.log();
            ChatSessionRepository repo = store.sessions().orElseThrow();
            AgentId agent = new AgentId(worker);
            Files.createFile(Path.of(result + ".ready"));
            long giveUp = System.currentTimeMillis() + MultiProcessCas.START_TIMEOUT_MILLIS;
            while (!Files.exists(go)) {
                if (System.currentTimeMillis() > giveUp) {
                    throw new IllegalStateException("no go signal " + go + " within "
                            + MultiProcessCas.START_TIMEOUT_MILLIS + " ms");
                }
                Thread.sleep(2);
            }
            long deadline = System.currentTimeMillis() + duration;
            int n = 0;
            while (System.currentTimeMillis() < deadline) {
                String name = worker + "-" + n++;
                String id = sessions.get(ThreadLocalRandom.current().nextInt(sessions.size()));
                long readStart = micros();
                StoredSession current = repo.read(id).orElseThrow(() -> new IllegalStateException("no session " + id));
                lines.add("read " + id + " " + current.revision() + " " + readStart);
                List<ConversationLine> messages = new ArrayList<>(current.session().messages());
                messages.add(new ConversationLine(name, "user", "written by " + worker, null, null, null));
                ChatSession next = current.session().toBuilder().messages(messages).build();
                try {
                    long revision = repo.update(next, current.revision())
                            .orElseThrow(() -> new IllegalStateException("session " + id + " vanished")).revision();
                    lines.add("ok " + id + " " + name + " " + revision + " " + micros());
                } catch (RevisionConflictException e) {
                    lines.add("conflict " + id + " " + e.expectedRevision() + " " + e.actualRevision());
                }
                if (!logSessions.isEmpty()) {
                    SessionId logSession = new SessionId(logSessions.get(
                            ThreadLocalRandom.current().nextInt(logSessions.size())));
                    long loadStart = micros();
                    List<Entry> seen = log.load(logSession, null);
                    long maxSeq = seen.isEmpty() ? 0 : seen.get(seen.size() - 1).seq();
                    lines.add("load " + logSession.value() + " " + seen.size() + " " + maxSeq + " " + loadStart);
                    Entry stored = log.append(logSession, agent, List.of(NewEntry.of(new EntryId(name), null, null,
                            Message.user("appended by " + worker)))).get(0);
                    lines.add("append " + logSession.value() + " " + name + " " + stored.seq() + " " + micros());
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
