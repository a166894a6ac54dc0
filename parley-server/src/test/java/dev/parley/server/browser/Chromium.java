package dev.parley.server.browser;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium for the browser tests: Debian's {@code chromium} and {@code chromium-driver} packages,
 * driven by Selenium without Selenium Manager (which would download a browser; this machine's network is closed).
 * When either is missing the tests FAIL, naming the packages: {@code .ci/run} installs them, and a browser test
 * that skips would hide in green.
 */
final class Chromium {
    static final Path BROWSER = Path.of(System.getenv().getOrDefault("PARLEY_CHROMIUM", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getenv().getOrDefault("PARLEY_CHROMEDRIVER", "/usr/bin/chromedriver"));

    private Chromium() {}

    /** Fails (never skips) the calling test unless both executables are there, naming the packages to install. */
    static void requireInstalled(Path browser, Path driver) {
        if (!Files.isExecutable(browser) || !Files.isExecutable(driver)) {
            fail("the browser tests need Debian's chromium and chromium-driver (" + browser + ", " + driver
                    + "): apt-get install -y chromium chromium-driver (.ci/run does)");
        }
    }

    /** Where the screenshots for the documentation go: {@code docs/images} of the checkout (tests run in a module). */
    static final Path IMAGES = Path.of("..", "docs", "images").toAbsolutePath().normalize();

    /** Saves what the browser shows as {@code docs/images/NAME}. */
    static void screenshot(ChromeDriver driver, String name) throws IOException {
        Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
        if (Files.size(shot) == 0) {
            fail("an empty screenshot for " + name);
        }
        Files.createDirectories(IMAGES);
        Files.copy(shot, IMAGES.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    static ChromeDriver start(Path profile) throws IOException {
        requireInstalled(BROWSER, DRIVER);
        System.setProperty("SE_OFFLINE", "true");
        Files.createDirectories(profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1280,900",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", "--hide-scrollbars");
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return driver;
    }
}
