package dev.parley.json.repository;

import dev.parley.core.repository.ArchiveRecord;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The archive locators of the database backends: {@code <prefix><session>/<archive>/messages} and
 * {@code …/summary}, each id URL-encoded so that a {@code /} in it cannot split the locator. A locator names rows of
 * the backend that wrote it; another backend's locator is simply not one of them.
 */
public final class ArchiveLocators {
    private ArchiveLocators() {}

    /**
     * The session and archive a locator names.
     *
     * @param sessionId the session id, decoded
     * @param archiveId the archive id, decoded
     */
    public record Address(String sessionId, String archiveId) {}

    /**
     * The draft of an archive of {@code sessionId} with its locators under {@code prefix} (e.g.
     * {@code sqlite-archive:}).
     *
     * @param prefix the backend's locator prefix
     * @param sessionId the session the archive belongs to
     * @param draft the archive; its locators (a draft's are {@code pending}) are replaced
     * @return {@code draft} with the locators {@code <prefix><session>/<archive>/messages} and
     *     {@code …/summary}, the ids URL-encoded
     */
    public static ArchiveRecord place(String prefix, String sessionId, ArchiveRecord draft) {
        String base = prefix + encode(sessionId) + "/" + encode(draft.id());
        return draft.withLocators(base + "/messages", base + "/summary");
    }

    /**
     * The archive a summary locator names, or empty if it is not a summary locator under {@code prefix}.
     *
     * @param prefix the backend's locator prefix
     * @param locator the locator to read, of any backend
     * @return the session and archive ids, decoded; empty if {@code locator} does not start with {@code prefix}, does
     *     not end in {@code /summary}, or does not hold exactly two ids that decode
     */
    public static Optional<Address> parseSummary(String prefix, String locator) {
        return parse(prefix, locator, "/summary");
    }

    /**
     * The archive a messages locator names, or empty if it is not a messages locator under {@code prefix}.
     *
     * @param prefix the backend's locator prefix
     * @param locator the locator to read, of any backend
     * @return the session and archive ids, decoded; empty if {@code locator} does not start with {@code prefix}, does
     *     not end in {@code /messages}, or does not hold exactly two ids that decode
     */
    public static Optional<Address> parseMessages(String prefix, String locator) {
        return parse(prefix, locator, "/messages");
    }

    private static Optional<Address> parse(String prefix, String locator, String suffix) {
        if (!locator.startsWith(prefix) || !locator.endsWith(suffix)) {
            return Optional.empty();
        }
        String[] parts = locator.substring(prefix.length(), locator.length() - suffix.length()).split("/", -1);
        if (parts.length != 2) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Address(URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
                    URLDecoder.decode(parts[1], StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
