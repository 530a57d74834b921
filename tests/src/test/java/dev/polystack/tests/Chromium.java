package dev.polystack.tests;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The machine's Chromium (Debian's {@code chromium} package), driven by Playwright without downloading a
 * browser. Tests that need it are skipped with a printed reason when it is missing, unless
 * {@code POLYSTACK_REQUIRE_BROWSER} is set (CI), where a missing browser fails them.
 */
final class Chromium {

    static final Path EXECUTABLE = Path.of("/usr/bin/chromium");
    private static final List<String> FLAGS = List.of(
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic");

    private Chromium() {}

    /** Skips the calling test (class) when there is no browser and none is required. */
    static void assumeAvailable(String test) {
        boolean present = Files.isExecutable(EXECUTABLE);
        boolean required = System.getenv("POLYSTACK_REQUIRE_BROWSER") != null;
        if (!present && !required) {
            System.out.println("SKIPPED " + test + ": no Chromium at " + EXECUTABLE + " (apt-get install chromium)");
        }
        Assumptions.assumeTrue(
                present || required, "no Chromium at " + EXECUTABLE + "; install it (apt-get install chromium)");
        assertThat(EXECUTABLE)
                .as("Chromium, required by POLYSTACK_REQUIRE_BROWSER")
                .isExecutable();
    }

    /**
     * How long the browser tests wait by default for a page, an element or an assertion. Playwright's own 5 s is a
     * fast laptop's: here two cores also run the control plane, the agent, the stand-in OpenTofu (or Keycloak) and the
     * browser, and a first load of the console's bundle can take longer.
     */
    static final int PATIENCE_MS = 20_000;

    /** Playwright with the machine's browser, its assertions waiting {@link #PATIENCE_MS}. */
    static Playwright playwright() {
        PlaywrightAssertions.setDefaultAssertionTimeout(PATIENCE_MS);
        return Playwright.create(
                new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    }

    /** A new browser context whose pages wait {@link #PATIENCE_MS} for what they look for. */
    static BrowserContext context(Browser browser, Browser.NewContextOptions options) {
        BrowserContext context = browser.newContext(options);
        context.setDefaultTimeout(PATIENCE_MS);
        return context;
    }

    static Browser launch(Playwright playwright) {
        return playwright
                .chromium()
                .launch(new BrowserType.LaunchOptions()
                        .setExecutablePath(EXECUTABLE)
                        .setHeadless(true)
                        .setArgs(FLAGS));
    }
}
