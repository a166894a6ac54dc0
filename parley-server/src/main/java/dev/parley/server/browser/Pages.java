package dev.parley.server.browser;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.Ids;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.EntryTree;
import dev.parley.core.log.CatalogCursor;
import dev.parley.core.log.LogWindows;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.Lease;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.UnsupportedException;
import dev.parley.formats.Format;
import dev.parley.server.browser.Views.AgentChip;
import dev.parley.server.browser.Views.AgentTotal;
import dev.parley.server.browser.Views.Block;
import dev.parley.server.browser.Views.EntryView;
import dev.parley.server.browser.Views.ExportLink;
import dev.parley.server.browser.Views.Fact;
import dev.parley.server.browser.Views.Filters;
import dev.parley.server.browser.Views.Frame;
import dev.parley.server.browser.Views.LineView;
import dev.parley.server.browser.Views.ListPage;
import dev.parley.server.browser.Views.QueuedView;
import dev.parley.server.browser.Views.RecordFilters;
import dev.parley.server.browser.Views.RecordPage;
import dev.parley.server.browser.Views.RecordRow;
import dev.parley.server.browser.Views.RecordsPage;
import dev.parley.server.browser.Views.SessionRow;
import dev.parley.server.browser.Views.TreePage;
import dev.parley.server.browser.Views.TreeRow;
import dev.parley.server.browser.Views.TurnView;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Builds the browser's pages from a store: no HTTP here, only reads through the store's SPI. Every read is bounded:
 * the list walks the catalog's keyset pages and reads each listed session's stored per-agent usage
 * ({@link dev.parley.core.log.MessageLog#loadAgentUsage}); the session view reads one window of entries
 * ({@link dev.parley.core.log.MessageLog#loadAfter}). Only the tree and a leaf's conversation load a whole session.
 * Thread-safe (stateless).
 */
final class Pages {
    /** How many agent colours (and lanes) the style sheet has. */
    public static final int COLOURS = 8;
    /** Sessions per list page. */
    public static final int LIST_PAGE = 25;
    /** Entries per window of the session view. */
    public static final int WINDOW = 200;
    /** Entries read past a window's end to pair its last tool calls with their results. */
    static final int LOOKAHEAD = 64;
    /** The most sessions one list request looks at when filtering on catalog fields (title, format, time). */
    static final int SCAN_BUDGET = 2_000;
    /** The most sessions one list request looks at when a filter reads per-session aggregates (agent). */
    static final int AGENT_BUDGET = 500;
    /** The most sessions one list request reads whole when searching their text. */
    static final int TEXT_BUDGET = 100;
    /** Records per page of the record catalog. */
    static final int RECORD_PAGE = 50;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Pages() {}

    // ---- the session list ----

    /**
     * One page of the session list, newest activity first. Without filters it is the catalog's keyset page. With
     * filters it walks keyset pages from {@code cursor} and stops after {@link #LIST_PAGE} matches or a budget of
     * sessions looked at, whichever comes first; the next link continues the walk, and the note says how far it went.
     * {@code until} starts the walk at that time; {@code since} ends it (the order is by activity). A query that is a
     * valid id matches id prefixes through the catalog's prefix index first.
     */
    public static ListPage list(Store store, Frame frame, Filters f, @Nullable String cursor) {
        SessionCatalog catalog = store.catalog().orElseThrow(() ->
                new UnsupportedException("the store keeps no catalog: there are no sessions to list"));
        List<String> formats = new ArrayList<>();
        for (Format format : Format.values()) {
            formats.add(format.cliName());
        }
        Instant since = f.since().isEmpty() ? null : day(f.since(), "since");
        Instant until = f.until().isEmpty() ? null : day(f.until(), "until").plusSeconds(86_400);
        String q = f.q().strip();
        List<SessionRow> rows = new ArrayList<>();
        if (!f.any()) {
            var page = catalog.list(cursor, LIST_PAGE);
            for (SessionInfo info : page.sessions()) {
                rows.add(row(store, info));
            }
            return new ListPage(frame, f, formats, rows, page.nextCursor() == null ? null
                    : listHref(f, page.nextCursor()), cursor == null ? null : listHref(f, null), null);
        }
        if (cursor == null && !q.isEmpty() && Ids.isValid(q)) {
            for (SessionId id : catalog.findByPrefix(q, LIST_PAGE)) {
                catalog.find(id).filter(info -> cheap(info, f, since, until)).ifPresent(info -> rows.add(row(store,
                        info)));
            }
            if (!rows.isEmpty()) {
                return new ListPage(frame, f, formats, rows, null, null, "sessions whose id starts with " + q);
            }
        }
        String at = cursor;
        if (at == null && until != null) {
            at = new CatalogCursor(until, new SessionId("0")).encode();
        }
        String lowered = q.toLowerCase(Locale.ROOT);
        int budget = !f.agent().isEmpty() ? AGENT_BUDGET : SCAN_BUDGET;
        int textBudget = TEXT_BUDGET;
        int looked = 0;
        String next = null;
        boolean ended = false;
        walk:
        while (true) {
            var page = catalog.list(at, SessionCatalog.MAX_PAGE_SIZE);
            for (SessionInfo info : page.sessions()) {
                if (since != null && info.updatedAt().isBefore(since)) {
                    ended = true;
                    break walk;
                }
                looked++;
                at = CatalogCursor.after(info).encode();
                if (cheap(info, f, since, until)) {
                    boolean matches = true;
                    Map<AgentId, Usage> agents = null;
                    if (!f.agent().isEmpty()) {
                        agents = store.log().loadAgentUsage(info.id());
                        matches = agents.keySet().stream().anyMatch(a -> a.value().equalsIgnoreCase(f.agent().strip()));
                    }
                    if (matches && !q.isEmpty()) {
                        boolean inTitle = info.title() != null && info.title().toLowerCase(Locale.ROOT).contains(lowered);
                        boolean inId = info.id().value().startsWith(q);
                        if (!inTitle && !inId) {
                            matches = textBudget-- > 0 && containsText(store, info.id(), lowered);
                        }
                    }
                    if (matches) {
                        rows.add(row(store, info));
                    }
                }
                if (rows.size() >= LIST_PAGE || looked >= budget || (!q.isEmpty() && textBudget <= 0)) {
                    next = at;
                    break walk;
                }
            }
            if (page.nextCursor() == null) {
                ended = true;
                break;
            }
            at = page.nextCursor();
        }
        String note = "looked at " + looked + " session" + (looked == 1 ? "" : "s")
                + (ended ? " (to the end of the range)" : "; more may match further on");
        return new ListPage(frame, f, formats, rows, ended || next == null ? null : listHref(f, next),
                cursor == null ? null : listHref(f, null), note);
    }

    private static boolean cheap(SessionInfo info, Filters f, @Nullable Instant since, @Nullable Instant until) {
        String format = f.format();
        if (format.equals("native")) {
            if (info.origin() != null) {
                return false;
            }
        } else if (!format.isEmpty() && (info.origin() == null || !info.origin().startsWith(format + ":"))) {
            return false;
        }
        if (since != null && info.updatedAt().isBefore(since)) {
            return false;
        }
        return until == null || info.updatedAt().isBefore(until);
    }

    private static boolean containsText(Store store, SessionId id, String lowered) {
        for (Entry e : store.log().load(id, null)) {
            Message m = e.message();
            if (m != null) {
                for (ContentBlock b : m.content()) {
                    String t = b instanceof ContentBlock.Text x ? x.text()
                            : b instanceof ContentBlock.ToolResult r ? r.text() : null;
                    if (t != null && t.toLowerCase(Locale.ROOT).contains(lowered)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static Instant day(String text, String what) {
        LocalDate date;
        try {
            date = LocalDate.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new InvalidInputException("the filter '" + what + "' is a date (YYYY-MM-DD), not " + text, e);
        }
        // A catalog cursor holds milliseconds since the epoch: a year far outside these overflowed it (a 500).
        if (date.getYear() < 1 || date.getYear() > 9999) {
            throw new InvalidInputException("the filter '" + what + "' is a date from 0001-01-01 to 9999-12-31, not "
                    + text);
        }
        return date.atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    private static SessionRow row(Store store, SessionInfo info) {
        Map<AgentId, Usage> agents = store.log().loadAgentUsage(info.id());
        List<AgentChip> chips = new ArrayList<>();
        Usage total = Usage.ZERO;
        int i = 0;
        for (Map.Entry<AgentId, Usage> a : agents.entrySet()) {
            chips.add(new AgentChip(a.getKey().value(), i++ % COLOURS));
            total = total.plus(a.getValue());
        }
        String format = info.origin() == null ? null : info.origin().substring(0, Math.max(0, info.origin().indexOf(':')));
        return new SessionRow(info.id().value(), sessionHref(info.id()), title(info), format,
                TIME.format(info.updatedAt()), TIME.format(info.createdAt()), chips, info.messageCount(),
                info.entryCount(), total.totalTokens(), cost(total.costUsd()));
    }

    private static String title(SessionInfo info) {
        return info.title() == null || info.title().isBlank() ? "(untitled)" : Visible.line(info.title(), 160);
    }

    // ---- the session view ----

    /**
     * One window of a session: the entries after {@code after} (at most {@link #WINDOW}), every agent interleaved
     * in insertion order; or, with a {@code leaf}, the window of that leaf's conversation path.
     *
     * @throws NotFoundException if there is no such session or leaf
     */
    public static Views.SessionPage session(Store store, Frame frame, SessionId id, long after, @Nullable EntryId leaf) {
        LogWindows.check(after, 1);
        SessionInfo info = find(store, id);
        Map<AgentId, Usage> usage = store.log().loadAgentUsage(id);
        Map<AgentId, Integer> colours = colours(usage.keySet());
        List<Entry> window;
        List<Entry> lookahead;
        boolean more;
        if (leaf == null) {
            List<Entry> read = store.log().loadAfter(id, after, WINDOW + 1);
            more = read.size() > WINDOW;
            window = more ? read.subList(0, WINDOW) : read;
            lookahead = more && !window.isEmpty()
                    ? store.log().loadAfter(id, window.get(window.size() - 1).seq(), LOOKAHEAD) : List.of();
        } else {
            List<Entry> path = EntryTree.of(store.log().load(id, null)).path(leaf);
            List<Entry> read = LogWindows.cut(path, after, WINDOW + LOOKAHEAD);
            more = read.size() > WINDOW;
            window = more ? read.subList(0, WINDOW) : read;
            lookahead = more ? read.subList(WINDOW, read.size()) : List.of();
        }
        for (Entry e : window) {
            colours.computeIfAbsent(e.agentId(), a -> colours.size());
        }
        List<EntryView> views = entryViews(id, window, lookahead, colours, !more && leaf == null);
        List<AgentTotal> totals = new ArrayList<>();
        Usage all = Usage.ZERO;
        for (Map.Entry<AgentId, Usage> a : usage.entrySet()) {
            totals.add(new AgentTotal(new AgentChip(a.getKey().value(), colours.get(a.getKey()) % COLOURS),
                    usageLine(a.getValue()), cost(a.getValue().costUsd())));
            all = all.plus(a.getValue());
        }
        List<ExportLink> exports = new ArrayList<>();
        for (Format format : Format.values()) {
            exports.add(new ExportLink(format.cliName(), sessionHref(id) + "/export/" + format.cliName()));
        }
        String base = sessionHref(id) + (leaf == null ? "" : "?leaf=" + leaf.value());
        String join = leaf == null ? "?" : "&";
        long last = window.isEmpty() ? after : window.get(window.size() - 1).seq();
        String windowNote = window.isEmpty() ? "no entries" + (after > 0 ? " after seq " + after : "")
                : "entries seq " + window.get(0).seq() + " to " + last + (more ? " (more follow)" : " (the end)");
        Frame titled = new Frame(title(info), frame.active(), frame.scopeNote(), frame.loggedIn());
        return new Views.SessionPage(titled, id.value(), title(info), info.origin() == null ? null
                : Visible.line(info.origin(), 200), TIME.format(info.createdAt()), TIME.format(info.updatedAt()),
                info.entryCount(), info.messageCount(), totals, usageLine(all), cost(all.costUsd()), views,
                leaf == null ? null : leaf.value(), after > 0 ? base : null,
                more ? base + join + "after=" + last : null,
                more || leaf != null ? null : sessionHref(id) + "/live?after=" + last, exports,
                sessionHref(id) + "/tree", sessionHref(id), windowNote);
    }

    /** The entries after {@code after} rendered as the timeline renders them (the live stream's events). */
    public static List<EntryView> entriesAfter(Store store, SessionId id, long after, int limit) {
        Map<AgentId, Integer> colours = colours(store.log().loadAgentUsage(id).keySet());
        List<Entry> read = store.log().loadAfter(id, after, limit);
        for (Entry e : read) {
            colours.computeIfAbsent(e.agentId(), a -> colours.size());
        }
        return entryViews(id, read, List.of(), colours, false);
    }

    private static Map<AgentId, Integer> colours(Iterable<AgentId> agents) {
        Map<AgentId, Integer> out = new LinkedHashMap<>();
        for (AgentId a : agents) {
            out.put(a, out.size());
        }
        return out;
    }

    private static List<EntryView> entryViews(SessionId id, List<Entry> window, List<Entry> lookahead,
                                              Map<AgentId, Integer> colours, boolean atEnd) {
        Map<String, ContentBlock.ToolResult> results = new HashMap<>();
        Map<String, String> resultEntry = new HashMap<>();
        Map<String, String> callEntry = new HashMap<>();
        for (List<Entry> part : List.of(window, lookahead)) {
            for (Entry e : part) {
                Message m = e.message();
                if (m != null) {
                    for (ContentBlock.ToolResult r : m.toolResults()) {
                        results.putIfAbsent(r.callId(), r);
                        resultEntry.putIfAbsent(r.callId(), e.id().value());
                    }
                }
            }
        }
        for (Entry e : window) {
            Message m = e.message();
            if (m != null) {
                for (ContentBlock.ToolCall c : m.toolCalls()) {
                    if (c.id() != null) {
                        callEntry.putIfAbsent(c.id(), e.id().value());
                    }
                }
            }
        }
        Entry lastMessage = null;
        if (atEnd) {
            for (int i = window.size() - 1; i >= 0 && lastMessage == null; i--) {
                if (window.get(i).message() != null) {
                    lastMessage = window.get(i);
                }
            }
        }
        List<EntryView> out = new ArrayList<>(window.size());
        for (Entry e : window) {
            int colour = colours.getOrDefault(e.agentId(), 0);
            boolean dangling = e == lastMessage && e.message().role() == Role.USER;
            out.add(entryView(id, e, colour, results, resultEntry, callEntry, dangling));
        }
        return out;
    }

    private static EntryView entryView(SessionId session, Entry e, int colour, Map<String, ContentBlock.ToolResult> results,
                                       Map<String, String> resultEntry, Map<String, String> callEntry,
                                       boolean dangling) {
        List<Block> blocks = new ArrayList<>();
        String role;
        String usage = null;
        String model = null;
        EntryPayload p = e.payload();
        if (p instanceof Message m) {
            role = m.role().name().toLowerCase(Locale.ROOT);
            for (ContentBlock b : m.content()) {
                blocks.add(block(b, results, resultEntry, callEntry));
            }
            if (m.errorMessage() != null) {
                blocks.add(note("error", m.errorMessage()));
            }
            if (m.usage() != null) {
                usage = usageLine(m.usage()) + (m.usage().costUsd() == null ? "" : " \u00b7 " + cost(m.usage().costUsd()));
            }
            model = m.model() == null ? null : Visible.line((m.provider() == null ? "" : m.provider() + "/") + m.model(), 80);
        } else {
            role = e.kind().wireName();
            if (p instanceof EntryPayload.Compaction c) {
                blocks.add(new Block("compaction", "compaction", c.summary() == null
                        ? "(the summary is the next message)" : Visible.text(c.summary()),
                        (c.tokensBefore() == null ? "" : c.tokensBefore() + " tokens before")
                                + (c.firstKeptEntryId() == null ? "" : "; kept from " + c.firstKeptEntryId().value()),
                        null, false, null));
            } else if (p instanceof EntryPayload.ModelChange mc) {
                blocks.add(note("model", (mc.provider() == null ? "" : mc.provider() + "/") + mc.model()));
            } else if (p instanceof EntryPayload.ThinkingLevelChange t) {
                blocks.add(note("thinking level", t.level()));
            } else if (p instanceof EntryPayload.Label l) {
                blocks.add(note("label", (l.label() == null ? "(removed)" : l.label()) + " on " + l.targetId().value()));
            } else if (p instanceof EntryPayload.BranchSummary b) {
                blocks.add(note("branch summary", b.summary()));
            } else if (p instanceof EntryPayload.SessionName n) {
                blocks.add(note("session name", n.name() == null ? "(cleared)" : n.name()));
            } else if (p instanceof EntryPayload.Custom c) {
                blocks.add(new Block("item", c.customType(), Visible.text(c.data().text()), null, null, false, null));
            }
        }
        return new EntryView(e.seq(), e.id().value(), domId(e.id().value()), entryHref(session, e.id()),
                e.parentId() == null ? null : e.parentId().value(), Visible.line(e.agentId().value(), 64),
                colour % COLOURS, Math.min(colour, COLOURS - 1), role,
                e.timestamp() == null ? "" : TIME.format(e.timestamp()), blocks, usage, model, dangling);
    }

    private static Block note(String title, String text) {
        return new Block("note", title, Visible.text(text), null, null, false, null);
    }

    private static Block block(ContentBlock b, Map<String, ContentBlock.ToolResult> results,
                               Map<String, String> resultEntry, Map<String, String> callEntry) {
        if (b instanceof ContentBlock.Text t) {
            return new Block("text", "", Visible.text(t.text()), null, null, false, null);
        } else if (b instanceof ContentBlock.Thinking t) {
            return new Block("thinking", "thinking", Visible.text(t.text().isEmpty() && t.signature() != null
                    ? "(signed, no text)" : t.text()), null, null, false, null);
        } else if (b instanceof ContentBlock.ToolCall c) {
            ContentBlock.ToolResult r = c.id() == null ? null : results.get(c.id());
            return new Block("tool", Visible.line(c.name(), 80), Visible.text(pretty(c.arguments().text())),
                    r == null ? null : resultText(r), null, r != null && r.isError(),
                    r == null ? null : domId(resultEntry.get(c.id())));
        } else if (b instanceof ContentBlock.ToolResult r) {
            String call = callEntry.get(r.callId());
            String name = Visible.line(r.toolName() == null ? r.callId() : r.toolName(), 80);
            if (call != null) {
                return new Block("paired", name, "", null, null, r.isError(), domId(call));
            }
            return new Block("result", name, resultText(r), "call " + Visible.line(r.callId(), 80), null,
                    r.isError(), null);
        } else if (b instanceof ContentBlock.Image i) {
            String src = i.data() != null
                    ? "data:" + (i.mediaType() == null || !i.mediaType().startsWith("image/") ? "image/png"
                    : i.mediaType()) + ";base64," + i.data()
                    : i.url();
            boolean safe = src != null && (src.startsWith("data:image/") || src.startsWith("https://")
                    || src.startsWith("http://"));
            return new Block("image", i.mediaType() == null ? "image" : Visible.line(i.mediaType(), 60),
                    safe ? "" : Visible.text(String.valueOf(src)), null, safe ? src : null, false, null);
        } else if (b instanceof ContentBlock.File f) {
            String what = f.name() != null ? f.name() : f.mediaType() != null ? f.mediaType() : "file";
            return new Block("file", Visible.line(what, 80), f.url() != null ? Visible.text(f.url())
                    : (f.data().length() * 3 / 4) + " bytes inline", null, null, false, null);
        } else if (b instanceof ContentBlock.ProviderItem item) {
            return new Block("item", Visible.line(item.type(), 80), Visible.text(item.item().text()), null, null,
                    false, null);
        }
        return new Block("note", "block", Visible.text(String.valueOf(b)), null, null, false, null);
    }

    private static String resultText(ContentBlock.ToolResult r) {
        StringBuilder out = new StringBuilder(r.text());
        long images = r.content().stream().filter(c -> c instanceof ContentBlock.Image).count();
        if (images > 0) {
            out.append(out.length() == 0 ? "" : "\n").append("[").append(images).append(" image")
                    .append(images == 1 ? "" : "s").append("]");
        }
        return Visible.text(out.toString());
    }

    private static String pretty(String json) {
        try {
            var node = dev.parley.json.Json.parse(json);
            return dev.parley.json.Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return json;
        }
    }

    // ---- the tree ----

    /**
     * The session's entry tree: one row per run of entries with a single child, indented at branch points; every
     * leaf links to its conversation, and the active leaf (the most recent entry that is not a detached event) is
     * marked. Loads the whole session.
     */
    public static TreePage tree(Store store, Frame frame, SessionId id) {
        SessionInfo info = find(store, id);
        EntryTree tree = EntryTree.of(store.log().load(id, null));
        Map<AgentId, Integer> colours = colours(store.log().loadAgentUsage(id).keySet());
        Optional<Entry> active = tree.activeLeaf(null);
        List<TreeRow> rows = new ArrayList<>();
        Deque<Object[]> stack = new ArrayDeque<>();
        List<Entry> roots = tree.roots().stream().filter(e -> !tree.isDetached(e)).toList();
        for (int i = roots.size() - 1; i >= 0; i--) {
            stack.push(new Object[] {roots.get(i), 0});
        }
        int leaves = 0;
        while (!stack.isEmpty()) {
            Object[] top = stack.pop();
            Entry start = (Entry) top[0];
            int depth = (Integer) top[1];
            Entry end = start;
            int run = 1;
            String preview = preview(start);
            List<Entry> kids = live(tree, end);
            while (kids.size() == 1) {
                end = kids.get(0);
                run++;
                if (preview.isEmpty()) {
                    preview = preview(end);
                }
                kids = live(tree, end);
            }
            boolean leaf = kids.isEmpty();
            leaves += leaf ? 1 : 0;
            boolean isActive = active.isPresent() && active.get().id().equals(end.id());
            rows.add(new TreeRow(depth, start.id().value(), entryHref(id, start.id()),
                    Visible.line(start.agentId().value(), 64), colours.getOrDefault(start.agentId(), 0) % COLOURS,
                    role(start), preview, run, kids.size() > 1, leaf, isActive,
                    sessionHref(id) + "?leaf=" + end.id().value()));
            for (int i = kids.size() - 1; i >= 0; i--) {
                stack.push(new Object[] {kids.get(i), depth + 1});
            }
        }
        return new TreePage(frame, id.value(), title(info), sessionHref(id), rows, leaves,
                active.map(e -> sessionHref(id) + "?leaf=" + e.id().value()).orElse(null));
    }

    private static List<Entry> live(EntryTree tree, Entry e) {
        return tree.children(e.id()).stream().filter(c -> !tree.isDetached(c)).toList();
    }

    private static String role(Entry e) {
        Message m = e.message();
        return m == null ? e.kind().wireName() : m.role().name().toLowerCase(Locale.ROOT);
    }

    private static String preview(Entry e) {
        Message m = e.message();
        if (m == null) {
            return "";
        }
        String t = m.text();
        if (t.isBlank() && !m.toolCalls().isEmpty()) {
            t = "\u2192 " + m.toolCalls().get(0).name();
        }
        return Visible.line(t, 120);
    }

    // ---- session records ----

    /** One page of the session-record catalog (pinned first, then newest), with its filters. */
    public static RecordsPage records(Store store, Frame frame, RecordFilters f, @Nullable String cursor) {
        Optional<ChatSessionRepository> repo = store.sessions();
        if (repo.isEmpty()) {
            return new RecordsPage(frame, f, List.of(), null, null, false);
        }
        Boolean archived = f.archived().equals("yes") ? Boolean.TRUE : f.archived().equals("no") ? Boolean.FALSE : null;
        String workspace = f.workspace().isBlank() ? null : f.workspace().strip();
        List<RecordRow> rows = new ArrayList<>();
        CatalogPage page = repo.get().list(new CatalogQuery(cursor, RECORD_PAGE, workspace, archived));
        String next = page.nextCursor();
        for (CatalogEntry e : page.items()) {
            if (f.pinned().equals("yes") && !e.pinned()) {
                next = null; // the catalog sorts pinned records first: no pinned record follows
                break;
            }
            if (f.pinned().equals("no") && e.pinned()) {
                continue;
            }
            rows.add(new RecordRow(e.id(), recordHref(e.id()), Visible.line(e.name(), 160), e.revision(),
                    e.pinned(), e.workspaceId() == null ? null : Visible.line(e.workspaceId(), 80),
                    e.archived(), TIME.format(e.updatedAt()), lease(e.lease())));
        }
        return new RecordsPage(frame, f, rows, next == null ? null : recordsHref(f, next), null, true);
    }

    static String recordsHref(RecordFilters f, @Nullable String cursor) {
        return href("/records", "pinned", f.pinned(), "workspace", f.workspace(), "archived", f.archived(),
                "cursor", cursor == null ? "" : cursor);
    }

    private static @Nullable String lease(@Nullable Lease l) {
        return l == null ? null : Visible.line(l.ownerKind() + " " + l.ownerId() + " (token " + l.fencingToken() + ")", 120);
    }

    /** One session record: revision, facts, lease, turns, queued prompts and its conversation lines. */
    public static RecordPage record(Store store, Frame frame, String id) {
        ChatSessionRepository repo = store.sessions().orElseThrow(() ->
                new UnsupportedException("the store has no session records"));
        StoredSession stored = repo.read(id).orElseThrow(() -> new NotFoundException("no session record " + id));
        ChatSession s = stored.session();
        List<Fact> facts = new ArrayList<>();
        facts.add(new Fact("revision", Long.toString(stored.revision())));
        facts.add(new Fact("pinned", s.pinned() ? "yes" : "no"));
        facts.add(new Fact("workspace", s.workspaceId() == null ? "\u2014" : Visible.line(s.workspaceId(), 200)));
        facts.add(new Fact("archived", s.archivedAt() == null ? "no" : TIME.format(s.archivedAt())));
        facts.add(new Fact("created", TIME.format(s.createdAt())));
        facts.add(new Fact("updated", TIME.format(s.updatedAt())));
        facts.add(new Fact("model", s.model() == null ? "\u2014" : Visible.line(s.model(), 120)));
        facts.add(new Fact("reasoning effort", s.reasoningEffort() == null ? "\u2014" : s.reasoningEffort()));
        facts.add(new Fact("lease epoch", s.leaseEpoch() == null ? "\u2014" : Long.toString(s.leaseEpoch())));
        facts.add(new Fact("archives", Integer.toString(s.archivesOrEmpty().size())));
        List<Fact> lease = null;
        if (s.lease() != null) {
            Lease l = s.lease();
            lease = List.of(new Fact("owner kind", l.ownerKind()), new Fact("owner", Visible.line(l.ownerId(), 200)),
                    new Fact("host", l.hostId() == null ? "\u2014" : Visible.line(l.hostId(), 200)),
                    new Fact("fencing token", Long.toString(l.fencingToken())),
                    new Fact("acquired", TIME.format(l.acquiredAt())), new Fact("last seen", TIME.format(l.lastSeenAt())),
                    new Fact("client", l.clientLabel() == null ? "\u2014" : Visible.line(l.clientLabel(), 200)));
        }
        List<TurnView> turns = s.turns().stream().map(t -> new TurnView(Visible.line(t.id(), 80), Visible.text(t.prompt()),
                Visible.line(t.outcome(), 80), Visible.text(t.summary()), t.steps())).toList();
        List<QueuedView> queued = s.queuedPrompts().stream().map(q -> new QueuedView(Visible.line(q.id(), 80),
                Visible.text(q.prompt()), TIME.format(q.createdAt()))).toList();
        List<LineView> lines = s.messages().stream().map(l -> new LineView(Visible.line(l.role(), 40),
                Visible.text(l.text()))).toList();
        return new RecordPage(frame, id, Visible.line(s.name(), 200), stored.revision(), facts, lease, turns, queued,
                lines);
    }

    // ---- shared ----

    private static SessionInfo find(Store store, SessionId id) {
        SessionCatalog catalog = store.catalog().orElseThrow(() -> new UnsupportedException("the store keeps no catalog"));
        return catalog.find(id).orElseThrow(() -> new NotFoundException("no session " + id));
    }

    /** The usage as one line: input, output, cache read and write tokens. */
    static String usageLine(Usage u) {
        return String.format(Locale.ROOT, "in %,d \u00b7 out %,d \u00b7 cache read %,d \u00b7 cache write %,d",
                u.inputTokens(), u.outputTokens(), u.cacheReadTokens(), u.cacheWriteTokens());
    }

    static @Nullable String cost(@Nullable BigDecimal usd) {
        return usd == null ? null : "$" + usd.setScale(4, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    /** The element id of an entry in the timeline. */
    static String domId(@Nullable String entryId) {
        return entryId == null ? "" : "e-" + entryId;
    }

    /** The URL of a session. Session ids are validated to URL-safe characters. */
    public static String sessionHref(SessionId id) {
        return "/s/" + id.value();
    }

    /** The permalink of an entry. */
    public static String entryHref(SessionId session, EntryId entry) {
        return sessionHref(session) + "/e/" + entry.value();
    }

    /** The URL of a session record (record ids may hold any character: they go in the query). */
    public static String recordHref(String id) {
        return "/records/view?id=" + enc(id);
    }

    static String listHref(Filters f, @Nullable String cursor) {
        return href("/", "q", f.q(), "format", f.format(), "agent", f.agent(), "since", f.since(), "until", f.until(),
                "cursor", cursor == null ? "" : cursor);
    }

    /** {@code path} with the non-empty parameters, given as name, value, name, value… */
    private static String href(String path, String... namesAndValues) {
        StringBuilder out = new StringBuilder(path);
        char sep = '?';
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (!namesAndValues[i + 1].isEmpty()) {
                out.append(sep).append(namesAndValues[i]).append('=').append(enc(namesAndValues[i + 1]));
                sep = '&';
            }
        }
        return out.toString();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
