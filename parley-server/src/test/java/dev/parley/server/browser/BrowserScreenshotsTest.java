package dev.parley.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.formats.ImportProblem;
import dev.parley.formats.ImportResult;
import dev.parley.formats.Importer;
import dev.parley.formats.RealTranscripts;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Real transcripts in the browser: a Claude Code session (thinking, tool calls, a compaction), another with an
 * image, and pi's branched session are imported through parley-formats, opened in Chromium, and photographed for
 * {@code docs/images/} (the list, a session, a tree), which {@code docs/10-session-browser.md} shows.
 *
 * <p>The transcripts live beside the checkout; where they are missing the test is skipped, or fails where
 * {@code PARLEY_REQUIRE_TRANSCRIPTS=1} ({@code .ci/run}) says they must be there ({@link RealTranscripts}).
 */
class BrowserScreenshotsTest {
    static final String CLAUDE = "claude-code/fasthooks/fasthooks-sample_main_transcript.jsonl";
    static final String CLAUDE_IMAGE = "claude-code/agentcmd/agentcmd-full-session-two.jsonl";
    static final String PI_BRANCHED = "pi-v3/pi-mono-before-compaction.branched.v3.jsonl";

    @TempDir
    Path dir;

    @Test
    void realTranscripts_listSessionAndTree_renderAndArePhotographed() throws Exception {
        Path source = RealTranscripts.dir();
        try (Store store = Stores.open("sqlite:" + dir.resolve("real.db"))) {
            List<ImportResult> imported = new ArrayList<>();
            List<ImportProblem> problems = new ArrayList<>();
            int rejected = new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(source.resolve(CLAUDE),
                    source.resolve(CLAUDE_IMAGE), source.resolve(PI_BRANCHED)), null, new Importer.Listener() {
                        @Override
                        public void session(ImportResult result) {
                            imported.add(result);
                        }

                        @Override
                        public void problem(ImportProblem problem) {
                            problems.add(problem);
                        }
                    });
            assertThat(rejected).as("rejected files: %s", problems).isZero();
            SessionId claude = sessionFrom(imported, CLAUDE);
            SessionId pi = sessionFrom(imported, PI_BRANCHED);

            ParleyServer server = ParleyServer.start(store, ServerConfig.defaults().withPort(0));
            ChromeDriver driver = Chromium.start(dir.resolve("profile"));
            try {
                driver.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 1200));
                String base = server.uri().toString();
                driver.get(base + "/");
                assertThat(driver.findElements(By.cssSelector("table.sessions a.title"))).hasSizeGreaterThanOrEqualTo(3);
                Chromium.screenshot(driver, "browser-list.png");

                driver.get(base + "/s/" + claude.value());
                List<WebElement> tools = driver.findElements(By.cssSelector("details.tool"));
                assertThat(tools).isNotEmpty();
                assertThat(driver.findElements(By.cssSelector(".compaction"))).isNotEmpty();
                assertThat(driver.findElements(By.cssSelector("details.thinking"))).isNotEmpty();
                tools.get(0).findElement(By.tagName("summary")).click();
                Chromium.screenshot(driver, "browser-session.png");

                driver.get(base + "/s/" + pi.value() + "/tree");
                assertThat(driver.findElements(By.cssSelector("ol.tree a.leaf"))).hasSizeGreaterThan(1);
                assertThat(driver.findElements(By.cssSelector("ol.tree li.active"))).hasSize(1);
                Chromium.screenshot(driver, "browser-tree.png");
            } finally {
                driver.quit();
                server.close();
            }
        }
    }

    private static SessionId sessionFrom(List<ImportResult> imported, String file) {
        return imported.stream().filter(r -> r.agents().stream().anyMatch(a -> a.source() != null
                        && a.source().toString().endsWith(file)))
                .map(ImportResult::session).findFirst()
                .orElseThrow(() -> new AssertionError("no session imported from " + file + ": " + imported));
    }
}
