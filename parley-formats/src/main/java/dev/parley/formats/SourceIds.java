package dev.parley.formats;

import dev.parley.core.Ids;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Checks on ids read from sources. Ids that merely fall outside Parley's id rule (spaces, brackets: a redacted
 * fixture's {@code [trimmed for fixture]}) are tolerated and replaced by synthesized ids, but an id that is too long
 * or could escape a directory (a path separator, {@code ..}, a NUL) rejects the file: it is not a harmless oddity.
 */
final class SourceIds {
    private SourceIds() {}

    /** @throws SourceFileException naming the file and line if the value is dangerous */
    static void checkSafe(@Nullable String value, String what, Path file, int line) {
        if (value == null) {
            return;
        }
        if (value.length() > Ids.MAX_LENGTH) {
            throw new SourceFileException(file, line, what + " is " + value.length() + " characters long (at most "
                    + Ids.MAX_LENGTH + ")");
        }
        if (value.indexOf('/') >= 0 || value.indexOf('\\') >= 0 || value.indexOf('\0') >= 0 || value.equals(".")
                || value.equals("..")) {
            throw new SourceFileException(file, line, what + " '" + value.replace("\0", "\\u0000")
                    + "' could escape a directory");
        }
    }
}
