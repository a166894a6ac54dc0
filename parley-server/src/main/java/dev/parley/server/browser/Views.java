package dev.parley.server.browser;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The values the browser's templates render: already made visible ({@link Visible}) but not escaped (the templates
 * escape). Immutable. Public only because the precompiled templates live in another package; not API.
 */
public final class Views {
    private Views() {}

    /** The frame every page shares. {@code scopeNote} is null when no token is in use. */
    public record Frame(String title, String active, @Nullable String scopeNote, boolean loggedIn) {}

    /** An agent as a chip: its name and its colour (0 to 7, one of the style sheet's eight). */
    public record AgentChip(String name, int colour) {}

    /**
     * One row of the session list.
     *
     * @param id the session's id
     * @param href the session's URL
     * @param title the session's title on one line, or {@code (untitled)}
     * @param format the transcript format the session was imported from (its origin's prefix), or null for
     *     one that was not imported
     * @param updated the time of the last activity, {@code yyyy-MM-dd HH:mm:ss} in UTC
     * @param created the creation time, {@code yyyy-MM-dd HH:mm:ss} in UTC
     * @param agents the agents that wrote entries in the session, in the order of their first entry
     * @param messages how many messages the session holds
     * @param entries how many entries the session holds
     * @param tokens every agent's tokens summed ({@link dev.parley.core.model.Usage#totalTokens()})
     * @param cost every agent's cost summed, as {@code $0.0000}, or null when no cost is known
     */
    public record SessionRow(String id, String href, String title, @Nullable String format, String updated,
                             String created, List<AgentChip> agents, long messages, long entries, long tokens,
                             @Nullable String cost) {
        /**
         * Copies {@code agents}.
         *
         * @param id the session's id
         * @param href the session's URL
         * @param title the session's title on one line, or {@code (untitled)}
         * @param format the transcript format the session was imported from (its origin's prefix), or null for
         *     one that was not imported
         * @param updated the time of the last activity, {@code yyyy-MM-dd HH:mm:ss} in UTC
         * @param created the creation time, {@code yyyy-MM-dd HH:mm:ss} in UTC
         * @param agents the agents that wrote entries in the session, in the order of their first entry
         * @param messages how many messages the session holds
         * @param entries how many entries the session holds
         * @param tokens every agent's tokens summed ({@link dev.parley.core.model.Usage#totalTokens()})
         * @param cost every agent's cost summed, as {@code $0.0000}, or null when no cost is known
         * @throws NullPointerException if {@code agents} is null or holds a null
         */
        public SessionRow {
            agents = List.copyOf(agents);
        }
    }

    /** The list's filters as the form shows them (empty strings for unset). */
    public record Filters(String q, String format, String agent, String since, String until) {
        /**
         * Whether any filter is set (not empty). The parts must not be null; the record does not check them.
         *
         * @return true when at least one filter is not empty
         */
        public boolean any() {
            return !(q.isEmpty() && format.isEmpty() && agent.isEmpty() && since.isEmpty() && until.isEmpty());
        }
    }

    /**
     * The session list.
     *
     * @param frame the page's frame
     * @param filters the filters, as the form shows them
     * @param formats the format names the format filter offers
     * @param rows the sessions of this page
     * @param next the href of the next page, or null on the last
     * @param first the href of the first page, or null on the first
     * @param note what a bounded search looked at, or null
     */
    public record ListPage(Frame frame, Filters filters, List<String> formats, List<SessionRow> rows,
                           @Nullable String next, @Nullable String first, @Nullable String note) {
        /**
         * Copies the lists.
         *
         * @param frame the page's frame
         * @param filters the filters, as the form shows them
         * @param formats the format names the format filter offers
         * @param rows the sessions of this page
         * @param next the href of the next page, or null on the last
         * @param first the href of the first page, or null on the first
         * @param note what a bounded search looked at, or null
         * @throws NullPointerException if {@code formats} or {@code rows} is null or holds a null
         */
        public ListPage {
            rows = List.copyOf(rows);
            formats = List.copyOf(formats);
        }
    }

    /**
     * One block of an entry.
     *
     * @param kind {@code text}, {@code thinking}, {@code tool}, {@code result} (a result whose call is not on the
     *     page), {@code paired} (a result shown with its call), {@code image}, {@code file}, {@code item} or
     *     {@code note}
     * @param title a short label (a tool's name, a note's kind)
     * @param text the main text (a tool call's arguments, a thinking text)
     * @param detail the second text (a tool call's result), or null
     * @param src an image's URL ({@code data:} or http), or null
     * @param error whether a tool result reported failure
     * @param anchor the element id of the paired block, or null
     */
    public record Block(String kind, String title, String text, @Nullable String detail, @Nullable String src,
                        boolean error, @Nullable String anchor) {}

    /**
     * One entry of the timeline.
     *
     * @param seq the entry's seq
     * @param id the entry's id
     * @param domId the element id of the entry in the timeline
     * @param permalink the entry's permalink
     * @param parentId the parent entry's id, or null for a root
     * @param agent the agent's id, on one line
     * @param colour the agent's colour, 0 to 7
     * @param lane the agent's lane, 0 to 7 (agents past the eighth share the last)
     * @param role {@code user}, {@code assistant}, {@code tool}, {@code system} or the entry kind for other entries
     *     ({@code compaction}, {@code model_change}, {@code custom}…)
     * @param time the entry's time, {@code yyyy-MM-dd HH:mm:ss} in UTC, or empty when it has none
     * @param blocks the entry's blocks, in order
     * @param usage the message's usage as one line, or null
     * @param model the model that wrote the message, as {@code provider/model} or the model alone, or null
     * @param dangling whether this is a user message left without a reply: the last message, at the end of the
     *     log; false in the live stream
     */
    public record EntryView(long seq, String id, String domId, String permalink, @Nullable String parentId,
                            String agent, int colour, int lane, String role, String time, List<Block> blocks,
                            @Nullable String usage, @Nullable String model, boolean dangling) {
        /**
         * Copies {@code blocks}.
         *
         * @param seq the entry's seq
         * @param id the entry's id
         * @param domId the element id of the entry in the timeline
         * @param permalink the entry's permalink
         * @param parentId the parent entry's id, or null for a root
         * @param agent the agent's id, on one line
         * @param colour the agent's colour, 0 to 7
         * @param lane the agent's lane, 0 to 7 (agents past the eighth share the last)
         * @param role {@code user}, {@code assistant}, {@code tool}, {@code system} or the entry kind for other entries
         *     ({@code compaction}, {@code model_change}, {@code custom}…)
         * @param time the entry's time, {@code yyyy-MM-dd HH:mm:ss} in UTC, or empty when it has none
         * @param blocks the entry's blocks, in order
         * @param usage the message's usage as one line, or null
         * @param model the model that wrote the message, as {@code provider/model} or the model alone, or null
         * @param dangling whether this is a user message left without a reply: the last message, at the end of the
         *     log; false in the live stream
         * @throws NullPointerException if {@code blocks} is null or holds a null
         */
        public EntryView {
            blocks = List.copyOf(blocks);
        }
    }

    /** An agent's totals in the session header. */
    public record AgentTotal(AgentChip agent, String usage, @Nullable String cost) {}

    /** An export link. */
    public record ExportLink(String name, String href) {}

    /**
     * The session view: one window of the timeline.
     *
     * @param frame the page's frame, titled with the session's title
     * @param id the session's id
     * @param title the session's title on one line, or {@code (untitled)}
     * @param origin where the session was imported from, on one line, or null
     * @param created the creation time, {@code yyyy-MM-dd HH:mm:ss} in UTC
     * @param updated the time of the last activity, {@code yyyy-MM-dd HH:mm:ss} in UTC
     * @param entryCount how many entries the session holds
     * @param messageCount how many messages the session holds
     * @param agents each agent's usage and cost
     * @param totalUsage every agent's usage summed, as one line
     * @param totalCost every agent's cost summed, or null when no cost is known
     * @param entries the window's entries, in seq order
     * @param leaf the entry whose conversation is shown, or null for the whole log
     * @param first the href of the first window, or null when this is the first
     * @param next the href of the next window, or null at the end
     * @param liveUrl the event stream to follow, or null when this is not the end of the log
     * @param exports a download link per transcript format
     * @param treeHref the URL of the session's tree
     * @param href the session's URL
     * @param windowNote which seqs the window holds, and whether more follow
     */
    public record SessionPage(Frame frame, String id, String title, @Nullable String origin, String created,
                              String updated, long entryCount, long messageCount, List<AgentTotal> agents,
                              String totalUsage, @Nullable String totalCost, List<EntryView> entries,
                              @Nullable String leaf, @Nullable String first, @Nullable String next,
                              @Nullable String liveUrl, List<ExportLink> exports, String treeHref, String href,
                              String windowNote) {
        /**
         * Copies the lists.
         *
         * @param frame the page's frame, titled with the session's title
         * @param id the session's id
         * @param title the session's title on one line, or {@code (untitled)}
         * @param origin where the session was imported from, on one line, or null
         * @param created the creation time, {@code yyyy-MM-dd HH:mm:ss} in UTC
         * @param updated the time of the last activity, {@code yyyy-MM-dd HH:mm:ss} in UTC
         * @param entryCount how many entries the session holds
         * @param messageCount how many messages the session holds
         * @param agents each agent's usage and cost
         * @param totalUsage every agent's usage summed, as one line
         * @param totalCost every agent's cost summed, or null when no cost is known
         * @param entries the window's entries, in seq order
         * @param leaf the entry whose conversation is shown, or null for the whole log
         * @param first the href of the first window, or null when this is the first
         * @param next the href of the next window, or null at the end
         * @param liveUrl the event stream to follow, or null when this is not the end of the log
         * @param exports a download link per transcript format
         * @param treeHref the URL of the session's tree
         * @param href the session's URL
         * @param windowNote which seqs the window holds, and whether more follow
         * @throws NullPointerException if {@code agents}, {@code entries} or {@code exports} is null or holds a null
         */
        public SessionPage {
            agents = List.copyOf(agents);
            entries = List.copyOf(entries);
            exports = List.copyOf(exports);
        }
    }

    /** One row of the tree: a run of entries with one child each, starting at {@code id}. */
    public record TreeRow(int depth, String id, String permalink, String agent, int colour, String role,
                          String preview, int run, boolean branchPoint, boolean leaf, boolean active,
                          @Nullable String leafHref) {}

    /**
     * The tree page.
     *
     * @param frame the page's frame
     * @param id the session's id
     * @param title the session's title on one line, or {@code (untitled)}
     * @param href the session's URL
     * @param rows the rows, depth first
     * @param leaves how many leaves the tree has
     * @param activeLeafHref the URL of the active leaf's conversation, or null when the session has none
     */
    public record TreePage(Frame frame, String id, String title, String href, List<TreeRow> rows, int leaves,
                           @Nullable String activeLeafHref) {
        /**
         * Copies {@code rows}.
         *
         * @param frame the page's frame
         * @param id the session's id
         * @param title the session's title on one line, or {@code (untitled)}
         * @param href the session's URL
         * @param rows the rows, depth first
         * @param leaves how many leaves the tree has
         * @param activeLeafHref the URL of the active leaf's conversation, or null when the session has none
         * @throws NullPointerException if {@code rows} is null or holds a null
         */
        public TreePage {
            rows = List.copyOf(rows);
        }
    }

    /** One row of the record catalog. */
    public record RecordRow(String id, String href, String name, long revision, boolean pinned,
                            @Nullable String workspace, boolean archived, String updated, @Nullable String lease) {}

    /** The record filters. {@code pinned} and {@code archived} are {@code ""}, {@code "yes"} or {@code "no"}. */
    public record RecordFilters(String pinned, String workspace, String archived) {}

    /**
     * The record catalog.
     *
     * @param frame the page's frame
     * @param filters the filters, as the form shows them
     * @param rows the records of this page, pinned first, then newest
     * @param next the href of the next page, or null on the last
     * @param note a note on the rows, or null (unused: no page sets one)
     * @param supported whether the store keeps session records; when not, {@code rows} is empty
     */
    public record RecordsPage(Frame frame, RecordFilters filters, List<RecordRow> rows, @Nullable String next,
                              @Nullable String note, boolean supported) {
        /**
         * Copies {@code rows}.
         *
         * @param frame the page's frame
         * @param filters the filters, as the form shows them
         * @param rows the records of this page, pinned first, then newest
         * @param next the href of the next page, or null on the last
         * @param note a note on the rows, or null (unused: no page sets one)
         * @param supported whether the store keeps session records; when not, {@code rows} is empty
         * @throws NullPointerException if {@code rows} is null or holds a null
         */
        public RecordsPage {
            rows = List.copyOf(rows);
        }
    }

    /** A name and a value, for the record page's facts. */
    public record Fact(String name, String value) {}

    /** A turn of a record. */
    public record TurnView(String id, String prompt, String outcome, String summary, long steps) {}

    /** A queued prompt of a record. */
    public record QueuedView(String id, String prompt, String created) {}

    /** A conversation line of a record. */
    public record LineView(String role, String text) {}

    /**
     * One session record.
     *
     * @param frame the page's frame
     * @param id the record's id
     * @param name the record's name, on one line
     * @param revision the record's stored revision
     * @param facts the record's facts, as name and value
     * @param lease the facts of the lease held, or null when none is
     * @param turns the record's turns, in order
     * @param queued the record's queued prompts, in order
     * @param lines the record's conversation lines, in order
     */
    public record RecordPage(Frame frame, String id, String name, long revision, List<Fact> facts,
                             @Nullable List<Fact> lease, List<TurnView> turns, List<QueuedView> queued,
                             List<LineView> lines) {
        /**
         * Copies the lists; a null {@code lease} stays null (no lease held).
         *
         * @param frame the page's frame
         * @param id the record's id
         * @param name the record's name, on one line
         * @param revision the record's stored revision
         * @param facts the record's facts, as name and value
         * @param lease the facts of the lease held, or null when none is
         * @param turns the record's turns, in order
         * @param queued the record's queued prompts, in order
         * @param lines the record's conversation lines, in order
         * @throws NullPointerException if {@code facts}, {@code turns}, {@code queued} or {@code lines} is null, or a
         *     list holds a null
         */
        public RecordPage {
            facts = List.copyOf(facts);
            lease = lease == null ? null : List.copyOf(lease);
            turns = List.copyOf(turns);
            queued = List.copyOf(queued);
            lines = List.copyOf(lines);
        }
    }

    /** The login form. */
    public record LoginPage(Frame frame, String next, @Nullable String error) {}

    /** An error page. */
    public record ErrorPage(Frame frame, int status, String code, String message) {}
}
