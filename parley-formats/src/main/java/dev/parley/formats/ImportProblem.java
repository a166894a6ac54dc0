package dev.parley.formats;

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
 */
public record ImportProblem(Path file, int line, String message, boolean fatal, @Nullable String callId,
                            @Nullable String record) {
    public ImportProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
    }

    /** A problem about no particular call or record. */
    public ImportProblem(Path file, int line, String message, boolean fatal) {
        this(file, line, message, fatal, null, null);
    }

    /** {@code file:line: message} (or {@code file: message}). */
    public String describe() {
        return file + (line > 0 ? ":" + line : "") + ": " + message;
    }

    static ImportProblem fatal(Path file, int line, String message) {
        return new ImportProblem(file, line, message, true);
    }

    static ImportProblem warning(Path file, int line, String message) {
        return new ImportProblem(file, line, message, false);
    }
}
