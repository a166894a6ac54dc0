package dev.parley.tck;

import static dev.parley.tck.Check.equal;
import static dev.parley.tck.Check.fails;
import static dev.parley.tck.Check.that;

import dev.parley.core.InvalidInputException;
import dev.parley.core.repository.CatalogEntry;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.SessionAlreadyExistsException;
import dev.parley.core.repository.StoredSession;
import dev.parley.json.Json;
import dev.parley.json.repository.ChatSessionCodec;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The scenarios of the session-repository contract: CS-1 to CS-9 with the names of Heddle's
 * {@code ChatSessionRepositoryConformance} (see the glossary), and CS-10, which checks the stored JSON itself, as
 * Heddle's suite does when it deep-compares the record it wrote with the one it reads.
 */
public final class SessionRepositoryScenarios {
    private SessionRepositoryScenarios() {}

    /**
     * The scenarios, in order.
     *
     * @return the scenarios in id order, a new immutable list each call
     */
    public static List<Scenario<SessionRepositoryHarness>> all() {
        return List.of(
                new Scenario<>("CS-1", "CRUD returns exact records and monotonic revisions",
                        "create gives revision 1, each update one more; reads return exactly what was written",
                        SessionRepositoryScenarios::crud),
                new Scenario<>("CS-2", "concurrent create and update enforce atomic uniqueness and CAS",
                        "of two racing creates or updates exactly one wins; the loser gets a typed error",
                        SessionRepositoryScenarios::concurrency),
                new Scenario<>("CS-3", "cursor pagination is stable across pinned, timestamp, and UTF-8 ties",
                        "pinned first, newest first, then id in UTF-8 byte order; every entry once",
                        SessionRepositoryScenarios::pagination),
                new Scenario<>("CS-4", "workspace and archive filters apply before page boundaries",
                        "filters select before the page is cut, so small pages never come back short or leak",
                        SessionRepositoryScenarios::filters),
                new Scenario<>("CS-5", "scope-bound repositories isolate identical session IDs",
                        "the same id in two scopes is two records; writes in one never touch the other",
                        SessionRepositoryScenarios::scopes),
                new Scenario<>("CS-6", "fresh repository instances reopen complete session state",
                        "a new instance reads back the complete record a previous one wrote",
                        SessionRepositoryScenarios::freshInstances),
                new Scenario<>("CS-7", "malformed stored records propagate as read failures",
                        "a damaged stored record makes the read fail; it is never skipped or partly returned",
                        SessionRepositoryScenarios::corruption),
                new Scenario<>("CS-8", "invalid page limits are rejected",
                        "a page limit outside 1..200 is rejected before any page is read",
                        SessionRepositoryScenarios::pageLimits),
                new Scenario<>("CS-9", "catalog entries expose only catalog fields",
                        "a catalog entry is the selection of catalog fields at revision 1, never the transcript",
                        SessionRepositoryScenarios::catalogFields),
                new Scenario<>("CS-10", "create and update preserve the exact record",
                        "a record reads back as the JSON it was written from: an absent key stays absent, an empty list "
                                + "or object stays empty, opaque values keep their key order and their numbers",
                        SessionRepositoryScenarios::exactRecords));
    }

    /**
     * Runs every scenario and returns one verdict each.
     *
     * @param harness the backend's harness
     * @return one verdict per scenario, in id order; a failing scenario is a verdict, not an exception
     */
    public static List<Verdict> run(SessionRepositoryHarness harness) {
        return ConformanceRunner.run(all(), harness, SessionRepositoryHarness::cleanupScope);
    }

    static void crud(SessionRepositoryHarness h, String scope) {
        ChatSessionRepository repo = h.createRepository(scope);
        equal(Optional.empty(), repo.read("missing"), "reading a missing id");
        ChatSession s = Fixtures.session("crud-1");
        StoredSession created = repo.create(s);
        equal(new StoredSession(s, 1), created, "create returns the record at revision 1");
        equal(Optional.of(new StoredSession(s, 1)), repo.read("crud-1"), "read after create");
        ChatSession renamed = s.toBuilder().name("Renamed").updatedAt(Instant.parse("2026-01-05T00:00:00.000Z")).build();
        equal(Optional.of(new StoredSession(renamed, 2)), repo.update(renamed, 1), "update returns revision 2");
        equal(Optional.of(new StoredSession(renamed, 2)), repo.read("crud-1"), "read returns the latest revision");
        equal(Optional.empty(), repo.update(Fixtures.session("nobody"), 1), "update of a missing id");
        that(repo.delete("crud-1", 2), "delete at the current revision returns true");
        equal(Optional.empty(), repo.read("crud-1"), "a deleted record is gone");
        that(!repo.delete("crud-1", 2), "deleting again returns false");
    }

    static void concurrency(SessionRepositoryHarness h, String scope) throws Exception {
        ChatSessionRepository one = h.createRepository(scope);
        // Two instances as the harness gives them; a store may hand out one shared instance per scope (the memory
        // store does), and then the race runs inside it.
        ChatSessionRepository two = h.createRepository(scope);
        ChatSession a = Fixtures.session("race").toBuilder().name("from one").build();
        ChatSession b = Fixtures.session("race").toBuilder().name("from two").build();
        List<Object> creates = race(() -> one.create(a), () -> two.create(b));
        equal(1L, creates.stream().filter(r -> r instanceof StoredSession).count(), "successful creates");
        that(creates.stream().anyMatch(r -> r instanceof SessionAlreadyExistsException),
                "the losing create throws SessionAlreadyExistsException: " + creates);
        that(one.read("race").isPresent() && two.read("race").isPresent(), "both instances read the record");
        ChatSession start = one.read("race").orElseThrow().session();
        ChatSession x = start.toBuilder().name("update x").build();
        ChatSession y = start.toBuilder().name("update y").build();
        List<Object> updates = race(() -> one.update(x, 1), () -> two.update(y, 1));
        equal(1L, updates.stream().filter(r -> r instanceof Optional<?> o && o.isPresent()).count(), "successful updates");
        RevisionConflictException conflict = (RevisionConflictException) updates.stream()
                .filter(r -> r instanceof RevisionConflictException).findFirst()
                .orElseThrow(() -> new AssertionError("the losing update throws RevisionConflictException: " + updates));
        equal(1L, conflict.expectedRevision(), "the conflict names the expected revision");
        equal(2L, conflict.actualRevision(), "the conflict names the actual revision");
        StoredSession stored = two.read("race").orElseThrow();
        equal(2L, stored.revision(), "the stored revision");
        that(Set.of("update x", "update y").contains(stored.session().name()), "the stored record is one of the updates");
        // The race above may be won cleanly even by a store without CAS; a stale write after it may not.
        fails(RevisionConflictException.class, "a stale update",
                () -> one.update(start.toBuilder().name("stale").build(), 1));
        fails(RevisionConflictException.class, "a stale delete", () -> one.delete("race", 1));
    }

    /** Runs two actions as simultaneously as possible; each result is a value or the exception it threw. */
    static List<Object> race(Callable<?> first, Callable<?> second) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Object>> futures = new ArrayList<>();
            for (Callable<?> c : List.of(first, second)) {
                futures.add(pool.submit(() -> {
                    go.await();
                    try {
                        return c.call();
                    } catch (RuntimeException e) {
                        return e;
                    }
                }));
            }
            go.countDown();
            List<Object> out = new ArrayList<>();
            for (Future<Object> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    static ChatSession at(String id, boolean pinned, int day) {
        Instant t = Fixtures.day(day);
        return Fixtures.session(id).toBuilder().pinned(pinned).updatedAt(t).build();
    }

    static void pagination(SessionRepositoryHarness h, String scope) {
        ChatSessionRepository repo = h.createRepository(scope);
        List<ChatSession> sessions = List.of(at("regular-old", false, 1), at("😀", false, 2), at("\uE000", false, 2),
                at("regular-b", false, 3), at("regular-a", false, 3), at("regular-new", false, 4), at("a", true, 1),
                at("Z", true, 1));
        sessions.forEach(repo::create);
        List<String> seen = new ArrayList<>();
        Set<String> cursors = new HashSet<>();
        CatalogQuery query = CatalogQuery.first(2);
        for (int pages = 0; ; pages++) {
            that(pages < 100, "the walk ends within 100 pages");
            CatalogPage page = repo.list(query);
            that(page.items().size() <= 2, "a page holds at most the limit");
            page.items().forEach(e -> seen.add(e.id()));
            if (page.nextCursor() == null) {
                break;
            }
            that(cursors.add(page.nextCursor()), "cursors never repeat");
            query = query.after(page.nextCursor());
        }
        equal(List.of("Z", "a", "regular-new", "regular-a", "regular-b", "\uE000", "😀", "regular-old"), seen,
                "catalog order");
    }

    static void filters(SessionRepositoryHarness h, String scope) {
        ChatSessionRepository repo = h.createRepository(scope);
        Instant archived = Fixtures.day(3);
        repo.create(at("active-a-new", false, 4).toBuilder().workspaceId("workspace-a").build());
        repo.create(at("active-a-old", false, 2).toBuilder().workspaceId("workspace-a").build());
        repo.create(at("archived-a", false, 3).toBuilder().workspaceId("workspace-a").archivedAt(archived).build());
        repo.create(at("active-b", false, 5).toBuilder().workspaceId("workspace-b").build());
        repo.create(at("archived-b", false, 6).toBuilder().workspaceId("workspace-b").archivedAt(archived).build());
        equal(List.of("active-a-new", "active-a-old"), walk(repo, new CatalogQuery(null, 1, "workspace-a", false)),
                "workspace-a, not archived, one per page");
        equal(List.of("archived-a"), walk(repo, new CatalogQuery(null, 1, "workspace-a", true)),
                "workspace-a, archived, one per page");
    }

    static List<String> walk(ChatSessionRepository repo, CatalogQuery query) {
        List<String> out = new ArrayList<>();
        CatalogQuery q = query;
        for (int pages = 0; pages < 100; pages++) {
            CatalogPage page = repo.list(q);
            page.items().forEach(e -> out.add(e.id()));
            if (page.nextCursor() == null) {
                return out;
            }
            q = q.after(page.nextCursor());
        }
        throw new AssertionError("the walk did not end within 100 pages");
    }

    static void scopes(SessionRepositoryHarness h, String scope) {
        String other = scope + "-b";
        try {
            ChatSessionRepository one = h.createRepository(scope);
            ChatSessionRepository two = h.createRepository(other);
            ChatSession s1 = Fixtures.session("shared-id").toBuilder().name("scope one").build();
            ChatSession s2 = Fixtures.session("shared-id").toBuilder().name("scope two").build();
            one.create(s1);
            two.create(s2);
            equal(List.of("scope one"), one.list(CatalogQuery.first(10)).items().stream().map(CatalogEntry::name).toList(),
                    "scope one lists only its own");
            equal(List.of("scope two"), two.list(CatalogQuery.first(10)).items().stream().map(CatalogEntry::name).toList(),
                    "scope two lists only its own");
            one.update(s1.toBuilder().name("scope one, updated").build(), 1);
            that(one.delete("shared-id", 2), "delete in scope one");
            equal(Optional.of(new StoredSession(s2, 1)), two.read("shared-id"), "scope two untouched at revision 1");
        } finally {
            h.cleanupScope(other);
        }
    }

    static void freshInstances(SessionRepositoryHarness h, String scope) {
        ChatSession rich = Fixtures.richSession("rich-1");
        h.createRepository(scope).create(rich);
        ChatSessionRepository second = h.createRepository(scope);
        equal(Optional.of(new StoredSession(rich, 1)), second.read("rich-1"), "the complete record from a fresh instance");
        ChatSession changed = rich.toBuilder().name("changed by the second instance").build();
        second.update(changed, 1);
        equal(Optional.of(new StoredSession(changed, 2)), h.createRepository(scope).read("rich-1"),
                "a third instance reads revision 2");
    }

    static void corruption(SessionRepositoryHarness h, String scope) {
        h.createRepository(scope).create(Fixtures.richSession("damaged"));
        h.corruptSessionRecord(scope, "damaged");
        ChatSessionRepository fresh = h.createRepository(scope);
        fails(RuntimeException.class, "reading a damaged record", () -> {
            Optional<StoredSession> read = fresh.read("damaged");
            throw new AssertionError("the read returned " + read + " instead of failing");
        });
    }

    static void pageLimits(SessionRepositoryHarness h, String scope) {
        ChatSessionRepository repo = h.createRepository(scope);
        for (int limit : new int[] {0, 201, -1}) {
            fails(InvalidInputException.class, "limit " + limit, () -> repo.list(new CatalogQuery(null, limit, null, null)));
        }
        equal(0, repo.list(new CatalogQuery(null, 200, null, null)).items().size(), "limit 200 is accepted");
    }

    static void catalogFields(SessionRepositoryHarness h, String scope) {
        ChatSessionRepository repo = h.createRepository(scope);
        ChatSession rich = Fixtures.richSession("catalog-1");
        repo.create(rich);
        List<CatalogEntry> items = repo.list(CatalogQuery.first(10)).items();
        equal(1, items.size(), "entries");
        CatalogEntry entry = items.get(0);
        equal(1L, entry.revision(), "revision");
        equal(CatalogEntry.of(rich, 1), entry, "the entry is exactly the catalog fields of the record");
        that(!entry.toString().contains(Fixtures.TRANSCRIPT_SENTINEL), "no transcript in the catalog entry: " + entry);
    }

    static void exactRecords(SessionRepositoryHarness h, String scope) throws Exception {
        ChatSessionRepository repo = h.createRepository(scope);
        List<String> variants = List.of("absent", "empty", "raw");
        List<CatalogEntry> entries = new ArrayList<>();
        for (String variant : variants) {
            String id = "exact-" + variant;
            String document = String.format(java.util.Locale.ROOT, Fixtures.EXACT_RECORDS.get(variant), id);
            ChatSession written = ChatSessionCodec.parseStrict(Json.parse(document), "fixture " + variant);
            StoredSession created = repo.create(written);
            sameJson(document, created, "create returns the '" + variant + "' record");
            sameJson(document, h.createRepository(scope).read(id).orElseThrow(),
                    "a fresh instance reads the '" + variant + "' record");
            entries.add(CatalogEntry.of(written, 1));
        }
        // The catalog keeps the difference too: an entry has archives exactly when its record has them.
        List<CatalogEntry> listed = h.createRepository(scope).list(CatalogQuery.first(10)).items();
        equal(variants.size(), listed.size(), "catalog entries");
        for (CatalogEntry entry : listed) {
            CatalogEntry expected = entries.stream().filter(e -> e.id().equals(entry.id())).findFirst()
                    .orElseThrow(() -> new AssertionError("an entry that was never created: " + entry.id()));
            equal(Json.write(ChatSessionCodec.encodeCatalogEntry(expected)),
                    Json.write(ChatSessionCodec.encodeCatalogEntry(entry)), "the catalog entry of " + entry.id());
            equal(expected, entry, "the catalog entry of " + entry.id() + ", as a value");
        }
        // Each update replaces the whole record: keys appear and disappear, lists empty and fill.
        String id = "exact-absent";
        long revision = 1;
        for (String variant : List.of("empty", "raw", "absent")) {
            String document = String.format(java.util.Locale.ROOT, Fixtures.EXACT_RECORDS.get(variant), id);
            ChatSession next = ChatSessionCodec.parseStrict(Json.parse(document), "fixture " + variant);
            sameJson(document, repo.update(next, revision).orElseThrow(),
                    "update to the '" + variant + "' record returns it");
            revision++;
            StoredSession read = h.createRepository(scope).read(id).orElseThrow();
            equal(revision, read.revision(), "revision after the update to '" + variant + "'");
            sameJson(document, read, "a fresh instance reads the update to '" + variant + "'");
        }
    }

    /** The stored record, encoded, is the document: the same JSON tree, and the same compact text. */
    private static void sameJson(String document, StoredSession stored, String what) throws Exception {
        JsonNode expected = Json.parse(document);
        JsonNode actual = ChatSessionCodec.encode(stored.session());
        that(Json.same(expected, actual), what + ": expected <" + Json.write(expected) + "> but was <"
                + Json.write(actual) + ">");
        equal(Json.write(expected), Json.write(actual), what + ", as text");
        equal(ChatSessionCodec.parseStrict(expected, "the document"), stored.session(), what + ", as a value");
    }
}
