package dev.parley.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.log.NewSession;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import dev.parley.server.ParleyServer;
import dev.parley.server.ServerConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The session browser in a real headless Chromium (Selenium, Debian's chromium): the list and its search, a
 * multi-agent session with a tool call expanded, a switch to another branch from the tree, a live append arriving
 * through the event stream, and stored markup shown as text. The store is a real SQLite file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserTest {
    static final SessionId MULTI = new SessionId("multi-agent-0001");
    static final SessionId TRICKY = new SessionId("tricky-0001");
    static final SessionId LIVE = new SessionId("live-0001");
    static final AgentId MAIN = new AgentId("main");
    static final AgentId WORKER = new AgentId("worker-1");
    /** A 1×1 PNG. */
    static final String PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    @TempDir
    static Path dir;

    Store store;
    ParleyServer server;
    ChromeDriver driver;
    String base;

    @BeforeAll
    void start() throws Exception {
        store = Stores.open("sqlite:" + dir.resolve("browser.db"));
        seed(store);
        server = ParleyServer.start(store, ServerConfig.defaults().withPort(0));
        base = server.uri().toString();
        driver = Chromium.start(dir.resolve("profile"));
    }

    @AfterAll
    void stop() {
        if (driver != null) {
            driver.quit();
        }
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    static void seed(Store store) {
        var catalog = store.catalog().orElseThrow();
        for (int i = 0; i < 30; i++) {
            SessionId id = new SessionId(String.format(Locale.ROOT, "filler-%04d", i));
            catalog.create(new NewSession(id, "Filler session " + i, null, Map.of()));
            store.log().append(id, MAIN, List.of(NewEntry.of(new EntryId("f" + i), null, null,
                    Message.user("filler prompt " + i))), Usage.ZERO);
        }
        catalog.create(new NewSession(MULTI, "Multi-agent build", null, Map.of()));
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        append(store, MULTI, MAIN, "u1", null, t, Message.user("Build the thing"));
        append(store, MULTI, WORKER, "w1", null, t.plusSeconds(1), Message.user("Subtask: count the files"));
        append(store, MULTI, MAIN, "a1", "u1", t.plusSeconds(2), Message.builder(Role.ASSISTANT)
                .content(List.of(new ContentBlock.Thinking("I should list the directory first", "sig"),
                        new ContentBlock.ToolCall("call-1", "bash", RawJson.of("{\"cmd\":\"ls -la /srv\"}"))))
                .usage(new Usage(1200, 80, 300, 0, 0, new BigDecimal("0.0123"))).model("claude-opus-4-5").build());
        append(store, MULTI, MAIN, "t1", "a1", t.plusSeconds(3), Message.toolResults(List.of(
                ContentBlock.ToolResult.text("call-1", "bash", "listing-output-7731\nreadme.md", false))));
        append(store, MULTI, WORKER, "w2", "w1", t.plusSeconds(4), Message.builder(Role.ASSISTANT)
                .content(List.of(new ContentBlock.Text("There are 3 files.")))
                .usage(new Usage(400, 10, 0, 0, 0, new BigDecimal("0.0020"))).build());
        append(store, MULTI, MAIN, "c1", "t1", t.plusSeconds(5), new EntryPayload.Compaction(
                "Earlier: listed the files.", new EntryId("t1"), 15_000L));
        append(store, MULTI, MAIN, "a2", "c1", t.plusSeconds(6), Message.builder(Role.ASSISTANT)
                .content(List.of(new ContentBlock.Text("Here is a picture of it."),
                        new ContentBlock.Image("image/png", PIXEL, null))).build());
        // two branches from a2: blue first, then red (the active leaf)
        append(store, MULTI, MAIN, "ub", "a2", t.plusSeconds(7), Message.user("Make it blue"));
        append(store, MULTI, MAIN, "ab", "ub", t.plusSeconds(8), Message.assistant(List.of(
                new ContentBlock.Text("Blue branch answer"))));
        append(store, MULTI, MAIN, "ur", "a2", t.plusSeconds(9), Message.user("Make it red"));
        append(store, MULTI, MAIN, "ar", "ur", t.plusSeconds(10), Message.assistant(List.of(
                new ContentBlock.Text("Red branch answer"))));
        append(store, MULTI, MAIN, "ud", "ar", t.plusSeconds(11), Message.user("And now green?"));

        catalog.create(new NewSession(TRICKY, "<script>alert('title')</script> Tricky", null, Map.of()));
        append(store, TRICKY, MAIN, "x1", null, null, Message.user(
                "look: <script>window.__xss = 1</script> <b>bold</b> NUL:\u0000 ESC:\u001b[31mred\u001b[0m"));

        catalog.create(new NewSession(LIVE, "Live session", null, Map.of()));
        append(store, LIVE, MAIN, "l1", null, null, Message.user("Start"));
    }

    static void append(Store store, SessionId session, AgentId agent, String id, String parent, Instant at,
                       EntryPayload payload) {
        Usage usage = payload instanceof Message m && m.usage() != null ? m.usage() : Usage.ZERO;
        store.log().append(session, agent, List.of(NewEntry.of(new EntryId(id), parent == null ? null
                : new EntryId(parent), at, payload)), usage);
    }

    WebDriverWait waitFor() {
        return new WebDriverWait(driver, Duration.ofSeconds(20));
    }

    @Test
    void list_opensNewestFirst_pagesByCursor_andSearchFindsByTitle() {
        driver.get(base + "/");
        List<WebElement> titles = driver.findElements(By.cssSelector("table.sessions a.title"));
        assertThat(titles).hasSize(Pages.LIST_PAGE);
        // the live session was created last: newest activity first
        assertThat(titles.get(0).getText()).isEqualTo("Live session");
        assertThat(driver.findElement(By.cssSelector("a[rel=next]")).getAttribute("href")).contains("cursor=");

        WebElement q = driver.findElement(By.name("q"));
        q.sendKeys("multi-agent");
        q.sendKeys(Keys.ENTER);
        waitFor().until(d -> d.findElements(By.cssSelector("table.sessions a.title")).size() == 1);
        WebElement hit = driver.findElement(By.cssSelector("table.sessions a.title"));
        assertThat(hit.getText()).isEqualTo("Multi-agent build");
        WebElement row = driver.findElement(By.cssSelector("table.sessions tbody tr"));
        assertThat(row.getText()).contains("main", "worker-1", "$0.0143");
        assertThat(driver.getCurrentUrl()).contains("q=multi-agent");
    }

    @Test
    void list_searchByText_andByIdPrefix() {
        driver.get(base + "/?q=" + "listing-output-7731");
        assertThat(driver.findElements(By.cssSelector("table.sessions a.title")))
                .extracting(WebElement::getText).containsExactly("Multi-agent build");
        driver.get(base + "/?q=tricky-");
        assertThat(driver.findElements(By.cssSelector("table.sessions code")))
                .extracting(WebElement::getText).containsExactly("tricky-0001");
        driver.get(base + "/?agent=worker-1");
        assertThat(driver.findElements(By.cssSelector("table.sessions a.title")))
                .extracting(WebElement::getText).containsExactly("Multi-agent build");
    }

    @Test
    void session_interleavesAgentsInLanes_andExpandsAToolCall() throws Exception {
        driver.get(base + "/");
        driver.findElement(By.linkText("Multi-agent build")).click();
        waitFor().until(ExpectedConditions.urlContains("/s/" + MULTI.value()));
        List<WebElement> entries = driver.findElements(By.cssSelector("#timeline article.entry"));
        assertThat(entries).extracting(e -> e.getAttribute("id")).containsExactly("e-u1", "e-w1", "e-a1", "e-t1",
                "e-w2", "e-c1", "e-a2", "e-ub", "e-ab", "e-ur", "e-ar", "e-ud");
        assertThat(entries.get(0).getAttribute("class")).contains("lane0");
        assertThat(entries.get(1).getAttribute("class")).contains("lane1");
        assertThat(entries.get(1).getAttribute("class")).doesNotContain("c0");

        WebElement tool = driver.findElement(By.cssSelector("#e-a1 details.tool"));
        WebElement output = tool.findElement(By.cssSelector(".output pre"));
        assertThat(output.isDisplayed()).isFalse();
        tool.findElement(By.tagName("summary")).click();
        waitFor().until(d -> output.isDisplayed());
        assertThat(output.getText()).contains("listing-output-7731");
        assertThat(tool.findElement(By.cssSelector(".args pre")).getText()).contains("\"cmd\" : \"ls -la /srv\"");
        // thinking folded, compaction marked, the image shown, the dangling prompt named, usage per message
        assertThat(driver.findElement(By.cssSelector("#e-a1 details.thinking")).getAttribute("open")).isNull();
        assertThat(driver.findElement(By.cssSelector("#e-c1 .compaction")).getText()).contains("15000 tokens before");
        assertThat(driver.findElement(By.cssSelector("#e-a2 img")).getAttribute("src")).startsWith("data:image/png;base64,");
        assertThat(driver.findElement(By.cssSelector("#e-ud .dangling")).getText()).contains("dangling prompt");
        assertThat(driver.findElement(By.cssSelector("#e-a1 .usage")).getText()).contains("in 1,200", "$0.0123");
        assertThat(driver.findElement(By.cssSelector("table.totals")).getText()).contains("worker-1", "$0.0020");
        // for docs/10: two agents in their lanes (a made-up session; the real transcripts have one agent each)
        driver.findElement(By.cssSelector("#e-a1 details.thinking summary")).click();
        Chromium.screenshot(driver, "browser-multi-agent.png");
    }

    @Test
    void tree_marksTheActiveLeaf_andOpensAnotherBranch() {
        driver.get(base + "/s/" + MULTI.value() + "/tree");
        List<WebElement> leaves = driver.findElements(By.cssSelector("ol.tree a.leaf"));
        assertThat(leaves).hasSize(3); // the blue branch, the red branch (active), the worker's
        WebElement active = driver.findElement(By.cssSelector("ol.tree li.active"));
        assertThat(active.getText()).contains("active leaf", "Make it red");
        WebElement blue = driver.findElements(By.cssSelector("ol.tree li")).stream()
                .filter(li -> li.getText().contains("Make it blue")).findFirst().orElseThrow();
        blue.findElement(By.cssSelector("a.leaf")).click();
        waitFor().until(ExpectedConditions.urlContains("leaf=ab"));
        String timeline = driver.findElement(By.id("timeline")).getText();
        assertThat(timeline).contains("Build the thing", "Make it blue", "Blue branch answer")
                .doesNotContain("Make it red", "Subtask: count the files");
    }

    @Test
    void live_anAppendAppearsWithoutReload() {
        driver.get(base + "/s/" + LIVE.value());
        assertThat(driver.findElements(By.cssSelector("#timeline article.entry"))).hasSize(1);
        waitFor().until(d -> ((JavascriptExecutor) d).executeScript(
                "var d = document.getElementById('timeline')['htmx-internal-data'];"
                        + " return !!(d && d.sseEventSource && d.sseEventSource.readyState === 1)") == Boolean.TRUE);
        ((JavascriptExecutor) driver).executeScript("window.__notReloaded = true");
        append(store, LIVE, WORKER, "l2", null, null, Message.assistant(List.of(
                new ContentBlock.Text("appended while watching 4242"))));
        waitFor().until(d -> d.findElements(By.cssSelector("#timeline article.entry")).size() == 2);
        assertThat(driver.findElement(By.id("e-l2")).getText()).contains("appended while watching 4242", "worker-1");
        assertThat(((JavascriptExecutor) driver).executeScript("return window.__notReloaded")).isEqualTo(true);
    }

    @Test
    void session_showsStoredMarkupAsText_andControlCharactersVisibly() {
        driver.get(base + "/s/" + TRICKY.value());
        assertThat(driver.findElement(By.tagName("h1")).getText()).isEqualTo("<script>alert('title')</script> Tricky");
        String text = driver.findElement(By.cssSelector("#e-x1 .text")).getText();
        assertThat(text).contains("<script>window.__xss = 1</script>", "<b>bold</b>", "NUL:\u2400", "ESC:\u241b[31mred");
        assertThat(driver.findElements(By.cssSelector("#e-x1 script, #e-x1 b"))).isEmpty();
        assertThat(((JavascriptExecutor) driver).executeScript("return window.__xss === undefined")).isEqualTo(true);
        driver.get(base + "/");
        assertThat(driver.findElement(By.linkText("<script>alert('title')</script> Tricky")).isDisplayed()).isTrue();
    }
}
