package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.log.SessionPage;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code parley sessions}: the catalog, newest activity first, a page at a time. */
@Command(name = "sessions", mixinStandardHelpOptions = true, description = "List sessions, newest activity first.")
final class SessionsCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "Sessions per page, 1 to 1000 (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--cursor", paramLabel = "C", description = "Continue after the page that returned this cursor.")
    String cursor;

    @Option(names = "--json", description = "Print {\"sessions\": [...], \"nextCursor\": C or null}.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        SessionPage page = root.catalog().list(cursor, limit);
        if (json) {
            ObjectNode o = Json.object();
            ArrayNode sessions = o.putArray("sessions");
            for (SessionInfo s : page.sessions()) {
                sessions.add(toJson(s));
            }
            if (page.nextCursor() == null) {
                o.putNull("nextCursor");
            } else {
                o.put("nextCursor", page.nextCursor());
            }
            out.println(Json.write(o));
            return 0;
        }
        if (page.sessions().isEmpty()) {
            out.println(cursor == null ? "no sessions in " + root.storeUri() : "no more sessions");
            return 0;
        }
        out.printf("%-36s  %-19s  %8s  %8s  %s%n", "SESSION", "UPDATED (UTC)", "ENTRIES", "MESSAGES", "TITLE");
        for (SessionInfo s : page.sessions()) {
            out.printf("%-36s  %-19s  %8d  %8d  %s%n", s.id().value(), Instants.format(s.updatedAt()).substring(0, 19)
                    .replace('T', ' '), s.entryCount(), s.messageCount(), s.title() == null ? "" : Terminal.safe(s.title()));
        }
        if (page.nextCursor() != null) {
            String store = root.store == null || root.store.equals("__DEFAULT__") ? "" : " --store " + root.store;
            out.println("more: parley" + store + " sessions --limit " + limit + " --cursor " + page.nextCursor());
        }
        return 0;
    }

    static ObjectNode toJson(SessionInfo s) {
        ObjectNode o = Json.object();
        o.put("session", s.id().value());
        if (s.title() != null) {
            o.put("title", s.title());
        } else {
            o.putNull("title");
        }
        o.put("createdAt", Instants.format(s.createdAt()));
        o.put("updatedAt", Instants.format(s.updatedAt()));
        o.put("entries", s.entryCount());
        o.put("messages", s.messageCount());
        if (s.origin() != null) {
            o.put("origin", s.origin());
        }
        return o;
    }
}
