package dev.parley.formats;

import dev.parley.core.ErrorCode;
import dev.parley.core.ParleyException;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something an import found wrong with a source file.
 *
 * @param file the file
 * @param line the 1-based line, or 0 when the problem is not on one line
 * @param message what is wrong
 * @param fatal whether the file was rejected (nothing of it stored) or only warned about
 * @param callId the tool-call id the problem is about (a result that answers no call, a call no result answers), or
 *     null
 * @param record the id of the source record the problem is about (a record two sources disagree on), or null
 * @param storeError for a file read well that the store did not take, the store's error code (e.g.
 *     {@link ErrorCode#UNAVAILABLE} for a store that cannot be written now, where a retry may succeed); null for a
 *     problem of the file itself
 */
public record ImportProblem(Path file, int line, String message, boolean fatal, @Nullable String callId,
                            @Nullable String record, @Nullable ErrorCode storeError) {
    /**
     * Checks the parts; {@code line} is taken as given.
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the problem is not on one line
     * @param message what is wrong
     * @param fatal whether the file was rejected or only warned about
     * @param callId the tool-call id the problem is about, or null
     * @param record the id of the source record the problem is about, or null
     * @param storeError the store's error code for a file the store did not take, or null for a problem of the file
     *     itself
     * @throws NullPointerException if {@code file} or {@code message} is null
     */
    public ImportProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
    }

    /**
     * A problem of the file itself, about a call or a record.
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the problem is not on one line
     * @param message what is wrong
     * @param fatal whether the file was rejected or only warned about
     * @param callId the tool-call id the problem is about, or null
     * @param record the id of the source record the problem is about, or null
     * @throws NullPointerException if {@code file} or {@code message} is null
     */
    public ImportProblem(Path file, int line, String message, boolean fatal, @Nullable String callId,
                         @Nullable String record) {
        this(file, line, message, fatal, callId, record, null);
    }

    /**
     * A problem about no particular call or record.
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the problem is not on one line
     * @param message what is wrong
     * @param fatal whether the file was rejected or only warned about
     * @throws NullPointerException if {@code file} or {@code message} is null
     */
    public ImportProblem(Path file, int line, String message, boolean fatal) {
        this(file, line, message, fatal, null, null);
    }

    /**
     * {@code file:line: message} (or {@code file: message}).
     *
     * @return the problem in one line, {@code file: message} when {@code line} is 0
     */
    public String describe() {
        return file + (line > 0 ? ":" + line : "") + ": " + message;
    }

    /** A file read well that the store refused: rejected, with the store's error. */
    static ImportProblem notStored(Path file, ParleyException e) {
        return new ImportProblem(file, 0, "not stored: " + e.getMessage(), true, null, null, e.code());
    }

    static ImportProblem fatal(Path file, int line, String message) {
        return new ImportProblem(file, line, message, true);
    }

    static ImportProblem warning(Path file, int line, String message) {
        return new ImportProblem(file, line, message, false);
    }
}
