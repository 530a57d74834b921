package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Drift checks with the real binary: the packaged control plane, a runner agent running {@code terraform}
 * (or {@code tofu}), and modules whose {@code terraform_data} reads local files that the test changes
 * behind Polystack's back. A check plans each resource's last applied configuration and never applies;
 * what it finds becomes issues, and an apply puts the resource back and resolves them.
 */
class DriftCheckIT {

    private static final String ADMIN = "pst_drift-admin-token-0123456789abcdefghijklmnopqrs";
    private static final String ENV = "/api/v1/orgs/acme/projects/shop/envs/prod";

    /** {@code input} follows a file (an update when it changes); {@code triggers_replace} another (a replace). */
    private static final String MODULE = """
            variable "path" { type = string }
            variable "replace_path" {
              type    = string
              default = ""
            }
            resource "terraform_data" "this" {
              input            = file(var.path)
              triggers_replace = var.replace_path == "" ? null : file(var.replace_path)
            }
            output "content" { value = terraform_data.this.output }
            """;

    @TempDir
    Path workspace;

    @Test
    void withTheRealBinaryACheckFindsWhatChangedOutsideAndAnApplyPutsItBack() throws Exception {
        Path binary = Readme.realBinaryOrSkip("DriftCheckIT");
        Path cliConfig = Readme.offlineCliConfig(workspace.resolve("cli"));
        Path files = Files.createDirectories(workspace.resolve("outside"));
        Path webFile = Files.writeString(files.resolve("web.txt"), "one");
        Path dbFile = Files.writeString(files.resolve("db.txt"), "data");
        Path dbIdentity = Files.writeString(files.resolve("db-identity.txt"), "first");

        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            String url = platform.baseUrl();
            configure(url);
            Path key = registerRunner(url);
            try (AgentProcess agent = AgentProcess.start(
                    url,
                    "acme",
                    "r1",
                    key,
                    binary.toString(),
                    workspace.resolve("agent"),
                    2,
                    "--cli-config=" + cliConfig)) {
                String manifest = """
                        workloads:
                          app:
                            resources:
                              web: { type: watched, params: { path: "%s" } }
                              db: { type: watched, params: { path: "%s", replace_path: "%s" } }
                        """.formatted(webFile, dbFile, dbIdentity);
                api(url).contentType("application/yaml")
                        .body(manifest.getBytes(StandardCharsets.UTF_8))
                        .put(ENV + "/manifest")
                        .then()
                        .statusCode(201);
                assertThat(waitFor(url, start(url, ENV + "/deployments", Map.of("mode", "deploy")), agent))
                        .isEqualTo("succeeded");

                // nothing changed: a check finds nothing
                String quiet = start(url, ENV + "/checks", Map.of());
                assertThat(waitFor(url, quiet, agent)).isEqualTo("succeeded");
                assertThat(nodes(url, quiet))
                        .extracting(n -> n.get("id") + " " + n.get("status"))
                        .containsExactlyInAnyOrder("app.web succeeded", "app.db succeeded");
                assertThat(issues(url, "?state=open")).isEmpty();

                // someone changes both files outside Polystack
                Files.writeString(webFile, "two");
                Files.writeString(dbIdentity, "second");
                String check = start(url, ENV + "/checks", Map.of());
                assertThat(waitFor(url, check, agent)).isEqualTo("succeeded");
                List<Map<String, Object>> open = issues(url, "?state=open");
                System.out.println("DriftCheckIT issues from the real binary: " + open);
                assertThat(open)
                        .extracting(i -> i.get("resource_id") + " " + i.get("kind"))
                        .containsExactlyInAnyOrder("app.web drift", "app.db destructive-drift");
                assertThat(open)
                        .filteredOn(i -> i.get("resource_id").equals("app.db"))
                        .singleElement()
                        .satisfies(i -> assertThat((String) i.get("summary"))
                                .contains("module.main.terraform_data.this", "replace_because_cannot_update"));
                // a check never applies: the state still holds what was applied
                assertThat(stateOf(url, "app.web")).contains("\"one\"").doesNotContain("\"two\"");

                // a refresh-only check asks only what changed in the world: terraform_data has nothing to refresh
                String refresh = start(url, ENV + "/checks", Map.of("refresh_only", true));
                assertThat(waitFor(url, refresh, agent)).isEqualTo("succeeded");
                assertThat(issues(url, "?state=open"))
                        .as("a refresh-only check cannot tell that what a full check found is gone")
                        .hasSize(2);
                assertThat(nodes(url, refresh))
                        .extracting(n -> n.get("id") + " " + n.get("status"))
                        .containsExactlyInAnyOrder("app.web succeeded", "app.db succeeded");

                // a forced deployment applies the last configuration again: the world follows, the issues stay resolved
                String deploy = start(url, ENV + "/deployments", Map.of("mode", "deploy", "force", true));
                assertThat(waitFor(url, deploy, agent)).isEqualTo("succeeded");
                assertThat(stateOf(url, "app.web")).contains("\"two\"");
                String after = start(url, ENV + "/checks", Map.of());
                assertThat(waitFor(url, after, agent)).isEqualTo("succeeded");
                assertThat(issues(url, "?state=open")).isEmpty();
                assertThat(issues(url, "?state=resolved")).hasSize(2);
            }
        }
    }

    /**
     * The stand-in reports what terraform_data cannot: drift a refresh finds ({@code resource_drift}). With the
     * policy {@code observe} a refresh-only check opens the issue; once the environment type says {@code auto},
     * the next check hands it to a reconcile deployment, whose apply puts the world back and resolves it.
     */
    @Test
    void withTheStandInDriftARefreshFindsIsReconciledOnceThePolicyIsAuto() throws Exception {
        Path launcher = StandInTofu.writeLauncher(workspace.resolve("bin"), System.getProperty("java.class.path"));
        Path outside = Files.createDirectories(workspace.resolve("outside")).resolve("db-change.json");
        Files.writeString(outside, "");
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            String url = platform.baseUrl();
            configure(
                    url,
                    "variable \"drift_file\" { type = string }\nresource \"terraform_data\" \"this\" { input = var.drift_file }\n",
                    Map.of("drift_file", Map.of("type", "string")));
            Path key = registerRunner(url);
            try (AgentProcess agent =
                    AgentProcess.start(url, "acme", "r1", key, launcher.toString(), workspace.resolve("agent"), 2)) {
                api(url).contentType("application/yaml")
                        .body("""
                                workloads:
                                  app:
                                    resources:
                                      db: { type: watched, params: { drift_file: "%s" } }
                                """.formatted(outside).getBytes(StandardCharsets.UTF_8))
                        .put(ENV + "/manifest")
                        .then()
                        .statusCode(201);
                assertThat(waitFor(url, start(url, ENV + "/deployments", Map.of("mode", "deploy")), agent))
                        .isEqualTo("succeeded");

                Files.writeString(outside, "{\"size\": 5}");
                String refresh = start(url, ENV + "/checks", Map.of("refresh_only", true));
                assertThat(waitFor(url, refresh, agent)).isEqualTo("succeeded");
                List<Map<String, Object>> open = issues(url, "?state=open");
                assertThat(open).singleElement().satisfies(issue -> {
                    assertThat(issue.get("kind")).isEqualTo("drift");
                    assertThat((String) issue.get("summary"))
                            .contains("changed outside Polystack: module.main.terraform_data.this (input.size)");
                });
                assertThat(open.toString()).contains("after=5");

                api(url).body(Map.of("reconcile", Map.of("watched", "auto")))
                        .put("/api/v1/orgs/acme/env-types/production")
                        .then()
                        .statusCode(200);
                String check = start(url, ENV + "/checks", Map.of());
                assertThat(waitFor(url, check, agent)).isEqualTo("succeeded");
                String reconcile = await().atMost(Duration.ofSeconds(30))
                        .until(
                                () -> api(url)
                                        .get(ENV + "/deployments")
                                        .then()
                                        .statusCode(200)
                                        .extract()
                                        .jsonPath()
                                        .<Map<String, Object>>getList("items")
                                        .stream()
                                        .filter(d -> "reconcile".equals(d.get("created_by")))
                                        .map(d -> (String) d.get("id"))
                                        .findFirst(),
                                Optional::isPresent)
                        .get();
                assertThat(waitFor(url, reconcile, agent)).isEqualTo("succeeded");
                assertThat(Files.readString(outside))
                        .as("the apply put the world back")
                        .isEmpty();
                assertThat(issues(url, "?state=open")).isEmpty();
                assertThat(issues(url, "?state=resolved"))
                        .singleElement()
                        .satisfies(issue -> assertThat(issue.get("resolved_by")).isEqualTo(reconcile));
            }
        }
    }

    /**
     * Manual gates with the real binary: under the policy {@code approve} the fix of a drift is planned by
     * terraform, waits for approval, is approved by a second member and applies, and the issue resolves. Then a
     * gated deployment whose resource's state moved after its plan (a state written behind Polystack's back, into
     * the database this test controls) cannot be approved: 409, and it fails without applying.
     */
    @Test
    void withTheRealBinaryAFixUnderApproveWaitsForASecondMemberAndAStaleApprovalIsAConflict() throws Exception {
        Path binary = Readme.realBinaryOrSkip("DriftCheckIT");
        Path cliConfig = Readme.offlineCliConfig(workspace.resolve("cli"));
        Path webFile = Files.writeString(
                Files.createDirectories(workspace.resolve("outside")).resolve("web.txt"), "one");
        try (ExternalPostgres postgres = new ExternalPostgres(workspace.resolve("pg")).start()) {
            Map<String, String> env = new java.util.HashMap<>(postgres.environment());
            env.put("POLYSTACK_BOOTSTRAP_ADMIN_TOKEN", ADMIN);
            env.put("POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN", "false");
            try (PlatformProcess platform = new PlatformProcess(workspace.resolve("data"), env).start()) {
                String url = platform.baseUrl();
                configure(url);
                api(url).body(Map.of("reconcile", Map.of("watched", "approve")))
                        .put("/api/v1/orgs/acme/env-types/production")
                        .then()
                        .statusCode(200);
                api(url).body(Map.of("id", "reviewer", "role", "platform-engineer"))
                        .post("/api/v1/orgs/acme/service-users")
                        .then()
                        .statusCode(201);
                String reviewer = api(url).body(Map.of("name", "it"))
                        .post("/api/v1/orgs/acme/service-users/reviewer/tokens")
                        .then()
                        .statusCode(201)
                        .extract()
                        .path("token");
                Path key = registerRunner(url);
                try (AgentProcess agent = AgentProcess.start(
                        url,
                        "acme",
                        "r1",
                        key,
                        binary.toString(),
                        workspace.resolve("agent"),
                        2,
                        "--cli-config=" + cliConfig)) {
                    api(url).contentType("application/yaml")
                            .body("""
                                    workloads:
                                      app:
                                        resources:
                                          web: { type: watched, params: { path: "%s" } }
                                    """.formatted(webFile).getBytes(StandardCharsets.UTF_8))
                            .put(ENV + "/manifest")
                            .then()
                            .statusCode(201);
                    assertThat(waitFor(url, start(url, ENV + "/deployments", Map.of("mode", "deploy")), agent))
                            .isEqualTo("succeeded");

                    Files.writeString(webFile, "two");
                    assertThat(waitFor(url, start(url, ENV + "/checks", Map.of()), agent))
                            .isEqualTo("succeeded");
                    String issue = (String) issues(url, "?state=open").get(0).get("id");
                    String fix = await().atMost(Duration.ofSeconds(30))
                            .until(
                                    () -> api(url)
                                            .get(ENV + "/deployments")
                                            .then()
                                            .statusCode(200)
                                            .extract()
                                            .jsonPath()
                                            .<Map<String, Object>>getList("items")
                                            .stream()
                                            .filter(d -> "reconcile".equals(d.get("created_by")))
                                            .map(d -> (String) d.get("id"))
                                            .findFirst(),
                                    Optional::isPresent)
                            .get();
                    assertThat(waitFor(url, fix, agent))
                            .as("terraform planned the fix; it waits")
                            .isEqualTo("awaiting_approval");
                    assertThat(nodes(url, fix)).singleElement().satisfies(node -> {
                        assertThat(node.get("status")).isEqualTo("planned");
                        assertThat(node.get("plan_summary")).isEqualTo(Map.of("add", 0, "change", 1, "destroy", 0));
                    });
                    assertThat(stateOf(url, "app.web"))
                            .as("nothing applied yet")
                            .contains("\"one\"");
                    List<Map<String, Object>> waiting = as(url, reviewer)
                            .get("/api/v1/orgs/acme/approvals")
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("");
                    assertThat(waiting)
                            .singleElement()
                            .satisfies(p -> assertThat(p.get("reconciles")).isEqualTo(List.of(issue)));
                    as(url, reviewer)
                            .body(Map.of(
                                    "decision",
                                    "approve",
                                    "comment",
                                    "put it back",
                                    "fingerprint",
                                    waiting.get(0).get("fingerprint")))
                            .post(ENV + "/deployments/{id}/approvals", fix)
                            .then()
                            .statusCode(201);
                    assertThat(waitFor(url, fix, agent)).isEqualTo("succeeded");
                    assertThat(stateOf(url, "app.web")).contains("\"two\"");
                    assertThat(issues(url, "?state=resolved"))
                            .singleElement()
                            .satisfies(i -> assertThat(i.get("resolved_by")).isEqualTo(fix));

                    // every deployment of the type now needs approval; its plan goes stale before anyone approves
                    api(url).body(Map.of("approval", Map.of("deployments", true)))
                            .put("/api/v1/orgs/acme/env-types/production")
                            .then()
                            .statusCode(200);
                    Files.writeString(webFile, "three");
                    String gated = start(url, ENV + "/deployments", Map.of("mode", "deploy", "force", true));
                    assertThat(waitFor(url, gated, agent)).isEqualTo("awaiting_approval");
                    try (java.sql.Connection connection = postgres.connect();
                            java.sql.PreparedStatement restore = connection.prepareStatement("""
                                 insert into state_version (id, environment_id, resource_key, serial, lineage, content, size, created_at)
                                 select gen_random_uuid(), environment_id, 'watched/default/app.web', 99, 'restored', '\\x00'::bytea, 1, now()
                                 from deployment where id = ?::uuid""")) {
                        restore.setString(1, gated);
                        assertThat(restore.executeUpdate()).isEqualTo(1);
                    }
                    as(url, reviewer)
                            .body(Map.of("decision", "approve"))
                            .post(ENV + "/deployments/{id}/approvals", gated)
                            .then()
                            .statusCode(409)
                            .contentType("application/problem+json")
                            .body(
                                    "detail",
                                    org.hamcrest.Matchers.containsString("the state of watched/default/app.web moved"));
                    assertThat(api(url).get(ENV + "/deployments/{id}", gated)
                                    .then()
                                    .statusCode(200)
                                    .extract()
                                    .<String>path("status"))
                            .isEqualTo("failed");
                    assertThat(Files.readString(webFile)).isEqualTo("three");
                }
            }
        }
    }

    private static RequestSpecification as(String url, String token) {
        return RestAssured.given()
                .baseUri(url)
                .auth()
                .oauth2(token)
                .contentType(ContentType.JSON)
                .accept(ContentType.JSON);
    }

    /** Registers runner r1 with a new key, and a rule that gives it every resource; the path of its private key. */
    private Path registerRunner(String url) throws Exception {
        Path key = workspace.resolve("keys/r1.key");
        api(url).body(Map.of("id", "r1", "public_key", AgentProcess.keygen(key), "max_concurrent_jobs", 2))
                .post("/api/v1/orgs/acme/runners")
                .then()
                .statusCode(201);
        api(url).body(Map.of("runner_id", "r1"))
                .post("/api/v1/orgs/acme/runner-rules")
                .then()
                .statusCode(201);
        return key;
    }

    private static void configure(String url) {
        configure(
                url,
                MODULE,
                Map.of(
                        "path",
                        Map.of("type", "string"),
                        "replace_path",
                        Map.of("type", "string", "is_optional", true)));
    }

    private static void configure(String url, String module, Map<String, Object> params) {
        Polystack polystack = new Polystack(url, ADMIN);
        polystack.configure("watched", null, module, params, Map.of());
        polystack.environment("prod");
    }

    private static String start(String url, String path, Map<String, Object> body) {
        return api(url).body(body).post(path).then().statusCode(201).extract().path("id");
    }

    private static String waitFor(String url, String id, AgentProcess agent) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            String status = api(url).queryParam("timeout", "30s")
                    .get(ENV + "/deployments/{id}/wait", id)
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("status");
            if (!status.equals("queued") && !status.equals("running")) {
                if (!status.equals("succeeded") && !status.equals("awaiting_approval")) {
                    System.out.println("DriftCheckIT " + id + " " + status + ": " + nodes(url, id) + "\nagent log:\n"
                            + agent.log());
                }
                return status;
            }
        }
        throw new AssertionError("deployment " + id + " did not end; agent log:\n" + agent.log());
    }

    private static List<Map<String, Object>> nodes(String url, String id) {
        return api(url).get(ENV + "/deployments/{id}", id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("nodes");
    }

    private static List<Map<String, Object>> issues(String url, String query) {
        return api(url).get(ENV + "/issues" + query)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    private static String stateOf(String url, String resource) {
        String versions = ENV + "/state/watched/default/" + resource + "/versions";
        String latest = api(url).get(versions).then().statusCode(200).extract().path("items[0].id");
        return api(url).get(versions + "/" + latest)
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    private static RequestSpecification api(String url) {
        return RestAssured.given()
                .baseUri(url)
                .auth()
                .oauth2(ADMIN)
                .contentType(ContentType.JSON)
                .accept(ContentType.JSON);
    }
}
