package dev.parley.formats;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the real transcripts are: {@code -Dparley.transcripts} (the build sets it to the workspace's
 * {@code ../shared/data/transcripts}). Tests that need them are aborted — reported as skipped, with this reason —
 * on a checkout without them.
 */
final class RealTranscripts {
    private RealTranscripts() {}

    static Path dir() {
        String p = System.getProperty("parley.transcripts", "../../shared/data/transcripts");
        Path dir = Path.of(p).toAbsolutePath().normalize();
        assumeTrue(Files.isDirectory(dir), "the real transcripts are not in this workspace: " + dir);
        return dir;
    }

    static Path expected() {
        String p = System.getProperty("parley.expected", "../../shared/data/expected");
        Path dir = Path.of(p).toAbsolutePath().normalize();
        assumeTrue(Files.isDirectory(dir), "pi's expected contexts are not in this workspace: " + dir);
        return dir;
    }
}
