package dev.polystack.tests;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import com.microsoft.playwright.options.AriaRole;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * A real Keycloak (the server distribution from Maven Central, in dev mode, with the realm file
 * {@code tests/src/test/resources/keycloak/polystack-realm.json}) and the packaged control plane with
 * OIDC turned on: users of the realm call the API with their access tokens.
 */
class KeycloakIT {

    private static final String ADMIN = "pst_keycloak-it-admin-token-0123456789abcdefghijklmn";
    private static Process keycloak;
    private static PlatformProcess platform;
    private static String issuer;
    private static Path work;

    @BeforeAll
    static void start() throws Exception {
        Path home = Path.of(System.getProperty("keycloak.home", "target/keycloak/keycloak-26.5.6"))
                .toAbsolutePath();
        if (!Files.exists(home.resolve("bin/kc.sh"))) {
            throw new IllegalStateException("Keycloak is not unpacked at " + home + "; run through ./mvnw verify");
        }
        work = Files.createTempDirectory("keycloak-it");
        deleteTree(home.resolve("data/h2")); // import the realm file fresh every time
        Path imports = Files.createDirectories(home.resolve("data/import"));
        Files.copy(
                Path.of("src/test/resources/keycloak/polystack-realm.json"),
                imports.resolve("polystack-realm.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        int port = Ports.free();
        issuer = "http://localhost:" + port + "/realms/polystack";
        ProcessBuilder builder = new ProcessBuilder(
                        home.resolve("bin/kc.sh").toString(),
                        "start-dev",
                        "--http-host=127.0.0.1",
                        "--http-port=" + port,
                        "--http-management-port=" + Ports.free(),
                        "--import-realm")
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("keycloak.log").toFile());
        builder.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "admin");
        builder.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", "admin");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        keycloak = builder.start();
        long started = System.nanoTime();
        awaitUp(issuer + "/.well-known/openid-configuration", Duration.ofMinutes(3));
        System.out.printf("Keycloak ready in %.1f s%n", (System.nanoTime() - started) / 1e9);

        platform = new PlatformProcess(
                        work.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false",
                                "POLYSTACK_OIDC_ISSUER",
                                issuer,
                                "POLYSTACK_OIDC_CLIENT_ID",
                                "polystack"))
                .start();
        api(ADMIN)
                .body(Map.of("id", "acme", "name", "Acme"))
                .post("/api/v1/orgs")
                .then()
                .statusCode(201);
        api(ADMIN)
                .body(Map.of("id", "other", "name", "Other"))
                .post("/api/v1/orgs")
                .then()
                .statusCode(201);
        api(ADMIN)
                .body(Map.of("username", "alice", "role", "owner"))
                .post("/api/v1/orgs/acme/members")
                .then()
                .statusCode(201);
        api(ADMIN)
                .body(Map.of("mappings", List.of(Map.of("group", "acme-developers", "role", "developer"))))
                .put("/api/v1/orgs/acme/oidc-group-mappings")
                .then()
                .statusCode(200);
    }

    @AfterAll
    static void stop() throws Exception {
        if (platform != null) {
            platform.close();
        }
        if (keycloak != null) {
            keycloak.descendants().forEach(ProcessHandle::destroy);
            keycloak.destroy();
            keycloak.waitFor();
        }
    }

    @Test
    void aMemberAddedByUsernameSignsInWithKeycloak() {
        String token = password("alice");
        api(token)
                .get("/api/v1/me")
                .then()
                .statusCode(200)
                .body("name", equalTo("alice"))
                .body("memberships.org", hasItem("acme"))
                .body("memberships.find { it.org == 'acme' }.role", equalTo("owner"));
        api(token).get("/api/v1/orgs/acme").then().statusCode(200);
        api(token)
                .body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/acme/service-users")
                .then()
                .statusCode(201);
        api(token).get("/api/v1/orgs/other").then().statusCode(404);
    }

    @Test
    void groupsOfTheTokenMakeUsersMembersWithTheMappedRole() {
        String token = password("dave");
        api(token)
                .get("/api/v1/me")
                .then()
                .statusCode(200)
                .body("memberships.find { it.org == 'acme' }.role", equalTo("developer"));
        api(token)
                .body(Map.of("id", "from-dave", "name", "Dave's"))
                .post("/api/v1/orgs/acme/projects")
                .then()
                .statusCode(201);
        api(token)
                .body(Map.of("id", "nope"))
                .post("/api/v1/orgs/acme/env-types")
                .then()
                .statusCode(403);
    }

    @Test
    void aStrangerSeesNoOrganization() {
        String token = password("erin");
        api(token).get("/api/v1/me").then().statusCode(200).body("memberships.size()", equalTo(0));
        api(token).get("/api/v1/orgs/acme").then().statusCode(404);
        api(token).get("/api/v1/orgs").then().statusCode(200).body("items.size()", equalTo(0));
    }

    @Test
    void badTokensAreRefusedAndApiTokensStillWork() {
        String token = password("alice");
        api(token.substring(0, token.length() - 4) + "AAAA")
                .get("/api/v1/me")
                .then()
                .statusCode(401);
        api("not-a-token").get("/api/v1/me").then().statusCode(401);
        api(ADMIN).get("/api/v1/me").then().statusCode(200).body("instance_admin", equalTo(true));
    }

    /** The console's own sign-in in a real browser: the button, Keycloak's login form, back to the console as that user. */
    @Test
    void theConsoleSignsInWithKeycloakInABrowser() throws Exception {
        Chromium.assumeAvailable("KeycloakIT.theConsoleSignsInWithKeycloakInABrowser");
        allowConsoleRedirect(platform.baseUrl() + "/console/*");
        try (Playwright playwright = Chromium.playwright();
                Browser browser = Chromium.launch(playwright)) {
            Page page = Chromium.context(browser, new Browser.NewContextOptions().setViewportSize(1280, 800))
                    .newPage();
            List<String> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
            page.onConsoleMessage(message -> {
                if (message.type().equals("error")) {
                    errors.add(message.text());
                }
            });
            page.navigate(platform.baseUrl() + "/console/");
            page.getByRole(
                            AriaRole.BUTTON,
                            new Page.GetByRoleOptions()
                                    .setName(
                                            "Sign in with " + URI.create(issuer).getAuthority()))
                    .click();
            PlaywrightAssertions.assertThat(page)
                    .hasURL(Pattern.compile(".*/realms/polystack/protocol/openid-connect/auth\\?.*"));
            page.locator("#username").fill("dave");
            page.locator("#password").fill("dave");
            page.locator("#kc-login").click();
            PlaywrightAssertions.assertThat(page).hasURL(Pattern.compile(".*/console/orgs/acme/projects$"));
            PlaywrightAssertions.assertThat(page.locator(".user-name")).hasText("dave");
            PlaywrightAssertions.assertThat(page.locator(".role-note")).containsText("Developer");
            // the console calls the API with Keycloak's access token
            PlaywrightAssertions.assertThat(
                            page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Projects")))
                    .isVisible();
            PlaywrightAssertions.assertThat(page.locator(".problem")).hasCount(0);
            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign out"))
                    .click();
            PlaywrightAssertions.assertThat(
                            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in with token")))
                    .isVisible();
            assertThat(errors).as("console errors").isEmpty();
        }
    }

    /**
     * A person at a terminal signs the CLI in with Keycloak: the command shows a link and a code, the person
     * confirms it in a browser, and the stored session is renewed when its access token is about to end.
     */
    @Test
    void theCliSignsInWithTheDeviceGrantAndRenewsItsSession() throws Exception {
        Chromium.assumeAvailable("KeycloakIT.theCliSignsInWithTheDeviceGrantAndRenewsItsSession");
        Path home = Files.createDirectories(work.resolve("cli-home"));
        Path err = work.resolve("login.err");
        Process login = cli(home, err, "login", "--url", platform.baseUrl(), "--device", "--env", "acme/shop/prod")
                .start();
        // the link and the code are two lines, written one after the other: wait for both
        Matcher link = Pattern.compile("To sign in, open (\\S+)\\R.*shows the code [A-Z]{4}-[A-Z]{4}")
                .matcher("");
        Instant deadline = Instant.now().plusSeconds(60);
        while (!link.reset(Files.readString(err)).find()) {
            assertThat(login.isAlive())
                    .as(() -> "login ended early: " + read(err))
                    .isTrue();
            assertThat(Instant.now()).as("a link to confirm the sign-in").isBefore(deadline);
            Thread.sleep(100);
        }
        assertThat(read(err)).containsPattern("shows the code [A-Z]{4}-[A-Z]{4}");
        try (Playwright playwright = Chromium.playwright();
                Browser browser = Chromium.launch(playwright)) {
            Page page =
                    Chromium.context(browser, new Browser.NewContextOptions()).newPage();
            page.navigate(link.group(1));
            page.locator("#username").fill("alice");
            page.locator("#password").fill("alice");
            page.locator("#kc-login").click();
            // after the login comes either the end, or first a consent screen: wait for whichever shows (checking at
            // once raced the login page's own button, or missed a consent screen still loading)
            Locator done = page.getByText("Device Login Successful");
            Locator consent = page.getByText("Do you grant these access privileges?");
            done.or(consent).first().waitFor();
            if (consent.isVisible()) {
                page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Yes"))
                        .click();
            }
            PlaywrightAssertions.assertThat(page.locator("body")).containsText("Device Login Successful");
        }
        assertThat(login.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(login.exitValue())
                .as(() -> read(work.resolve("login.out")) + read(err))
                .isZero();
        assertThat(read(work.resolve("login.out"))).contains("Signed in to " + platform.baseUrl() + " as alice");
        Path config = home.resolve(".config/polystack/config");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
                .isEqualTo("rw-------");

        assertThat(run(home, "api", "GET", "/api/v1/orgs/acme"))
                .as("the stored session calls the API")
                .isZero();

        // an access token about to end is renewed with the refresh token, and the new one stored
        com.fasterxml.jackson.databind.node.ObjectNode stored =
                (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(config.toFile());
        String before = stored.path("contexts").path("default").path("token").asText();
        ((com.fasterxml.jackson.databind.node.ObjectNode)
                        stored.path("contexts").path("default").path("oidc"))
                .put("expires_at", "2020-01-01T00:00:00Z");
        Files.writeString(config, stored.toString());
        assertThat(run(home, "api", "GET", "/api/v1/orgs/acme")).isZero();
        JsonNode renewed = JSON.readTree(config.toFile()).path("contexts").path("default");
        assertThat(renewed.path("token").asText()).isNotEqualTo(before);
        assertThat(Instant.parse(renewed.path("oidc").path("expires_at").asText()))
                .isAfter(Instant.now());

        // a session the provider no longer knows says to sign in again
        ((com.fasterxml.jackson.databind.node.ObjectNode) renewed.path("oidc"))
                .put("expires_at", "2020-01-01T00:00:00Z")
                .put("refresh_token", "revoked");
        stored = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(config.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) stored.get("contexts")).set("default", renewed);
        Files.writeString(config, stored.toString());
        assertThat(run(home, "api", "GET", "/api/v1/orgs/acme")).isEqualTo(3);
        assertThat(read(work.resolve("cli.err")))
                .contains("your sign-in has ended")
                .contains("login --device");
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /** The CLI's launcher, as a person runs it, with their home directory. */
    private static ProcessBuilder cli(Path home, Path err, String... args) {
        List<String> command = new java.util.ArrayList<>(
                List.of(PlatformProcess.repository().resolve("cli/polystack").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(err.toFile())
                .redirectOutput(err.resolveSibling(err.getFileName().toString().replace(".err", ".out"))
                        .toFile());
        builder.environment().remove("POLYSTACK_URL");
        builder.environment().remove("POLYSTACK_TOKEN");
        builder.environment().put("HOME", home.toString());
        builder.environment()
                .put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        return builder;
    }

    private static int run(Path home, String... args) throws Exception {
        Process process = cli(home, work.resolve("cli.err"), args).start();
        assertThat(process.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
        return process.exitValue();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Adds the console of the Polystack under test (on a free port) to the public client's redirect URIs. */
    private static void allowConsoleRedirect(String redirect) {
        String keycloakUrl = issuer.substring(0, issuer.indexOf("/realms/"));
        String admin = RestAssured.given()
                .formParams(Map.of(
                        "grant_type", "password", "client_id", "admin-cli", "username", "admin", "password", "admin"))
                .post(keycloakUrl + "/realms/master/protocol/openid-connect/token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
        RequestSpecification adminApi = RestAssured.given().auth().oauth2(admin).contentType(ContentType.JSON);
        Map<String, Object> client = adminApi.get(
                        keycloakUrl + "/admin/realms/polystack/clients?clientId=polystack-console")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("[0]");
        @SuppressWarnings("unchecked")
        List<String> redirects = new java.util.ArrayList<>((List<String>) client.get("redirectUris"));
        redirects.add(redirect);
        client.put("redirectUris", redirects);
        adminApi.body(client)
                .put(keycloakUrl + "/admin/realms/polystack/clients/" + client.get("id"))
                .then()
                .statusCode(204);
    }

    /** The console's sign-in: authorization code with PKCE against the public client, done headless. */
    @Test
    void theConsolesAuthorizationCodeWithPkceFlowYieldsAWorkingToken() throws Exception {
        RestAssured.given()
                .baseUri(platform.baseUrl())
                .get("/api/v1/auth/config")
                .then()
                .statusCode(200)
                .body("oidc.issuer", equalTo(issuer))
                .body("oidc.client_id", equalTo("polystack-console"));
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        String challenge = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                        MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        String redirect = "http://localhost/callback";
        HttpClient browser = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        HttpResponse<String> login = browser.send(
                HttpRequest.newBuilder(URI.create(issuer + "/protocol/openid-connect/auth?client_id=polystack-console"
                                + "&response_type=code&scope=openid&redirect_uri=" + enc(redirect)
                                + "&state=s1&code_challenge=" + challenge
                                + "&code_challenge_method=S256"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).isEqualTo(200);
        Matcher action = Pattern.compile("action=\"([^\"]+)\"").matcher(login.body());
        assertThat(action.find()).as("Keycloak shows its login form").isTrue();
        // Keycloak marks its cookies Secure; a browser sends them to http://localhost anyway, Java's cookie store does
        // not
        String cookies = String.join(
                "; ",
                login.headers().allValues("Set-Cookie").stream()
                        .map(c -> c.split(";", 2)[0])
                        .toList());
        HttpResponse<String> submitted = browser.send(
                HttpRequest.newBuilder(URI.create(action.group(1).replace("&amp;", "&")))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Cookie", cookies)
                        .POST(HttpRequest.BodyPublishers.ofString("username=alice&password=alice&credentialId="))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(submitted.statusCode()).isEqualTo(302);
        String location = submitted.headers().firstValue("Location").orElseThrow();
        Matcher code = Pattern.compile("[?&]code=([^&]+)").matcher(location);
        assertThat(code.find()).isTrue();
        String token = RestAssured.given()
                .formParams(Map.of(
                        "grant_type",
                        "authorization_code",
                        "client_id",
                        "polystack-console",
                        "code",
                        code.group(1),
                        "redirect_uri",
                        redirect,
                        "code_verifier",
                        verifier))
                .post(issuer + "/protocol/openid-connect/token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
        api(token).get("/api/v1/orgs/acme").then().statusCode(200);
        RestAssured.given()
                .formParams(Map.of(
                        "grant_type",
                        "authorization_code",
                        "client_id",
                        "polystack-console",
                        "code",
                        code.group(1),
                        "redirect_uri",
                        redirect,
                        "code_verifier",
                        "wrong" + verifier))
                .post(issuer + "/protocol/openid-connect/token")
                .then()
                .statusCode(400);
    }

    private static String password(String user) {
        return RestAssured.given()
                .formParams(Map.of(
                        "grant_type",
                        "password",
                        "client_id",
                        "polystack-tests",
                        "client_secret",
                        "polystack-tests-secret",
                        "username",
                        user,
                        "password",
                        user,
                        "scope",
                        "openid"))
                .post(issuer + "/protocol/openid-connect/token")
                .then()
                .statusCode(200)
                .extract()
                .path("access_token");
    }

    private static RequestSpecification api(String token) {
        return RestAssured.given()
                .baseUri(platform.baseUrl())
                .auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .accept(ContentType.JSON);
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static void awaitUp(String url, Duration timeout) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!keycloak.isAlive()) {
                throw new IllegalStateException("Keycloak exited:\n" + Files.readString(work.resolve("keycloak.log")));
            }
            try {
                HttpURLConnection connection =
                        (HttpURLConnection) URI.create(url).toURL().openConnection();
                connection.setConnectTimeout(1000);
                if (connection.getResponseCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(
                "Keycloak was not ready in " + timeout + ":\n" + Files.readString(work.resolve("keycloak.log")));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                for (Path path :
                        paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
