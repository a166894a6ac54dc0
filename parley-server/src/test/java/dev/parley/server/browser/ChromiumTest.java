package dev.parley.server.browser;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The browser tests fail, never skip, where Chromium is missing: a skipped browser test would hide in green. */
class ChromiumTest {
    @Test
    void missingChromium_failsTheTest_namingThePackages_ratherThanSkippingIt() {
        Path nowhere = Path.of("/nonexistent/chromium");
        assertThatThrownBy(() -> Chromium.requireInstalled(nowhere, Chromium.DRIVER))
                .isInstanceOf(AssertionFailedError.class)
                .isNotInstanceOf(TestAbortedException.class)
                .hasMessageContaining("apt-get install -y chromium chromium-driver");
        assertThatThrownBy(() -> Chromium.requireInstalled(Chromium.BROWSER, Path.of("/nonexistent/chromedriver")))
                .isInstanceOf(AssertionFailedError.class);
    }
}
