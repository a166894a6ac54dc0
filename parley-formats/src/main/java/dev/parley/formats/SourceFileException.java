package dev.parley.formats;

import dev.parley.core.InvalidInputException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** A source file cannot be imported; the message names the file and line. Nothing of the file is stored. */
public final class SourceFileException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /** The 1-based line, or 0 when the problem is not on one line. */
    private final int line;
    /** Whether the file is not of the format being read, rather than a broken file of it. */
    private final boolean notOfTheFormat;

    /**
     * A broken source file, with no underlying failure.
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the problem is not on one line
     * @param message what is wrong; the exception's message is {@code file:line: message} ({@code file: message}
     *     for line 0)
     */
    public SourceFileException(Path file, int line, String message) {
        this(file, line, message, null);
    }

    /**
     * A broken source file, with the failure that showed it (a JSON parser's error, an I/O error).
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the problem is not on one line
     * @param message what is wrong; the exception's message is {@code file:line: message} ({@code file: message}
     *     for line 0)
     * @param cause the underlying failure, or null
     */
    public SourceFileException(Path file, int line, String message, @Nullable Throwable cause) {
        this(file, line, message, cause, false);
    }

    private SourceFileException(Path file, int line, String message, @Nullable Throwable cause,
                                boolean notOfTheFormat) {
        super(file + (line > 0 ? ":" + line : "") + ": " + message, cause);
        this.file = file;
        this.line = line;
        this.notOfTheFormat = notOfTheFormat;
    }

    /**
     * The file is not of the format being read — {@code shape} says what that format's files look like — rather than
     * a broken file of it; a forced format reports it as {@code --format F does not fit: shape}.
     */
    static SourceFileException notOfTheFormat(Path file, int line, String shape) {
        return new SourceFileException(file, line, shape, null, true);
    }

    /** Whether the file is not of the format being read (see {@link #notOfTheFormat}). */
    boolean isNotOfTheFormat() {
        return notOfTheFormat;
    }

    /**
     * The file. Not serialized (a {@link Path} is not serializable): a copy read back from a serialized form has none,
     * and its message still names the file.
     *
     * @return the file; null on a copy read back from a serialized form
     */
    public Path file() {
        return file;
    }

    /**
     * The 1-based line, or 0.
     *
     * @return the line, 0 when the problem is not on one line
     */
    public int line() {
        return line;
    }

    /**
     * As an import problem.
     *
     * @return a fatal problem with this file and line, and the message without its {@code file:line: } prefix
     * @throws NullPointerException on a copy read back from a serialized form, which has no file
     */
    public ImportProblem problem() {
        String prefix = file + (line > 0 ? ":" + line : "") + ": ";
        String message = getMessage().startsWith(prefix) ? getMessage().substring(prefix.length()) : getMessage();
        return ImportProblem.fatal(file, line, message);
    }
}
