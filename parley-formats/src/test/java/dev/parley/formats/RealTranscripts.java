package dev.parley.formats;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the real transcripts are: {@code -Dparley.transcripts} (the build sets it to the workspace's
 * {@code ../shared/data/transcripts}, beside the checkout). They are third-party agent transcripts kept outside the
 * repository (see {@code ../shared/data/transcripts/SOURCES.md}), so a checkout on its own does not have them: there
 * the tests that need them are reported as skipped, with the missing path as the reason. The self-made samples in
 * {@code examples/transcripts} and the format tests keep every format covered without them.
 *
 * <p>Where they must run, set {@code PARLEY_REQUIRE_TRANSCRIPTS=1} ({@code .ci/run} does when the workspace has
 * them): a missing directory then fails the tests instead of skipping them, so a wrong path cannot pass unnoticed.
 */
public final class RealTranscripts {
    private RealTranscripts() {}

    /** The real transcripts' directory; skips the calling test (or fails it, as above) where it is missing. */
    public static Path dir() {
        return require(System.getProperty("parley.transcripts", "../../shared/data/transcripts"),
                "the real transcripts");
    }

    /** pi's expected contexts' directory, as {@link #dir()}. */
    public static Path expected() {
        return require(System.getProperty("parley.expected", "../../shared/data/expected"), "pi's expected contexts");
    }

    private static Path require(String path, String what) {
        Path dir = Path.of(path).toAbsolutePath().normalize();
        String reason = what + " are not at " + dir + ": they are third-party data kept beside the checkout, not in it"
                + " (../shared/data, see transcripts/SOURCES.md); -Dparley.transcripts and -Dparley.expected point at them";
        if (!Files.isDirectory(dir) && "1".equals(System.getenv("PARLEY_REQUIRE_TRANSCRIPTS"))) {
            fail(reason + "; PARLEY_REQUIRE_TRANSCRIPTS=1 says they must be there");
        }
        assumeTrue(Files.isDirectory(dir), reason);
        return dir;
    }
}
