package dev.polystack.tests;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.LoadState;
import dev.polystack.tests.standin.StandInTofu;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import static dev.polystack.tests.ConsolePages.assertAccessible;
import static dev.polystack.tests.ConsolePages.assertFitsItsCanvas;
import static dev.polystack.tests.ConsolePages.assertKeyboardReachable;
import static dev.polystack.tests.ConsolePages.lineOfLintMarker;
import static dev.polystack.tests.ConsolePages.typeInto;
import static dev.polystack.tests.ConsolePages.typeManifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console in a real headless Chromium (Debian's, driven by Playwright) against the packaged control
 * plane on its embedded PostgreSQL and a runner agent with the OpenTofu stand-in: a platform engineer
 * configures, a developer deploys and watches, a 500-resource graph is laid out, and every page is toured at
 * laptop and phone width with axe-core. Screenshots go to {@code web-console/target/screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the page tour comes last, when the deployment and module exist
class ConsoleIT {

    private static final String ADMIN = "pst_console-admin-token-0123456789abcdefghijklmnopq";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Locator.GetByLabelOptions EXACT = new Locator.GetByLabelOptions().setExact(true);
    private static final String MODULE = """
            variable "name" { type = string }
            variable "upstream" {
              type    = any
              default = null
            }
            resource "terraform_data" "this" {
              input = { name = var.name, upstream = var.upstream }
            }
            output "name" { value = var.name }
            """;

    @TempDir
    static Path workspace;

    private static PlatformProcess platform;
    private static AgentProcess agent;
    private static Playwright playwright;
    private static Browser browser;
    private static String url;
    private static Polystack polystack;
    private static Path screenshots;

    @BeforeAll
    static void start() throws Exception {
        Chromium.assumeAvailable("ConsoleIT");
        screenshots = Files.createDirectories(PlatformProcess.repository().resolve("web-console/target/screenshots"));

        platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start();
        url = platform.baseUrl();
        polystack = new Polystack(url, ADMIN);
        polystack.organization();
        polystack.environment("prod");
        Path key = workspace.resolve("keys/r1.key");
        polystack.runner("r1", AgentProcess.keygen(key), 2);
        polystack.runnerRule("r1");
        Path tofu = StandInTofu.writeLauncher(workspace.resolve("bin"), System.getProperty("java.class.path"));
        agent = AgentProcess.start(url, "acme", "r1", key, tofu.toString(), workspace.resolve("agent"), 2);

        playwright = Chromium.playwright();
        browser = Chromium.launch(playwright);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (playwright != null) {
            playwright.close();
        }
        if (agent != null) {
            agent.close();
        }
        if (platform != null) {
            platform.close();
        }
    }

    /** A browser tab at laptop size that records every console error and uncaught exception. */
    private record Tab(BrowserContext context, Page page, List<String> errors) implements AutoCloseable {
        static Tab open() {
            BrowserContext context =
                    Chromium.context(browser, new Browser.NewContextOptions().setViewportSize(1280, 800));
            Page page = context.newPage();
            List<String> errors = new CopyOnWriteArrayList<>();
            page.onConsoleMessage(message -> {
                if (message.type().equals("error")) {
                    errors.add(message.text());
                }
            });
            page.onPageError(error -> errors.add("uncaught: " + error));
            return new Tab(context, page, errors);
        }

        @Override
        public void close() {
            context.close();
        }
    }

    @Test
    @Order(1)
    void aPlatformEngineerConfiguresAndADeveloperDeploysAndWatches() throws Exception {
        String platformEngineer = serviceUserToken("pe", "platform-engineer");
        String developer = serviceUserToken("dev", "developer");

        try (Tab tab = Tab.open()) {
            Page page = tab.page();
            signIn(page, platformEngineer);
            // the organization has an environment type, a project with an environment, a runner and its rule, no
            // modules yet
            Locator firstSteps = page.getByRole(AriaRole.REGION, new Page.GetByRoleOptions().setName("First steps"));
            PlaywrightAssertions.assertThat(firstSteps).containsText("4 of 8 done");
            PlaywrightAssertions.assertThat(firstSteps.locator("[aria-current=step]"))
                    .containsText("Define a resource type");
            screenshot(page, "first-steps");
            assertAccessible(page, "the projects page with the first steps");
            firstSteps
                    .getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Define a resource type"))
                    .click();
            PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/console/orgs/acme/resource-types$"));
            configureAsPlatformEngineer(page);
            assertThat(tab.errors())
                    .as("console errors of the platform engineer's pages")
                    .isEmpty();
        }

        try (Tab tab = Tab.open()) {
            Page page = tab.page();
            signIn(page, developer);
            page.waitForLoadState(LoadState.NETWORKIDLE); // every list the checklist needs was read
            PlaywrightAssertions.assertThat(
                            page.getByRole(AriaRole.REGION, new Page.GetByRoleOptions().setName("First steps")))
                    .hasCount(0);
            deployAsDeveloper(page);
            assertThat(tab.errors().stream()
                            .filter(e -> !e.contains("status of 422"))
                            .toList())
                    .as("console errors of the developer's pages (the bad manifest's 422 is expected)")
                    .isEmpty();
        }
    }

    private static void signIn(Page page, String token) {
        page.navigate(url + "/console/");
        page.getByLabel("API token", new Page.GetByLabelOptions().setExact(true))
                .fill(token);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in with token"))
                .click();
        PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/console/orgs/acme/projects$"));
    }

    private static void configureAsPlatformEngineer(Page page) throws Exception {
        // a resource type with an output schema
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Resource types"))
                .click();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("New resource type"))
                .click();
        Locator dialog = page.getByRole(AriaRole.DIALOG);
        dialog.getByLabel("Id", EXACT).fill("thing");
        typeInto(page, dialog, "Output schema", """
                {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}""");
        screenshot(page, "resource-type-dialog");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Save"))
                .click();
        PlaywrightAssertions.assertThat(dialog).isHidden();
        PlaywrightAssertions.assertThat(page.getByRole(
                        AriaRole.CELL,
                        new Page.GetByRoleOptions().setName("thing").setExact(true)))
                .isVisible();
        screenshot(page, "resource-types");

        // an inline module for it
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Modules"))
                .click();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("New module"))
                .click();
        dialog = page.getByRole(AriaRole.DIALOG);
        dialog.getByLabel("Id", EXACT).fill("thing");
        dialog.getByLabel("Resource type", EXACT).selectOption("thing");
        typeInto(page, dialog, "Module source code", MODULE);
        typeInto(page, dialog, "Params", "{\"upstream\": {\"type\": \"any\", \"is_optional\": true}}");
        typeInto(page, dialog, "Inputs", "{\"name\": \"${context.env_id}-${context.res_id}\"}");
        screenshot(page, "module-dialog");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create module"))
                .click();
        PlaywrightAssertions.assertThat(dialog).isHidden();
        page.getByRole(
                        AriaRole.LINK,
                        new Page.GetByRoleOptions().setName("thing").setExact(true))
                .click();
        PlaywrightAssertions.assertThat(page.getByText("variable \"upstream\"").first())
                .isVisible();
        screenshot(page, "module");

        // a module rule without criteria, then the explainer agrees with the rules
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Rules"))
                .click();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("New module rule"))
                .click();
        dialog = page.getByRole(AriaRole.DIALOG);
        dialog.getByLabel("Module", EXACT).selectOption("thing");
        dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create rule"))
                .click();
        PlaywrightAssertions.assertThat(dialog).isHidden();
        Locator explainer = page.locator("section.explainer");
        explainer.getByLabel("Project", EXACT).selectOption("shop");
        explainer.getByLabel("Environment", EXACT).selectOption("prod");
        explainer.getByLabel("Resource type", EXACT).selectOption("thing");
        explainer.getByLabel("Resource id", EXACT).fill("app.db");
        explainer
                .getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Explain"))
                .click();
        PlaywrightAssertions.assertThat(explainer.locator(".card").nth(0)).containsText("chosen");
        PlaywrightAssertions.assertThat(explainer.locator(".card").nth(0)).containsText("thing");
        PlaywrightAssertions.assertThat(explainer.locator(".card").nth(1)).containsText("r1");
        screenshot(page, "rules-explained");
        assertAccessible(page, "the rules page with an explanation");

        for (String[] stop : new String[][] {
            {"Runners", "runners"},
            {"Providers", "providers"},
            {"Environment types", "env-types"},
            {"Members", "members"},
            {"Service users", "service-users"},
            {"Quotas", "quotas"},
            {"Audit log", "audit"}
        }) {
            page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName(stop[0]))
                    .click();
            // on the new page first: the checks below would otherwise pass on the page before it
            PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/orgs/acme/" + stop[1] + "$"));
            PlaywrightAssertions.assertThat(page.getByRole(
                            AriaRole.HEADING,
                            new Page.GetByRoleOptions()
                                    .setName(stop[0])
                                    .setExact(true)
                                    .setLevel(1)))
                    .isVisible();
            PlaywrightAssertions.assertThat(page.locator(".loading")).hasCount(0);
            PlaywrightAssertions.assertThat(page.locator(".problem")).hasCount(0);
            screenshot(page, stop[1]);
        }
        PlaywrightAssertions.assertThat(
                        page.getByRole(AriaRole.CELL, new Page.GetByRoleOptions().setName("createModuleRule")))
                .isVisible();
    }

    private static void deployAsDeveloper(Page page) throws Exception {
        PlaywrightAssertions.assertThat(
                        page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Projects")))
                .isVisible();
        page.getByRole(
                        AriaRole.LINK,
                        new Page.GetByRoleOptions().setName("prod").setExact(true))
                .click();
        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Manifest"))
                .click();

        // a manifest with an unknown type: the error is marked at its line
        String bad = """
                workloads:
                  app:
                    resources:
                      db: { type: thing }
                      cache: { type: nosuchtype }
                """;
        typeManifest(page, bad);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Dry-run"))
                .click();
        PlaywrightAssertions.assertThat(page.getByText("(line 5)")).isVisible();
        PlaywrightAssertions.assertThat(page.locator(".cm-gutter-lint .cm-gutterElement")
                        .filter(new Locator.FilterOptions().setHas(page.locator(".cm-lint-marker-error"))))
                .hasCount(1);
        assertThat(lineOfLintMarker(page)).isEqualTo(5);
        screenshot(page, "manifest-error");

        String good = """
                workloads:
                  app:
                    resources:
                      db: { type: thing }
                      cache: { type: thing }
                      api: { type: thing, params: { upstream: ["${resources.db.outputs.name}", "${resources.cache.outputs.name}"] } }
                      worker: { type: thing, params: { upstream: "${resources.api.outputs.name}" } }
                """;
        typeManifest(page, good);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Dry-run"))
                .click();
        PlaywrightAssertions.assertThat(page.getByText("4 to add")).isVisible();
        screenshot(page, "manifest-dry-run");

        long started = System.nanoTime();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Deploy"))
                .click();
        PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/deployments/[0-9a-f-]{36}$"));
        Locator succeeded =
                page.locator(".page-header .badge").filter(new Locator.FilterOptions().setHasText("succeeded"));
        PlaywrightAssertions.assertThat(succeeded)
                .isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(180_000));
        System.out.printf(
                "ConsoleIT: 4-resource deployment shown as succeeded %.1f s after clicking Deploy%n",
                (System.nanoTime() - started) / 1e9);
        PlaywrightAssertions.assertThat(page.locator(".graph-node.ok")).hasCount(4);
        Locator logs = page.getByRole(AriaRole.LOG, new Page.GetByRoleOptions().setName("Logs of the deployment"));
        PlaywrightAssertions.assertThat(logs)
                .containsText("Apply complete!", new LocatorAssertions.ContainsTextOptions().setTimeout(30_000));
        PlaywrightAssertions.assertThat(page.getByRole(AriaRole.PROGRESSBAR)).hasAttribute("aria-valuetext", "4 of 4");
        screenshot(page, "deployment");
        assertFitsItsCanvas(page, 4);
        assertAccessible(page, "the deployment page");
        // the same when the graph's edges come a second after its nodes (a slow network): laid out again, fitted again
        page.route("**/deployments/*/graph", route -> {
            page.waitForTimeout(1_000);
            route.resume();
        });
        page.reload();
        assertFitsItsCanvas(page, 4);
        PlaywrightAssertions.assertThat(page.locator(".react-flow__edge")).hasCount(3);
        assertFitsItsCanvas(page, 4);
        page.unroute("**/deployments/*/graph");

        // the logs of all resources say whose each line is, and can be narrowed to one resource, a level, a text
        PlaywrightAssertions.assertThat(logs.locator(".log-resource").first()).isVisible();
        page.getByLabel("Resource", new Page.GetByLabelOptions().setExact(true)).selectOption("app.db");
        PlaywrightAssertions.assertThat(
                        logs.locator(".log-resource").filter(new Locator.FilterOptions().setHasNotText("app.db")))
                .hasCount(0);
        PlaywrightAssertions.assertThat(logs).containsText("Apply complete!");
        page.getByLabel("Resource", new Page.GetByLabelOptions().setExact(true)).selectOption("");
        page.getByLabel("Search the logs", new Page.GetByLabelOptions().setExact(true))
                .fill("Apply complete!");
        PlaywrightAssertions.assertThat(logs.locator(".log-line")).hasCount(4);
        page.getByLabel("Search the logs", new Page.GetByLabelOptions().setExact(true))
                .fill("");

        // the logs of one resource
        page.getByRole(
                        AriaRole.BUTTON,
                        new Page.GetByRoleOptions().setName("app.worker").setExact(true))
                .click();
        Locator workerLogs = page.getByRole(AriaRole.LOG, new Page.GetByRoleOptions().setName("Logs of app.worker"));
        PlaywrightAssertions.assertThat(workerLogs).containsText("Apply complete!");

        // the environment's graph, and a resource's outputs
        page.getByRole(
                        AriaRole.LINK,
                        new Page.GetByRoleOptions().setName("prod").setExact(true))
                .click();
        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Resources"))
                .click();
        PlaywrightAssertions.assertThat(page.locator(".graph-node")).hasCount(4);
        PlaywrightAssertions.assertThat(page.locator(".react-flow__edge")).hasCount(3);
        page.locator(".react-flow__node")
                .filter(new Locator.FilterOptions().setHasText("app.api"))
                .click();
        Locator panel =
                page.getByRole(AriaRole.COMPLEMENTARY, new Page.GetByRoleOptions().setName("Selected resource"));
        PlaywrightAssertions.assertThat(panel).containsText("prod-app.api");
        PlaywrightAssertions.assertThat(panel).containsText("terraform_data.this");
        screenshot(page, "environment-graph");
        assertAccessible(page, "the environment's graph with a resource selected");
    }

    /**
     * Every page of the console at laptop and at phone width: no serious or critical accessibility
     * violation at either, a screenshot of each, and at phone width the navigation folded behind a menu
     * button that opens it and folds it again once a page is chosen.
     */
    /**
     * A manual gate in the browser: a developer's deployment to an environment whose type requires approval
     * plans and waits; a platform engineer finds it under Approvals, reviews the plan on the deployment page,
     * approves it with a comment, and watches it apply.
     */
    @Test
    @Order(2)
    void aPlatformEngineerApprovesAPlanThatWaitsForThem() throws Exception {
        String author = serviceUserToken("author", "developer");
        String reviewer = serviceUserToken("reviewer", "platform-engineer");
        polystack
                .api()
                .body(Map.of("id", "gated", "approval", Map.of("deployments", true)))
                .post("/api/v1/orgs/acme/env-types")
                .then()
                .statusCode(201);
        polystack
                .api()
                .body(Map.of("id", "staging", "env_type_id", "gated"))
                .post("/api/v1/orgs/acme/projects/shop/envs")
                .then()
                .statusCode(201);
        String staging = "/api/v1/orgs/acme/projects/shop/envs/staging";
        polystack
                .api()
                .contentType("application/yaml")
                .body("""
                workloads:
                  app:
                    resources:
                      db: { type: thing }
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .put(staging + "/manifest")
                .then()
                .statusCode(201);
        String deployment = RestAssured.given()
                .baseUri(url)
                .auth()
                .oauth2(author)
                .contentType(ContentType.JSON)
                .body(Map.of("mode", "deploy"))
                .post(staging + "/deployments")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(polystack
                        .api()
                        .queryParam("timeout", "120s")
                        .get(staging + "/deployments/{id}/wait", deployment)
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("status"))
                .isEqualTo("awaiting_approval");

        try (Tab tab = Tab.open()) {
            Page page = tab.page();
            signIn(page, reviewer);
            page.getByRole(
                            AriaRole.LINK,
                            new Page.GetByRoleOptions().setName("Approvals").setExact(true))
                    .click();
            Locator waiting = page.getByRole(
                    AriaRole.TABLE, new Page.GetByRoleOptions().setName("Deployments waiting for your approval"));
            PlaywrightAssertions.assertThat(waiting).containsText("0 of 1");
            assertAccessible(page, "the approvals page");
            screenshot(page, "approvals");
            waiting.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("shop/staging"))
                    .click();
            PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/deployments/" + deployment + "$"));
            PlaywrightAssertions.assertThat(
                            page.getByRole(AriaRole.TABLE, new Page.GetByRoleOptions().setName("Planned changes")))
                    .containsText("app.db");
            assertAccessible(page, "a deployment that waits for approval");
            screenshot(page, "deployment-awaiting-approval");

            page.getByRole(
                            AriaRole.BUTTON,
                            new Page.GetByRoleOptions().setName("Approve").setExact(true))
                    .click();
            Locator dialog = page.getByRole(AriaRole.DIALOG);
            dialog.getByLabel("Comment", EXACT).fill("reviewed in the browser");
            dialog.getByRole(
                            AriaRole.BUTTON,
                            new Locator.GetByRoleOptions().setName("Approve").setExact(true))
                    .click();
            Locator succeeded =
                    page.locator(".page-header .badge").filter(new Locator.FilterOptions().setHasText("succeeded"));
            PlaywrightAssertions.assertThat(succeeded)
                    .isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(120_000));
            PlaywrightAssertions.assertThat(
                            page.getByRole(AriaRole.TABLE, new Page.GetByRoleOptions().setName("Decisions")))
                    .containsText("reviewed in the browser");
            assertThat(tab.errors()).as("console errors of the approval").isEmpty();
        }
        assertThat(polystack
                        .api()
                        .get(staging + "/deployments/{id}", deployment)
                        .then()
                        .statusCode(200)
                        .extract()
                        .<String>path("approval.state"))
                .isEqualTo("approved");
    }

    @Test
    @Order(4)
    void everyPageAtLaptopAndPhoneWidthIsAccessible() throws Exception {
        List<String> pages = new ArrayList<>(List.of(
                "projects",
                "projects/shop",
                "projects/shop/envs/prod",
                "projects/shop/envs/prod?tab=manifest",
                "projects/shop/envs/prod?tab=deployments",
                "env-types",
                "resource-types",
                "modules",
                "rules",
                "providers",
                "runners",
                "members",
                "service-users",
                "group-mappings",
                "quotas",
                "audit",
                "tokens",
                "engine",
                "issues",
                "webhooks",
                "approvals"));
        // the deployment's and the module's pages, when the other test made them first
        List<String> deployments = polystack
                .api()
                .get("/api/v1/orgs/acme/projects/shop/envs/prod/deployments")
                .then()
                .statusCode(200)
                .extract()
                .path("items.id");
        if (!deployments.isEmpty()) {
            pages.add("projects/shop/envs/prod/deployments/" + deployments.get(0));
        }
        List<String> modules = polystack
                .api()
                .get("/api/v1/orgs/acme/modules")
                .then()
                .statusCode(200)
                .extract()
                .path("items.id");
        if (!modules.isEmpty()) {
            pages.add("modules/" + modules.get(0));
        }
        try (Tab tab = Tab.open()) {
            Page page = tab.page();
            page.navigate(url + "/console/");
            PlaywrightAssertions.assertThat(page.getByLabel("API token", new Page.GetByLabelOptions().setExact(true)))
                    .isVisible();
            assertAccessible(page, "the sign-in page");
            screenshot(page, "page-sign-in-1280");
            page.setViewportSize(390, 844);
            assertAccessible(page, "the sign-in page at phone width");
            screenshot(page, "page-sign-in-390");
            page.setViewportSize(1280, 800);
            signIn(page, ADMIN);
            for (String path : pages) {
                String name = "page-" + path.replaceAll("[^a-z0-9]+", "-").replaceAll("-$", "");
                page.setViewportSize(1280, 800);
                page.navigate(url + "/console/orgs/acme/" + path);
                PlaywrightAssertions.assertThat(page.locator("main h1").first()).isVisible();
                page.waitForLoadState(LoadState.NETWORKIDLE);
                assertAccessible(page, path + " at 1280×800");
                assertKeyboardReachable(page, path);
                screenshot(page, name + "-1280");

                page.setViewportSize(390, 844);
                Locator navigation = page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main"));
                PlaywrightAssertions.assertThat(navigation).isHidden();
                PlaywrightAssertions.assertThat(
                                page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Menu")))
                        .isVisible();
                assertAccessible(page, path + " at 390×844");
                screenshot(page, name + "-390");
            }
            // at phone width the menu opens the navigation, by keyboard too, and choosing a page folds it
            page.setViewportSize(390, 844);
            Locator menu = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Menu"));
            menu.focus();
            page.keyboard().press("Enter");
            Locator navigation = page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main"));
            PlaywrightAssertions.assertThat(navigation).isVisible();
            PlaywrightAssertions.assertThat(menu).hasAttribute("aria-expanded", "true");
            navigation
                    .getByRole(
                            AriaRole.LINK,
                            new Locator.GetByRoleOptions().setName("Runners").setExact(true))
                    .click();
            PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/console/orgs/acme/runners$"));
            PlaywrightAssertions.assertThat(navigation).isHidden();
            assertThat(tab.errors()).as("console errors").isEmpty();
        }
    }

    @Test
    @Order(3)
    void aFiveHundredResourceGraphLaysOutAndStaysResponsive() throws Exception {
        polystack
                .api()
                .body(Map.of("id", "big", "env_type_id", "production"))
                .post("/api/v1/orgs/acme/projects/shop/envs")
                .then()
                .statusCode(201);
        String graph = JSON.writeValueAsString(largeGraph(83, 6));
        try (Tab tab = Tab.open()) {
            Page page = tab.page();
            // the real page and layout in the real browser; only this one answer is synthetic (500 deployed resources)
            page.route(
                    "**/api/v1/orgs/acme/projects/shop/envs/big/resource-graph*",
                    route -> route.fulfill(new com.microsoft.playwright.Route.FulfillOptions()
                            .setStatus(200)
                            .setContentType("application/json")
                            .setBody(graph)));
            signIn(page, ADMIN);
            long started = System.nanoTime();
            page.navigate(url + "/console/orgs/acme/projects/shop/envs/big");
            Locator figure = page.locator(".graph[data-rendered='true'][data-nodes='500']");
            PlaywrightAssertions.assertThat(figure)
                    .isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(30_000));
            PlaywrightAssertions.assertThat(page.locator(".react-flow__node").first())
                    .isVisible();
            double shownMs = (System.nanoTime() - started) / 1e6;
            double layoutMs = Double.parseDouble(figure.getAttribute("data-layout-ms"));

            // pan and zoom: how long the browser needs to paint the next frames
            Locator pane = page.locator(".react-flow__pane");
            pane.hover();
            List<Double> frameMs = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                page.mouse().wheel(0, i % 2 == 0 ? -300 : 200);
                frameMs.add(((Number)
                                page.evaluate(
                                        "() => new Promise(r => { const t = performance.now(); "
                                                + "requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now() - t))) })"))
                        .doubleValue());
            }
            var box = pane.boundingBox();
            page.mouse().move(box.x + box.width / 2, box.y + box.height / 2);
            page.mouse().down();
            page.mouse()
                    .move(
                            box.x + box.width / 2 + 200,
                            box.y + box.height / 2 + 80,
                            new com.microsoft.playwright.Mouse.MoveOptions().setSteps(10));
            page.mouse().up();

            // select: a node's details appear
            long clicked = System.nanoTime();
            page.locator(".react-flow__node").first().click();
            PlaywrightAssertions.assertThat(page.getByRole(
                                    AriaRole.COMPLEMENTARY, new Page.GetByRoleOptions().setName("Selected resource"))
                            .getByRole(AriaRole.HEADING, new Locator.GetByRoleOptions().setLevel(2)))
                    .isVisible();
            double selectMs = (System.nanoTime() - clicked) / 1e6;
            screenshot(page, "graph-500");
            System.out.printf(
                    "ConsoleIT: 500-resource graph: layout %.0f ms, shown %.0f ms after navigation, "
                            + "pan/zoom frames %s ms, select-to-details %.0f ms%n",
                    layoutMs,
                    shownMs,
                    frameMs.stream().map(ms -> String.format("%.0f", ms)).toList(),
                    selectMs);
            assertThat(tab.errors()).as("console errors").isEmpty();
        }
    }

    /** {@code workloads} chains of {@code depth} resources on a shared network, like a large real environment. */
    private static Map<String, Object> largeGraph(int workloads, int depth) {
        List<Map<String, Object>> nodes = new ArrayList<>();
        List<Map<String, Object>> edges = new ArrayList<>();
        nodes.add(node("network", "shared.vpc"));
        nodes.add(node("dns-zone", "shared.dns"));
        for (int w = 0; w < workloads; w++) {
            for (int r = 0; r < depth; r++) {
                String id = "w" + w + ".r" + r;
                nodes.add(node("thing", id));
                String upstream = r == 0 ? "network/default/shared.vpc" : "thing/default/w" + w + ".r" + (r - 1);
                edges.add(
                        Map.of("from", "thing/default/" + id, "to", upstream, "alias", r == 0 ? "vpc" : "r" + (r - 1)));
                if (r == depth - 1) {
                    edges.add(
                            Map.of("from", "thing/default/" + id, "to", "dns-zone/default/shared.dns", "alias", "dns"));
                }
            }
        }
        return Map.of("nodes", nodes, "edges", edges);
    }

    private static Map<String, Object> node(String type, String id) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("type", type);
        node.put("class", "default");
        node.put("id", id);
        node.put("module_id", type);
        node.put("module_version", 1);
        node.put("runner_id", "r1");
        node.put("status", id.hashCode() % 7 == 0 ? "failed" : "succeeded");
        node.put("outputs", Map.of("name", "prod-" + id, "password", "***"));
        node.put("resources", List.of(Map.of("address", "terraform_data.this", "type", "terraform_data")));
        node.put("updated_at", "2026-11-29T12:00:00Z");
        return node;
    }

    private static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions()
                .setPath(screenshots.resolve(name + ".png"))
                .setFullPage(true));
    }

    private static String serviceUserToken(String id, String role) {
        polystack
                .api()
                .body(Map.of("id", id, "role", role))
                .post("/api/v1/orgs/acme/service-users")
                .then()
                .statusCode(201);
        return polystack
                .api()
                .body(Map.of("name", "console"))
                .post("/api/v1/orgs/acme/service-users/{id}/tokens", id)
                .then()
                .statusCode(201)
                .extract()
                .path("token");
    }
}
