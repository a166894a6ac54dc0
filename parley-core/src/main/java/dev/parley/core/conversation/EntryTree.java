package dev.parley.core.conversation;

import dev.parley.core.AgentId;
import dev.parley.core.CorruptRecordException;
import dev.parley.core.EntryId;
import dev.parley.core.NotFoundException;
import dev.parley.core.model.Entry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The tree that a session's entries form through their parent ids, indexed for walking.
 *
 * <p>Immutable and thread-safe. Built from entries in {@code seq} order (as {@link
 * dev.parley.core.log.MessageLog#load} returns them).
 */
public final class EntryTree {
    private final List<Entry> entries;
    /*
     * Both indexes are built on first use and never modified once published (threads racing to build one build equal
     * ones, each publishing a complete map): a conversation of a session written in a line walks from each entry to
     * the one before it and needs neither, and on a long session they are most of the tree's cost.
     */
    private volatile @Nullable Map<EntryId, Entry> byId;
    private volatile @Nullable Map<EntryId, List<Entry>> children;

    private EntryTree(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    private Map<EntryId, Entry> byId() {
        Map<EntryId, Entry> built = byId;
        if (built == null) {
            built = new HashMap<>(entries.size() * 2);
            for (Entry e : entries) {
                built.put(e.id(), e);
            }
            byId = built;
        }
        return built;
    }

    private Map<EntryId, List<Entry>> children() {
        Map<EntryId, List<Entry>> built = children;
        if (built == null) {
            built = new HashMap<>();
            for (Entry e : entries) {
                if (e.parentId() != null) {
                    built.computeIfAbsent(e.parentId(), k -> new ArrayList<>()).add(e);
                }
            }
            children = built;
        }
        return built;
    }

    /**
     * The tree of these entries: the entries of one session, as {@link dev.parley.core.log.MessageLog#load} returns
     * them — ids unique, {@code seq} strictly increasing, every parent before its children. (Entries out of
     * {@code seq} order still give the same tree, but a path then costs a scan per step.)
     *
     * @param entries the entries, copied; none may be null
     * @return the tree
     */
    public static EntryTree of(List<Entry> entries) {
        return new EntryTree(entries);
    }

    /**
     * Every entry, in {@code seq} order.
     *
     * @return the entries, in the order given to {@link #of}; unmodifiable
     */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * The entry with this id.
     *
     * @param id the entry id
     * @return the entry, or empty when the tree holds no entry with this id
     */
    public Optional<Entry> find(EntryId id) {
        return Optional.ofNullable(byId().get(id));
    }

    /**
     * The entry with this id.
     *
     * @param id the entry id
     * @return the entry
     * @throws NotFoundException if there is none
     */
    public Entry get(EntryId id) {
        Entry e = byId().get(id);
        if (e == null) {
            throw new NotFoundException("no entry " + id + " in this session");
        }
        return e;
    }

    /**
     * The entry's children, in {@code seq} order.
     *
     * @param id the parent's id; an id that is not in the tree has no children
     * @return the children, unmodifiable; empty when there are none
     */
    public List<Entry> children(EntryId id) {
        return Collections.unmodifiableList(children().getOrDefault(id, List.of()));
    }

    /**
     * Entries without a parent, detached events included, in {@code seq} order.
     *
     * @return the roots, unmodifiable; empty for an empty tree
     */
    public List<Entry> roots() {
        return entries.stream().filter(e -> e.parentId() == null).toList();
    }

    /**
     * Entries without children that are not detached events, in {@code seq} order.
     *
     * @return the leaves, unmodifiable; empty for an empty tree
     */
    public List<Entry> leaves() {
        Map<EntryId, List<Entry>> parents = children();
        return entries.stream().filter(e -> !isDetached(e) && !parents.containsKey(e.id())).toList();
    }

    /**
     * Whether the entry is a detached event: a custom entry with neither a parent nor children (a Claude Code
     * file-history snapshot, a pi session header). A custom root that others build on is part of the tree.
     *
     * @param e the entry; its children are looked up in this tree by its id
     * @return true if it is a detached event of this tree
     */
    public boolean isDetached(Entry e) {
        return e.isDetached() && !children().containsKey(e.id());
    }

    /**
     * The agent's active leaf: its most recent entry that is not a detached event (pi's rule, "the leaf is the last
     * entry", minus detached events).
     *
     * @param agent the agent, or null for the most recent such entry of any agent
     * @return the entry, or empty when there is none (no entry of {@code agent}, or only detached events)
     */
    public Optional<Entry> activeLeaf(@Nullable AgentId agent) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry e = entries.get(i);
            if (!isDetached(e) && (agent == null || e.agentId().equals(agent))) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /**
     * The path from the root to {@code leaf}, in order.
     *
     * @param leaf the id of the last entry of the path
     * @return the entries from the root to {@code leaf}, both included, in a new list; just the leaf when it is a root
     * @throws NotFoundException if the leaf is not in the tree
     * @throws CorruptRecordException if the parent chain names a missing entry or loops (which stores prevent)
     */
    public List<Entry> path(EntryId leaf) {
        return path(get(leaf));
    }

    /**
     * The path from the root to {@code leaf}, an entry of this tree, in order. A parent is looked for first just
     * before its child in {@code seq} order, where a session written in a line keeps it, then by id.
     *
     * @throws CorruptRecordException if the parent chain names a missing entry or loops (which stores prevent)
     */
    List<Entry> path(Entry leaf) {
        List<Entry> reversed = new ArrayList<>();
        Entry at = leaf;
        int index = indexOf(leaf);
        while (true) {
            if (reversed.size() == entries.size()) { // a chain longer than the tree visits some entry twice
                throw new CorruptRecordException("entry " + at.id(), "the parent chain loops");
            }
            reversed.add(at);
            EntryId parent = at.parentId();
            if (parent == null) {
                break;
            }
            if (index > 0 && entries.get(index - 1).id().equals(parent)) {
                at = entries.get(--index);
                continue;
            }
            at = byId().get(parent);
            if (at == null) {
                throw new CorruptRecordException("entry " + reversed.get(reversed.size() - 1).id(),
                        "parent " + parent + " does not exist");
            }
            index = indexOf(at);
        }
        Collections.reverse(reversed);
        return reversed;
    }

    /** The position of an entry of this tree: by its seq (the entries are in seq order), else by a scan. */
    private int indexOf(Entry e) {
        int low = 0;
        int high = entries.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long seq = entries.get(mid).seq();
            if (seq < e.seq()) {
                low = mid + 1;
            } else if (seq > e.seq()) {
                high = mid - 1;
            } else {
                return entries.get(mid).id().equals(e.id()) ? mid : entries.indexOf(e);
            }
        }
        return entries.indexOf(e);
    }
}
