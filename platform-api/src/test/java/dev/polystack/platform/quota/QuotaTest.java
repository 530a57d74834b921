package dev.polystack.platform.quota;

import dev.polystack.platform.runner.RunnerKeys;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class QuotaTest {

    static final String QUOTAS = "/api/v1/orgs/{org}/quotas";

    @Test
    void membersSeeEachQuotaWithItsLimitAndUsageAndOnlyInstanceAdministratorsChangeThem() {
        String org = createOrg();
        admin().body(Map.of("id", "p1", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        String viewer = tokenFor(org, "viewer");
        JsonPath quotas =
                as(viewer).get(QUOTAS, org).then().statusCode(200).extract().jsonPath();
        assertThat(quotas.getList("items.name", String.class))
                .containsExactly(
                        "projects",
                        "environments_per_project",
                        "resources_per_manifest",
                        "queued_deployments_per_environment",
                        "concurrent_jobs",
                        "runners",
                        "tokens_per_user");
        assertThat(quotas.getInt("items.find { it.name == 'projects' }.hard")).isEqualTo(100);
        assertThat(quotas.getInt("items.find { it.name == 'projects' }.used")).isEqualTo(1);
        assertThat(quotas.getBoolean("items.find { it.name == 'projects' }.default"))
                .isTrue();

        problem(as(tokenFor(org, "owner")).body(Map.of("projects", 5)).put(QUOTAS, org), 403, "forbidden");
        admin().body(Map.of("projects", 5))
                .put(QUOTAS, org)
                .then()
                .statusCode(200)
                .body("items.find { it.name == 'projects' }.hard", equalTo(5))
                .body("items.find { it.name == 'projects' }.default", equalTo(false));
        problem(admin().body(Map.of("projects", -1)).put(QUOTAS, org), 400, "validation")
                .body("errors[0].pointer", equalTo("/projects"));
        problem(admin().body(Map.of("bananas", 1)).put(QUOTAS, org), 400, "validation");
        problem(as(tokenFor(createOrg(), "owner")).get(QUOTAS, org), 404, "not-found");
    }

    @Test
    void creatingPastAQuotaIsA403NamingTheQuotaItsLimitAndUsage() throws Exception {
        String org = createOrg();
        admin().body(Map.of("projects", 1, "environments_per_project", 1, "runners", 1, "tokens_per_user", 1))
                .put(QUOTAS, org)
                .then()
                .statusCode(200);
        admin().body(Map.of("id", "production"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "p1", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("id", "p2", "name", "P")).post("/api/v1/orgs/{org}/projects", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("projects"))
                .body("quota.limit", equalTo(1))
                .body("quota.used", equalTo(1))
                .body("detail", containsString("projects"));
        admin().get("/api/v1/orgs/{org}/projects/p2", org).then().statusCode(404);

        admin().body(Map.of("id", "e1", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/p1/envs", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("id", "e2", "env_type_id", "production"))
                                .post("/api/v1/orgs/{org}/projects/p1/envs", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("environments_per_project"));

        admin().body(Map.of("id", "r1", "public_key", publicKey()))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("id", "r2", "public_key", publicKey()))
                                .post("/api/v1/orgs/{org}/runners", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("runners"));

        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("name", "one"))
                .post("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("name", "two")).post("/api/v1/orgs/{org}/service-users/ci/tokens", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("tokens_per_user"));

        admin().get(QUOTAS, org)
                .then()
                .statusCode(200)
                .body("items.find { it.name == 'runners' }.used", equalTo(1))
                .body("items.find { it.name == 'environments_per_project' }.used", equalTo(1))
                .body("items.find { it.name == 'tokens_per_user' }.used", equalTo(1));
    }

    @Test
    void manifestsAndQueuedDeploymentsAreBoundedPerEnvironment() {
        Scenario s = new Scenario(1);
        admin().body(Map.of("resources_per_manifest", 2, "queued_deployments_per_environment", 1))
                .put(QUOTAS, s.org)
                .then()
                .statusCode(200);
        String three =
                "workloads:\n  app:\n    resources:\n      a: {type: thing}\n      b: {type: thing}\n      c: {type: thing}\n";
        problem(
                        admin().contentType("application/yaml")
                                .body(three.getBytes(StandardCharsets.UTF_8))
                                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", s.org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("resources_per_manifest"))
                .body("quota.limit", equalTo(2))
                .body("quota.used", equalTo(3));
        problem(
                admin().contentType("application/yaml")
                        .body(three.getBytes(StandardCharsets.UTF_8))
                        .post("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest/dry-run", s.org),
                403,
                "quota-exceeded");

        s.manifest(graph("a", List.of()));
        s.deploy(); // runs
        s.deploy(); // queued behind it
        problem(s.create(Map.of("mode", "deploy")), 403, "quota-exceeded")
                .body("quota.name", equalTo("queued_deployments_per_environment"))
                .body("quota.used", equalTo(1));
    }

    @Test
    void jobsBeyondTheConcurrentJobQuotaWaitAndTheDeploymentSaysSo() {
        Scenario s = new Scenario(3);
        admin().body(Map.of("concurrent_jobs", 1)).put(QUOTAS, s.org).then().statusCode(200);
        s.manifest(graph("a", List.of(), "b", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first).hasSize(1);
        assertThat(s.deployment(id).get("waiting"))
                .asString()
                .contains("waiting for a job slot")
                .contains("1 of 1");
        s.succeed(first.values().iterator().next());
        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second).hasSize(1);
        assertThat(second.keySet()).doesNotContainAnyElementsOf(first.keySet());
        s.succeed(second.values().iterator().next());
        assertThat(s.status(id)).isEqualTo("succeeded");
        assertThat(s.deployment(id).get("waiting")).isNull();
    }

    @Test
    void concurrentClaimsOfSeveralRunnersNeverPassTheConcurrentJobQuota() throws Exception {
        Scenario s = new Scenario(3);
        RunnerDriver second = secondRunner(s, 3);
        String manifest = "workloads:\n  app:\n    resources:\n"
                + "      a: {type: thing}\n      b: {type: thing}\n      c: {type: thing}\n"
                + "      d: {type: thing, class: other}\n      e: {type: thing, class: other}\n      f: {type: thing, class: other}\n";
        admin().contentType("application/yaml")
                .body(manifest.getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", s.org)
                .then()
                .statusCode(201);
        s.deploy();
        assertThat(RunnerDriver.race(8, s.runner, second))
                .as("jobs claimed at once by two runners of 3 slots each, under a quota of 3")
                .isEqualTo(3);
    }

    /**
     * A job that ends while its organization runs as many jobs as its quota allows frees a slot: another runner's
     * claim waiting for one is woken at once, whether the result asked for the reporting runner's next job (and it
     * had none) or not.
     */
    @ParameterizedTest(name = "next={0}")
    @ValueSource(booleans = {false, true})
    void aJobThatEndsUnderAFullConcurrentJobQuotaWakesAnotherRunnersWaitingClaim(boolean next) throws Exception {
        Scenario s = new Scenario(3);
        RunnerDriver second = secondRunner(s, 1);
        admin().contentType("application/yaml")
                .body(
                        "workloads:\n  app:\n    resources:\n      a: {type: thing}\n      d: {type: thing, class: other}\n"
                                .getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", s.org)
                .then()
                .statusCode(201);
        String id = s.deploy();
        Map<String, Object> first = s.runner.claim();
        assertThat(first).as("the first runner's job").isNotNull();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // the organization's one slot is taken: the second runner's claim waits, up to the longest wait a claim has
            Future<Map<String, Object>> waiting = pool.submit(() -> second.claim("15s"));
            Thread.sleep(500);
            assertThat(waiting).as("a claim under a full quota waits").isNotDone();
            s.runner
                    .request()
                    .queryParam("next", next)
                    .body(Map.of(
                            "status",
                            "succeeded",
                            "outputs",
                            Map.of("name", Map.of("value", "out-a", "sensitive", false))))
                    .post("/api/runner/v1/jobs/{id}/result", first.get("job_id"))
                    .then()
                    .statusCode(204);
            // well before its wait ran out, when it would look again anyway
            Map<String, Object> woken = waiting.get(8, TimeUnit.SECONDS);
            assertThat(woken).as("the waiting claim, woken by the freed slot").isNotNull();
            assertThat(RunnerDriver.resourceOf(woken)).isEqualTo("app.d");
            second.succeed(woken, Map.of("name", "out-d"));
            assertThat(s.status(id)).isEqualTo("succeeded");
        } finally {
            pool.shutdownNow();
        }
    }

    /** A second runner of 3 slots for resources of class {@code other}, under a quota of {@code concurrentJobs}. */
    private static RunnerDriver secondRunner(Scenario s, int concurrentJobs) {
        RunnerDriver second = RunnerDriver.register(s.org, "r2", 3);
        admin().body(Map.of("runner_id", "r2", "resource_class", "other"))
                .post("/api/v1/orgs/{org}/runner-rules", s.org)
                .then()
                .statusCode(201);
        admin().body(Map.of("concurrent_jobs", concurrentJobs))
                .put(QUOTAS, s.org)
                .then()
                .statusCode(200);
        return second;
    }

    private static String publicKey() throws Exception {
        return RunnerKeys.toPem(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic());
    }
}
