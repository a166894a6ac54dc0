package dev.parley.tck;

import static dev.parley.tck.Check.equal;
import static dev.parley.tck.Check.fails;
import static dev.parley.tck.Check.that;

import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import java.util.List;
import java.util.Optional;

/**
 * The seven scenarios of the archive-repository contract, with the names of Heddle's
 * {@code ChatArchiveRepositoryConformance} (see the glossary).
 */
public final class ArchiveRepositoryScenarios {
    private ArchiveRepositoryScenarios() {}

    /**
     * The scenarios, in order.
     *
     * @return the scenarios in id order, a new immutable list each call
     */
    public static List<Scenario<ArchiveRepositoryHarness>> all() {
        return List.of(
                new Scenario<>("AR-1", "append preserves manifest order and readable summaries",
                        "archives keep append order, not timestamp order; the newest summary is current and readable",
                        ArchiveRepositoryScenarios::order),
                new Scenario<>("AR-2", "concurrent appends commit complete non-conflicting archives",
                        "two instances appending at once both commit, completely",
                        ArchiveRepositoryScenarios::concurrent),
                new Scenario<>("AR-3", "duplicate archive ids reject without changing committed state",
                        "an archive id that exists is rejected and the manifest and summaries stay as they were",
                        ArchiveRepositoryScenarios::duplicate),
                new Scenario<>("AR-4", "scope-bound repositories isolate identical archive addresses",
                        "the same session and archive ids in two scopes are two archives",
                        ArchiveRepositoryScenarios::scopes),
                new Scenario<>("AR-5", "fresh repository instances reopen complete archive state",
                        "a new instance reads the manifest and summaries a previous one wrote",
                        ArchiveRepositoryScenarios::freshInstances),
                new Scenario<>("AR-6", "malformed stored manifests propagate as read failures",
                        "a damaged manifest makes loading it fail",
                        ArchiveRepositoryScenarios::corruption),
                new Scenario<>("AR-7", "archived messages read back exactly",
                        "the messages an archive holds read back equal and in order, from a fresh instance; a locator"
                                + " of no archive reads as empty",
                        ArchiveRepositoryScenarios::messagesReadBack));
    }

    /**
     * Runs every scenario and returns one verdict each.
     *
     * @param harness the backend's harness
     * @return one verdict per scenario, in id order; a failing scenario is a verdict, not an exception
     */
    public static List<Verdict> run(ArchiveRepositoryHarness harness) {
        return ConformanceRunner.run(all(), harness, ArchiveRepositoryHarness::cleanupScope);
    }

    static ArchiveAppend append(String session, String archiveId, int day, String summary) {
        return new ArchiveAppend(session, ArchiveRecord.draft(archiveId, "archive " + archiveId, 2, Fixtures.day(day),
                "gpt-5.4-mini"), List.of(ChatMessage.of("user", "old prompt " + archiveId),
                ChatMessage.of("assistant", "old answer 😀 " + archiveId)), summary);
    }

    static void messagesReadBack(ArchiveRepositoryHarness h, String scope) {
        List<ChatMessage> messages = List.of(
                ChatMessage.of("user", "read a and b \u0000 😀"),
                new ChatMessage("assistant", "", List.of(
                        new ChatMessage.ToolCall("c1", "read", RawJson.of("{\"path\":\"a\",\"n\":1.50}")),
                        new ChatMessage.ToolCall("c2", "read", RawJson.of("{\"path\":\"b\"}"))), null, null),
                new ChatMessage("tool", "contents of a", null, "c1", null),
                new ChatMessage("tool", "", List.of(), "c2", null));
        ArchiveAppend.Result appended = h.createArchiveRepository(scope).append(new ArchiveAppend("s7",
                ArchiveRecord.draft("a7", "archive a7", messages.size(), Fixtures.day(3), "gpt-5.4-mini"), messages,
                "summary seven"));
        ChatArchiveRepository fresh = h.createArchiveRepository(scope);
        equal(Optional.of(messages), fresh.readMessages(appended.archive().path()), "the archived messages");
        equal(Optional.empty(), fresh.readMessages(appended.archive().path() + "-missing"),
                "a locator of no archive");
    }

    static void order(ArchiveRepositoryHarness h, String scope) {
        ChatArchiveRepository repo = h.createArchiveRepository(scope);
        equal(ChatArchiveManifest.empty("s1"), repo.loadManifest("s1"), "a session without archives");
        ArchiveAppend.Result first = repo.append(append("s1", "a-first", 9, "summary one"));
        ArchiveAppend.Result second = repo.append(append("s1", "a-second", 2, "summary two"));
        ChatArchiveManifest m = repo.loadManifest("s1");
        equal(List.of("a-first", "a-second"), m.archives().stream().map(ArchiveRecord::id).toList(),
                "append order, not timestamp order");
        equal(second.archive().summaryPath(), m.currentSummaryPath(), "the newest summary is current");
        equal(m, second.manifest(), "append returns the committed manifest");
        equal(Optional.of("summary one"), repo.readSummary(first.archive().summaryPath()), "first summary");
        equal(Optional.of("summary two"), repo.readSummary(second.archive().summaryPath()), "second summary");
    }

    static void concurrent(ArchiveRepositoryHarness h, String scope) throws Exception {
        ChatArchiveRepository one = h.createArchiveRepository(scope);
        ChatArchiveRepository two = h.createArchiveRepository(scope);
        List<Object> results = SessionRepositoryScenarios.race(() -> one.append(append("s2", "from-one", 1, "one")),
                () -> two.append(append("s2", "from-two", 1, "two")));
        that(results.stream().allMatch(r -> r instanceof ArchiveAppend.Result), "both appends commit: " + results);
        ChatArchiveRepository fresh = h.createArchiveRepository(scope);
        ChatArchiveManifest m = fresh.loadManifest("s2");
        equal(2, m.archives().size(), "archives in the manifest");
        equal(m.archives().get(1).summaryPath(), m.currentSummaryPath(), "the head references the final archive");
        for (ArchiveRecord a : m.archives()) {
            equal(Optional.of(a.id().equals("from-one") ? "one" : "two"), fresh.readSummary(a.summaryPath()),
                    "summary of " + a.id());
        }
    }

    static void duplicate(ArchiveRepositoryHarness h, String scope) {
        ChatArchiveRepository repo = h.createArchiveRepository(scope);
        ArchiveAppend.Result committed = repo.append(append("s3", "dup", 1, "the original"));
        fails(InvalidInputException.class, "appending a duplicate archive id",
                () -> repo.append(append("s3", "dup", 2, "the impostor")));
        ChatArchiveRepository fresh = h.createArchiveRepository(scope);
        equal(committed.manifest(), fresh.loadManifest("s3"), "the manifest after the rejection");
        equal(Optional.of("the original"), fresh.readSummary(committed.archive().summaryPath()),
                "the summary after the rejection");
    }

    static void scopes(ArchiveRepositoryHarness h, String scope) {
        String other = scope + "-b";
        try {
            ArchiveAppend.Result a = h.createArchiveRepository(scope).append(append("same", "same", 1, "scope one"));
            ArchiveAppend.Result b = h.createArchiveRepository(other).append(append("same", "same", 1, "scope two"));
            equal(Optional.of("scope one"), h.createArchiveRepository(scope).readSummary(a.archive().summaryPath()),
                    "scope one reads its own summary");
            equal(Optional.of("scope two"), h.createArchiveRepository(other).readSummary(b.archive().summaryPath()),
                    "scope two reads its own summary");
            equal(1, h.createArchiveRepository(scope).loadManifest("same").archives().size(), "scope one's archives");
            equal(1, h.createArchiveRepository(other).loadManifest("same").archives().size(), "scope two's archives");
        } finally {
            h.cleanupScope(other);
        }
    }

    static void freshInstances(ArchiveRepositoryHarness h, String scope) {
        ArchiveAppend.Result r = h.createArchiveRepository(scope).append(append("s5", "a1", 1, "rolling summary"));
        ChatArchiveRepository fresh = h.createArchiveRepository(scope);
        equal(r.manifest(), fresh.loadManifest("s5"), "the manifest from a fresh instance");
        equal(Optional.of("rolling summary"), fresh.readSummary(fresh.loadManifest("s5").currentSummaryPath()),
                "the current summary from a fresh instance");
        ArchiveAppend.Result next = fresh.append(append("s5", "a2", 2, "rolling summary, continued"));
        equal(List.of("a1", "a2"), h.createArchiveRepository(scope).loadManifest("s5").archives().stream()
                .map(ArchiveRecord::id).toList(), "the rolling summary continues from a fresh instance");
        equal(next.archive().summaryPath(), h.createArchiveRepository(scope).loadManifest("s5").currentSummaryPath(),
                "the continued summary is current");
    }

    static void corruption(ArchiveRepositoryHarness h, String scope) {
        h.createArchiveRepository(scope).append(append("s6", "a1", 1, "summary"));
        h.corruptManifest(scope, "s6");
        ChatArchiveRepository fresh = h.createArchiveRepository(scope);
        fails(RuntimeException.class, "loading a damaged manifest", () -> {
            ChatArchiveManifest m = fresh.loadManifest("s6");
            throw new AssertionError("the load returned " + m + " instead of failing");
        });
    }
}
