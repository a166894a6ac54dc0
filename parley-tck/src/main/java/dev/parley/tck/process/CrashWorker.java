package dev.parley.tck.process;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.ConversationLine;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.Stores;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One writer process of the {@link CrashCampaign}, killed with SIGKILL at a moment it does not know. It opens the
 * store, prints {@code ready}, then appends batches and updates records until it is killed (or a minute passes), and
 * prints each acknowledgement on standard output, flushed, <em>after</em> the store answered:
 * <pre>
 * ready
 * A SESSION ID,ID,…          a batch acknowledged (ids in batch order; each id is {@code <worker>-<n>-<i>of<k>},
 *                            the worker's n-th batch of k entries)
 * R RECORD LINE REVISION     a record update acknowledged: the conversation line it added, the revision it made
 * </pre>
 * About one batch in ten is a retry of the worker's previous batch, which must write nothing; if it writes anything the
 * worker prints {@code DUP ID} (the first id of the batch retried) and exits with status 3. Records that do not exist
 * are left alone (a fresh store has none). Any other failure ends the worker with status 1 and the error on standard
 * error.
 *
 * <p>Arguments: {@code STORE-URI SCOPE WORKER LOG-SESSION[,…] RECORD[,…]|-}.
 */
public final class CrashWorker {
    private CrashWorker() {}

    /**
     * Writes as the class comment says until it is killed, and exits with status 0 if it is still alive a minute after
     * it started. With a number of arguments other than five it prints its usage on standard error and exits with
     * status 2.
     *
     * @param args {@code STORE-URI SCOPE WORKER LOG-SESSION[,…] RECORD[,…]|-}: {@code WORKER} is the agent id it
     *     writes as and the prefix of its entry ids; {@code -} for no records
     */
    public static void main(String[] args) {
        if (args.length != 5) {
            System.err.println("usage: CrashWorker STORE-URI SCOPE WORKER LOG-SESSIONS RECORDS|-");
            System.exit(2);
        }
        String uri = args[0];
        String scope = args[1];
        String worker = args[2];
        List<String> sessions = List.of(args[3].split(","));
        List<String> records = args[4].equals("-") ? List.of() : List.of(args[4].split(","));
        PrintStream out = System.out;
        long deadline = System.currentTimeMillis() + 60_000;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (Store store = Stores.open(uri, StoreOptions.defaults().withScope(scope))) {
            MessageLog log = store.log();
            Optional<ChatSessionRepository> repo = records.isEmpty() ? Optional.empty() : store.sessions();
            AgentId agent = new AgentId(worker);
            out.println("ready");
            out.flush();
            Map<String, EntryId> lastAcked = new HashMap<>();
            List<NewEntry> previous = null;
            String previousSession = null;
            int n = 0;
            while (System.currentTimeMillis() < deadline) {
                n++;
                if (repo.isPresent() && random.nextInt(5) == 0) {
                    update(repo.get(), records.get(random.nextInt(records.size())), worker + "-u" + n, out);
                    continue;
                }
                if (previous != null && random.nextInt(10) == 0) {
                    AppendResult retry = log.append(new SessionId(previousSession), agent, previous, Usage.of(1, 1));
                    if (retry.written() != 0) {
                        out.println("DUP " + previous.get(0).id());
                        out.flush();
                        System.exit(3);
                    }
                    continue;
                }
                String session = sessions.get(random.nextInt(sessions.size()));
                int k = 1 + random.nextInt(4);
                List<NewEntry> batch = new ArrayList<>(k);
                EntryId parent = lastAcked.get(session);
                Instant at = Instant.ofEpochMilli(System.currentTimeMillis());
                for (int i = 1; i <= k; i++) {
                    EntryId id = new EntryId(worker + "-" + n + "-" + i + "of" + k);
                    batch.add(NewEntry.of(id, parent, at, Message.user("crash campaign " + id.value())));
                    parent = id;
                }
                log.append(new SessionId(session), agent, batch, Usage.of(1, 1));
                StringBuilder line = new StringBuilder("A ").append(session).append(' ');
                for (int i = 0; i < k; i++) {
                    line.append(i == 0 ? "" : ",").append(batch.get(i).id().value());
                }
                out.println(line);
                out.flush();
                lastAcked.put(session, parent);
                previous = batch;
                previousSession = session;
            }
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void update(ChatSessionRepository repo, String record, String name, PrintStream out) {
        Optional<StoredSession> current = repo.read(record);
        if (current.isEmpty()) {
            return;
        }
        List<ConversationLine> lines = new ArrayList<>(current.get().session().messages());
        lines.add(new ConversationLine(name, "user", "crash campaign", null, null, null));
        try {
            repo.update(current.get().session().toBuilder().messages(lines).build(), current.get().revision())
                    .ifPresent(s -> {
                        out.println("R " + record + " " + name + " " + s.revision());
                        out.flush();
                    });
        } catch (RevisionConflictException e) {
            // another worker won: nothing was written, nothing to acknowledge
        }
    }
}
