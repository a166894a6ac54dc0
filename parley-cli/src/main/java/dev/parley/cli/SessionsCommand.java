package dev.parley.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.parley.core.InvalidInputException;
import dev.parley.core.UnsupportedException;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.store.Store;
import dev.parley.json.repository.ChatSessionCodec;
import dev.parley.core.log.SessionPage;
import dev.parley.json.Instants;
import dev.parley.json.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley sessions}: a catalog, a page at a time. By default the message log's sessions, newest activity first;
 * with {@code --records} (implied by {@code --scope}, {@code --workspace}, {@code --[no-]archived}, {@code --pinned}) the session
 * records of one scope through {@link ChatSessionRepository#list}, in catalog order (pinned first, then updated-at
 * descending, then id by UTF-8 bytes).
 */
@Command(name = "sessions", aliases = "list", mixinStandardHelpOptions = true, sortOptions = false, description = {
        "List sessions a page at a time.",
        "Without --records: the message log's sessions (imported transcripts, agent conversations), newest activity "
                + "first.",
        "With --records (implied by --scope, --workspace, --[no-]archived, --pinned): the revisioned session records of a "
                + "scope, pinned first, then most recently updated."})
final class SessionsCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "Sessions per page, 1 to " + dev.parley.core.log.SessionCatalog.MAX_PAGE_SIZE
            + " (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--cursor", paramLabel = "C", description = "Continue after the page that returned this cursor.")
    String cursor;

    @Option(names = "--json", description = "Print {\"sessions\": [...], \"nextCursor\": C or null}.")
    boolean json;

    @Option(names = "--records", description = "List the session records (the repository catalog) instead of the "
            + "message log's sessions.")
    boolean records;

    @Option(names = "--scope", paramLabel = "SCOPE",
            description = "The scope (tenant) whose records to list (default: the store's, parley.scope= in its URI, else"
                    + " default; a URI that binds a scope refuses another; implies --records).")
    String scope;

    @Option(names = "--workspace", paramLabel = "W", description = "Only records of workspace W (implies --records).")
    String workspace;

    @Option(names = "--archived", negatable = true,
            description = "Only archived records; --no-archived: only unarchived ones (implies --records).")
    Boolean archived;

    @Option(names = "--pinned", description = "Only pinned records (implies --records).")
    boolean pinned;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (records || scope != null || workspace != null || archived != null || pinned) {
            return listRecords(out);
        }
        long fellBackBefore = root.fallbacks();
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
            String where = root.fallbacks() > fellBackBefore ? "the fallback store of " + root.storeLabel()
                    + " (the server did not answer; it may hold sessions)" : root.storeLabel();
            out.println(cursor == null ? "no sessions in " + where : "no more sessions");
            return 0;
        }
        out.printf(Locale.ROOT, "%-36s  %-19s  %8s  %8s  %s%n", "SESSION", "UPDATED (UTC)", "ENTRIES", "MESSAGES", "TITLE");
        for (SessionInfo s : page.sessions()) {
            out.printf(Locale.ROOT, "%-36s  %-19s  %8d  %8d  %s%n", s.id().value(), Instants.format(s.updatedAt()).substring(0, 19)
                    .replace('T', ' '), s.entryCount(), s.messageCount(), s.title() == null ? "" : Terminal.line(s.title()));
        }
        if (page.nextCursor() != null) {
            out.println("more: parley" + root.storeOption() + " sessions --limit " + limit + " --cursor " + page.nextCursor());
        }
        return 0;
    }

    private int listRecords(PrintWriter out) {
        if (limit > CatalogQuery.MAX_LIMIT) {
            throw new InvalidInputException("--limit must be from 1 to " + CatalogQuery.MAX_LIMIT + " with --records, got "
                    + limit);
        }
        Store scoped = scope == null ? root.existingStore() : root.existingStore().withScope(scope);
        String shownScope = scoped.scope();
        ChatSessionRepository sessions = scoped.sessions().orElseThrow(() -> new UnsupportedException("the store "
                + root.storeLabel() + " keeps no session records"));
        CatalogPage page = sessions.list(new CatalogQuery(cursor, limit, workspace, archived));
        List<CatalogEntry> items = page.items();
        String next = page.nextCursor();
        if (pinned) {
            // Pinned records come first in catalog order: the first unpinned one ends the listing.
            int firstUnpinned = 0;
            while (firstUnpinned < items.size() && items.get(firstUnpinned).pinned()) {
                firstUnpinned++;
            }
            if (firstUnpinned < items.size()) {
                items = items.subList(0, firstUnpinned);
                next = null;
            }
        }
        if (json) {
            ObjectNode o = Json.object();
            ArrayNode array = o.putArray("sessions");
            items.forEach(e -> array.add(ChatSessionCodec.encodeCatalogEntry(e)));
            if (next == null) {
                o.putNull("nextCursor");
            } else {
                o.put("nextCursor", next);
            }
            out.println(Json.write(o));
            return 0;
        }
        if (items.isEmpty()) {
            out.println(cursor == null ? "no session records in scope " + Terminal.safe(shownScope) + " of " + root.storeLabel()
                    + (workspace != null || archived != null || pinned ? " match the filters" : "")
                    : "no more session records");
            return 0;
        }
        out.printf(Locale.ROOT, "%-36s  %4s  %-19s  %-6s  %-8s  %-16s  %s%n", "SESSION", "REV", "UPDATED (UTC)", "PINNED", "ARCHIVED",
                "WORKSPACE", "NAME");
        for (CatalogEntry e : items) {
            out.printf(Locale.ROOT, "%-36s  %4d  %-19s  %-6s  %-8s  %-16s  %s%n", Terminal.line(e.id()), e.revision(),
                    Instants.format(e.updatedAt()).substring(0, 19).replace('T', ' '), e.pinned() ? "yes" : "",
                    e.archived() ? "yes" : "", e.workspaceId() == null ? "" : Terminal.line(e.workspaceId()),
                    Terminal.line(e.name()));
        }
        if (next != null) {
            StringBuilder again = new StringBuilder("more: parley").append(root.storeOption());
            again.append(" sessions --records");
            if (scope != null) {
                again.append(" --scope ").append(Terminal.shellQuote(scope));
            }
            again.append(" --limit ")
                    .append(limit);
            if (workspace != null) {
                again.append(" --workspace ").append(Terminal.shellQuote(workspace));
            }
            if (archived != null) {
                again.append(archived ? " --archived" : " --no-archived");
            }
            if (pinned) {
                again.append(" --pinned");
            }
            out.println(Terminal.safe(again.append(" --cursor ").append(next).toString()));
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
        if (!s.metadata().isEmpty()) { // an import's source, a framework memory's original id
            o.set("metadata", dev.parley.json.EntryCodec.encodeRawMap(s.metadata()));
        }
        return o;
    }
}
