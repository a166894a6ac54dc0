package dev.parley.core.repository;

import dev.parley.core.InvalidInputException;
import dev.parley.core.Times;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One archive of compacted history: the removed messages and the rolling summary, by opaque locators.
 *
 * @param id the archive id, unique within the session
 * @param path the locator of the archived messages (not necessarily a path)
 * @param summaryPath the locator of the summary
 * @param shortDescription a short description, or null
 * @param messageCount how many messages were archived, at least 0
 * @param createdAt when the archive was made
 * @param summaryModel the model that wrote the summary, or null
 */
public record ArchiveRecord(String id, String path, String summaryPath, @Nullable String shortDescription,
                            long messageCount, Instant createdAt, @Nullable String summaryModel) {
    /**
     * Checks the parts; {@code createdAt} is cut to the millisecond.
     *
     * @param id the archive id
     * @param path the locator of the archived messages, not empty
     * @param summaryPath the locator of the summary, not empty
     * @param shortDescription a short description, or null
     * @param messageCount how many messages were archived, at least 0
     * @param createdAt when the archive was made
     * @param summaryModel the model that wrote the summary, or null
     * @throws InvalidInputException if {@code id} is not a valid id ({@link ChatSession#requireId}), null included;
     *     if {@code path} or {@code summaryPath} is empty; if {@code messageCount} is negative; or if
     *     {@code createdAt} lies outside the years 0000 to 9999 ({@link Times})
     * @throws NullPointerException if {@code path}, {@code summaryPath} or {@code createdAt} is null
     */
    public ArchiveRecord {
        ChatSession.requireId(id, "archive id");
        if (path.isEmpty() || summaryPath.isEmpty()) {
            throw new InvalidInputException("an archive record needs a non-empty path and summaryPath");
        }
        if (messageCount < 0) {
            throw new InvalidInputException("messageCount must not be negative");
        }
        createdAt = Times.millis(Objects.requireNonNull(createdAt, "createdAt"));
    }

    /**
     * The record before the repository assigns its locators.
     *
     * @param id the archive id
     * @param shortDescription a short description, or null
     * @param messageCount how many messages are archived, at least 0
     * @param createdAt when the archive was made
     * @param summaryModel the model that wrote the summary, or null
     * @return the record, with both locators {@code pending}
     * @throws InvalidInputException as the constructor
     */
    public static ArchiveRecord draft(String id, @Nullable String shortDescription, long messageCount, Instant createdAt,
                                      @Nullable String summaryModel) {
        return new ArchiveRecord(id, "pending", "pending", shortDescription, messageCount, createdAt, summaryModel);
    }

    /**
     * This record with its locators.
     *
     * @param newPath the locator of the archived messages, not empty
     * @param newSummaryPath the locator of the summary, not empty
     * @return a new record with these locators and this record's other parts
     * @throws InvalidInputException if a locator is empty
     */
    public ArchiveRecord withLocators(String newPath, String newSummaryPath) {
        return new ArchiveRecord(id, newPath, newSummaryPath, shortDescription, messageCount, createdAt, summaryModel);
    }
}
