package dev.parley.formats;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Something an import found wrong with a source file.
 *
 * @param file the file
 * @param line the 1-based line, or 0 when the problem is not on one line
 * @param message what is wrong
 * @param fatal whether the file was rejected (nothing of it stored) or only warned about
 */
public record ImportProblem(Path file, int line, String message, boolean fatal) {
    public ImportProblem {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(message, "message");
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
