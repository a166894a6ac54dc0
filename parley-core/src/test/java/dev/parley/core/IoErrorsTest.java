package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression (break: "cannot write /d/X.jsonl: /d/X.jsonl"): the JDK's file-system exceptions carry the file's name
 * as their message, so messages built from it named the file twice and never said why.
 */
class IoErrorsTest {
    @TempDir
    Path dir;

    @Test
    void fileSystemExceptions_giveTheirReason_notTheFileNameAgain() throws Exception {
        assertThat(IoErrors.describe(new AccessDeniedException("/d/x.jsonl"))).isEqualTo("permission denied");
        assertThat(IoErrors.describe(new FileSystemException("/d/x.jsonl", null, "No space left on device")))
                .isEqualTo("No space left on device");
        assertThat(IoErrors.describe(new IOException("Input/output error"))).isEqualTo("Input/output error");
        assertThat(IoErrors.describe(new IOException())).isEqualTo("IOException");

        Path missing = dir.resolve("no-such-dir").resolve("f");
        IOException real = null;
        try {
            Files.newByteChannel(missing, StandardOpenOption.WRITE).close();
        } catch (IOException e) {
            real = e;
        }
        assertThat(real).isNotNull();
        assertThat(real.getMessage()).isEqualTo(missing.toString()); // what the JDK gives
        assertThat(IoErrors.describe(real)).isEqualTo("no such file or directory");
    }
}
