package dev.parley.engine;

import dev.parley.core.InvalidInputException;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatSessionRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A non-certifying readiness report for a persistence configuration (Heddle's
 * {@code ConversationPersistenceService.assess}). It checks the configuration's shape and lists
 * the host checks the chosen durability level still needs; it performs no I/O and certifies nothing.
 */
public final class Readiness {
    private Readiness() {}

    /**
     * How persistence is configured.
     *
     * @param conversations the paired capability — both repositories from one trusted scope — or null
     * @param legacySessions a session repository given the legacy way (alone), or null
     * @param legacyArchives an archive repository given the legacy way (alone), or null
     */
    public record Configuration(@Nullable Conversations conversations, @Nullable ChatSessionRepository legacySessions,
                                @Nullable ChatArchiveRepository legacyArchives) {
        /**
         * The default: local files, nothing injected.
         *
         * @return a configuration with no capability and no legacy repository
         */
        public static Configuration defaults() {
            return new Configuration(null, null, null);
        }
    }

    /**
     * The conversation-persistence capability: sessions and archives, injected as one.
     *
     * @param sessions the session repository, or null (an error)
     * @param archives the archive repository, or null (an error)
     */
    public record Conversations(@Nullable ChatSessionRepository sessions, @Nullable ChatArchiveRepository archives) {}

    /**
     * One finding.
     *
     * @param code {@code legacy-repository-options}, {@code session-repository-missing} or
     *     {@code archive-repository-missing}
     * @param severity {@code warning} or {@code error}
     * @param message what to do about it
     */
    public record Issue(String code, String severity, String message) {}

    /**
     * A check the host must run itself.
     *
     * @param id the check's id
     * @param description what it proves
     */
    public record HostCheck(String id, String description) {}

    /**
     * The report.
     *
     * @param source {@code default-files}, {@code conversation-capability} or {@code legacy-repositories}
     * @param targetLevel {@code local} or {@code completed-conversation}
     * @param configurationComplete whether nothing is missing
     * @param issues the findings, copied
     * @param requiredHostChecks the checks the host still owes, copied
     */
    public record Report(String source, String targetLevel, boolean configurationComplete, List<Issue> issues,
                         List<HostCheck> requiredHostChecks) {
        /**
         * Copies the lists.
         *
         * @param source {@code default-files}, {@code conversation-capability} or {@code legacy-repositories}
         * @param targetLevel {@code local} or {@code completed-conversation}
         * @param configurationComplete whether nothing is missing
         * @param issues the findings; copied
         * @param requiredHostChecks the checks the host still owes; copied
         * @throws NullPointerException if {@code issues} or {@code requiredHostChecks} is null or holds a null
         */
        public Report {
            issues = List.copyOf(issues);
            requiredHostChecks = List.copyOf(requiredHostChecks);
        }
    }

    static final List<HostCheck> LOCAL = List.of(
            new HostCheck("persistent-state-root", "the state directory is on persistent storage"),
            new HostCheck("backup-and-restore", "the whole state directory is backed up and restored together, writers stopped"));
    static final List<HostCheck> COMPLETED = List.of(
            new HostCheck("same-authenticated-scope", "both repositories are bound to the same trusted server-side scope"),
            new HostCheck("session-revision-conflicts", "concurrent writers get revision conflicts, never lost updates"),
            new HostCheck("atomic-archive-append", "archive content and manifest commit together"),
            new HostCheck("fresh-instance-compaction-recovery", "a fresh instance continues the rolling summary"),
            new HostCheck("identity-isolation-and-deletion", "one identity cannot read or delete another's records"),
            new HostCheck("product-finalization-before-success", "the product commits before reporting success"));

    /**
     * Assesses a configuration.
     *
     * @param config the configuration
     * @return the report: with nothing injected, {@code default-files} at level {@code local}; with the capability,
     *     {@code conversation-capability} at {@code completed-conversation}; with legacy repositories,
     *     {@code legacy-repositories} at {@code completed-conversation} with a warning, an error for each missing
     *     repository, and complete only when both are given
     * @throws InvalidInputException if the capability lacks a repository, or is mixed with the legacy options
     */
    public static Report assess(Configuration config) {
        Objects.requireNonNull(config, "config");
        boolean legacy = config.legacySessions() != null || config.legacyArchives() != null;
        if (config.conversations() != null) {
            if (legacy) {
                throw new InvalidInputException("give the conversations capability or the legacy repositories, not both");
            }
            if (config.conversations().sessions() == null || config.conversations().archives() == null) {
                throw new InvalidInputException("the conversations capability needs both a session and an archive repository");
            }
            return new Report("conversation-capability", "completed-conversation", true, List.of(), COMPLETED);
        }
        if (!legacy) {
            return new Report("default-files", "local", true, List.of(), LOCAL);
        }
        List<Issue> issues = new ArrayList<>();
        issues.add(new Issue("legacy-repository-options", "warning",
                "inject both repositories through the conversations capability instead"));
        if (config.legacySessions() == null) {
            issues.add(new Issue("session-repository-missing", "error", "an archive repository without a session repository"));
        }
        if (config.legacyArchives() == null) {
            issues.add(new Issue("archive-repository-missing", "error", "a session repository without an archive repository"));
        }
        boolean complete = config.legacySessions() != null && config.legacyArchives() != null;
        return new Report("legacy-repositories", "completed-conversation", complete, issues, COMPLETED);
    }
}
