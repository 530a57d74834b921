package dev.polystack.platform.deployment.jobs;

import dev.polystack.platform.runner.RunnerKeys;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import dev.polystack.platform.testing.StateCalls;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/** The runner protocol and the state backend: authentication, claims, leases, cancel, logs, fencing. */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class RunnerProtocolTest {

    @Inject
    EntityManager entityManager;

    @Test
    void aClaimItsRunnerGaveUpOnTakesNoJob() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        // an agent that shuts down while idle cancels its waiting claim (the request is aborted)
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        CompletableFuture<HttpResponse<String>> abandoned = client.sendAsync(
                HttpRequest.newBuilder(URI.create(io.restassured.RestAssured.baseURI + ":"
                                + io.restassured.RestAssured.port + "/api/runner/v1/claim?wait=14s"))
                        .header("Authorization", "Bearer " + s.runner.jwt())
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Thread.sleep(1000);
        assertThat(abandoned).as("the claim waits").isNotDone();
        abandoned.cancel(true);
        Thread.sleep(1000);
        // a job queued now wakes whatever waits for the runner: the abandoned claim must not take it for nobody
        s.deploy();
        // time for the abandoned claim to wake and claim, if it were still waiting: the next claim looks first, and
        // would otherwise beat it to the job
        Thread.sleep(2000);
        Map<String, Object> job = s.runner.claim("1s");
        assertThat(job).as("the runner's next claim gets the job").isNotNull();
        assertThat(RunnerDriver.resourceOf(job)).isEqualTo("app.a");
    }

    @Test
    void everyAuthenticationFailureIs401() {
        Scenario s = new Scenario(1);
        RunnerDriver runner = s.runner;
        List<String> bad = List.of(
                runner.jwt(0, 120, "polystack", RunnerDriver.newKeys().getPrivate(), runner.id()), // another key
                runner.jwt(300, 120, "polystack", runner.privateKey(), runner.id()), // expired
                runner.jwt(-600, 120, "polystack", runner.privateKey(), runner.id()), // issued in the future
                runner.jwt(0, 3600, "polystack", runner.privateKey(), runner.id()), // lives too long
                runner.jwt(0, 120, "someone-else", runner.privateKey(), runner.id()), // wrong audience
                runner.jwt(0, 120, "polystack", runner.privateKey(), "no-such-runner"), // unknown runner
                "not.a.jwt",
                PostgresResource.ADMIN_TOKEN); // an API token
        for (String token : bad) {
            given().auth()
                    .oauth2(token)
                    .queryParam("wait", "0s")
                    .post("/api/runner/v1/claim")
                    .then()
                    .statusCode(401)
                    .contentType("application/problem+json");
        }
        given().queryParam("wait", "0s").post("/api/runner/v1/claim").then().statusCode(401);
        runner.request()
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(204);

        String token = runner.jwt();
        admin().delete(
                        "/api/v1/orgs/{org}/runner-rules/{id}",
                        s.org,
                        admin().get("/api/v1/orgs/{org}/runner-rules", s.org)
                                .jsonPath()
                                .getString("items[0].id"))
                .then()
                .statusCode(204);
        admin().delete("/api/v1/orgs/{org}/runners/{id}", s.org, runner.id())
                .then()
                .statusCode(204);
        given().auth()
                .oauth2(token)
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(401);
    }

    @Test
    void aTokenAlreadyAcceptedIsRefusedOnceTheRunnersKeyIsReplacedOrTheRunnerDeleted() {
        Scenario s = new Scenario(1);
        String token = s.runner.jwt();
        // accepted twice: the second time from the verified-token cache
        given().auth()
                .oauth2(token)
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(204);
        given().auth()
                .oauth2(token)
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(204);
        String etag = admin().get("/api/v1/orgs/{org}/runners/{id}", s.org, s.runner.id())
                .then()
                .statusCode(200)
                .extract()
                .header("ETag");
        admin().header("If-Match", etag)
                .body(Map.of(
                        "public_key", RunnerKeys.toPem(RunnerDriver.newKeys().getPublic())))
                .put("/api/v1/orgs/{org}/runners/{id}", s.org, s.runner.id())
                .then()
                .statusCode(200);
        given().auth()
                .oauth2(token)
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(401);

        Scenario other = new Scenario(1);
        String accepted = other.runner.jwt();
        given().auth()
                .oauth2(accepted)
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(204);
        admin().delete(
                        "/api/v1/orgs/{org}/runner-rules/{id}",
                        other.org,
                        admin().get("/api/v1/orgs/{org}/runner-rules", other.org)
                                .jsonPath()
                                .getString("items[0].id"))
                .then()
                .statusCode(204);
        admin().delete("/api/v1/orgs/{org}/runners/{id}", other.org, other.runner.id())
                .then()
                .statusCode(204);
        given().auth()
                .oauth2(accepted)
                .queryParam("wait", "0s")
                .post("/api/runner/v1/claim")
                .then()
                .statusCode(401);
    }

    @Test
    void aWaitingClaimLearnsOfNewWorkAtOnce() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        // the claim waits 15 s (the heartbeat interval) unless the new job wakes it
        long asked = System.nanoTime();
        CompletableFuture<Map<String, Object>> waiting = CompletableFuture.supplyAsync(() -> s.runner.claim("15s"));
        Thread.sleep(500);
        s.deploy();
        Map<String, Object> job = waiting.get(30, TimeUnit.SECONDS);
        long millis = (System.nanoTime() - asked) / 1_000_000;
        assertThat(job).isNotNull();
        // measured from the claim, not from the deploy call: a slow deploy call does not count against the claim,
        // and a claim that only looked again when its wait ran out answers after 15 s however fast the deploy was
        assertThat(millis)
                .as("woken by the notification, at least 3 s before its 15 s wait ran out")
                .isLessThan(12_000);
    }

    @Test
    void twoClaimsRacingForOneJobExactlyOneWins() throws Exception {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of()));
        s.deploy();
        assertThat(RunnerDriver.race(2, s.runner, s.runner)).isEqualTo(1);
    }

    @Test
    void concurrentClaimsNeverGiveARunnerMoreThanItsSlots() throws Exception {
        Scenario s = new Scenario(2);
        s.manifest(
                graph("a", List.of(), "b", List.of(), "c", List.of(), "d", List.of(), "e", List.of(), "f", List.of()));
        String id = s.deploy();
        assertThat(RunnerDriver.race(8, s.runner))
                .as("claims that got a job, racing for a runner with 2 slots")
                .isEqualTo(2);
        // a claim refused at the limit keeps nothing: its node is still queued, not started
        assertThat(s.nodeStatuses(id).values())
                .as("node statuses after the race")
                .containsOnly("running", "queued")
                .filteredOn("running"::equals)
                .hasSize(2);
    }

    @Test
    void aRunnerNeverGetsMoreThanItsMaxConcurrentJobs() {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of(), "c", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> claimed = s.claimAll();
        assertThat(claimed).hasSize(2);

        // the runner shows what it holds
        var runner = admin().get("/api/v1/orgs/{org}/runners/r1", s.org)
                .then()
                .statusCode(200)
                .body("status", equalTo("busy"))
                .extract()
                .jsonPath();
        assertThat(runner.getList("current_jobs.job_id"))
                .containsExactlyInAnyOrderElementsOf(claimed.values().stream()
                        .map(j -> j.get("job_id").toString())
                        .toList());
        assertThat(runner.getList("current_jobs.deployment_id")).containsOnly(id);
        assertThat(runner.getList("current_jobs.project")).containsOnly("shop");
        assertThat(runner.getList("current_jobs.env")).containsOnly("prod");
        assertThat(runner.getList("current_jobs.resource"))
                .allMatch(r -> r.toString().startsWith("thing/default/app."));
    }

    @Test
    void cancelReachesTheRunningJobThroughItsHeartbeat() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        s.runner.heartbeat(job.get("job_id")).then().statusCode(200).body("cancelled", equalTo(false));
        admin().post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/cancel", s.org, id)
                .then()
                .statusCode(200)
                .body("cancel_requested", equalTo(true));
        s.runner.heartbeat(job.get("job_id")).then().statusCode(200).body("cancelled", equalTo(true));
        s.runner.result(job.get("job_id"), Map.of("status", "cancelled")).then().statusCode(204);
        assertThat(s.status(id)).isEqualTo("cancelled");
        assertThat(s.nodeStatuses(id)).containsEntry("app.a", "cancelled").containsEntry("app.b", "cancelled");
        admin().post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/cancel", s.org, id)
                .then()
                .statusCode(409);
    }

    @Test
    void aLostRunnersJobFailsItsStateLockIsFreedAndItsLateWritesAreRefused() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        String auth = StateCalls.basic(state);
        String address = StateCalls.path(state.get("address"));
        StateCalls.lock(address, auth, "lock-1").then().statusCode(200);
        writeState(address, auth, "lock-1", 1).then().statusCode(200);

        await().atMost(Duration.ofSeconds(20)).until(() -> s.status(id).equals("failed"));
        Map<String, Object> deployment = s.deployment(id);
        assertThat(String.valueOf(deployment.get("nodes"))).contains("runner lost");
        writeState(address, auth, "lock-1", 2)
                .then()
                .statusCode(401)
                .body("detail", containsString("lease has expired"));
        s.runner.heartbeat(job.get("job_id")).then().statusCode(409);
        s.runner.result(job.get("job_id"), Map.of("status", "succeeded")).then().statusCode(409);

        String next = s.deploy();
        Map<String, Object> retry = s.claimAll().get("app.a");
        @SuppressWarnings("unchecked")
        Map<String, Object> retryState = (Map<String, Object>) retry.get("state");
        StateCalls.lock(StateCalls.path(retryState.get("address")), StateCalls.basic(retryState), "lock-2")
                .then()
                .statusCode(200);
        s.succeed(retry);
        assertThat(s.status(next)).isEqualTo("succeeded");
    }

    @Test
    void theStateBackendSpeaksOpenTofusProtocol() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        String auth = StateCalls.basic(state);
        String address = StateCalls.path(state.get("address"));
        assertThat(state.get("username")).isEqualTo(job.get("job_id"));

        given().header("Authorization", auth).get(address).then().statusCode(204);
        given().header("Authorization", "Basic " + Base64.getEncoder().encodeToString("x:y".getBytes()))
                .get(address)
                .then()
                .statusCode(401);
        writeState(address, auth, "lock-1", 1).then().statusCode(409);
        StateCalls.lock(address, auth, "lock-1").then().statusCode(200);
        given().header("Authorization", auth)
                .body(StateCalls.lockInfo("other"))
                .request("LOCK", address)
                .then()
                .statusCode(423)
                .body("ID", equalTo("lock-1"));
        writeState(address, auth, "lock-1", 3).then().statusCode(200);
        writeState(address, auth, "lock-1", 2)
                .then()
                .statusCode(409)
                .body("detail", containsString("older than the stored serial"));
        given().header("Authorization", auth)
                .get(address)
                .then()
                .statusCode(200)
                .body("serial", equalTo(3));
        given().header("Authorization", auth)
                .body(StateCalls.lockInfo("other"))
                .request("UNLOCK", address)
                .then()
                .statusCode(409);
        given().header("Authorization", auth)
                .body(StateCalls.lockInfo("lock-1"))
                .request("UNLOCK", address)
                .then()
                .statusCode(200);

        String versionId = admin().get(APP_A_VERSIONS, s.org)
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(1))
                .extract()
                .path("items[0].id");
        admin().get(APP_A_VERSIONS + "/{v}", s.org, versionId)
                .then()
                .statusCode(200)
                .body("serial", equalTo(3));
        admin().get(APP_A_VERSIONS, s.org).then().body(not(containsString("terraform_data")));
    }

    @Test
    void logsAreNumberedIdempotentAndMasked() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        s.runner.log(job.get("job_id"), 0, "Initializing", "token is " + Scenario.PROVIDER_SECRET);
        s.runner.log(job.get("job_id"), 0, "Initializing", "token is " + Scenario.PROVIDER_SECRET);
        s.runner.log(job.get("job_id"), 1, "Apply complete!");
        s.succeed(job);
        Response logs = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs", s.org, id);
        logs.then()
                .statusCode(200)
                .body("items.message", Matchers.contains("Initializing", "token is ***", "Apply complete!"))
                .body("items[0].node", equalTo("thing/default/app.a"));
        assertThat(logs.asString()).doesNotContain(Scenario.PROVIDER_SECRET);
        admin().queryParam("node", "thing/default/other")
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs", s.org, id)
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));
        String stream = admin().accept("text/event-stream")
                .queryParam("follow", true)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/logs", s.org, id)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(stream)
                .containsPattern("event: ?log")
                .contains("Apply complete!")
                .containsPattern("event: ?end")
                .doesNotContain(Scenario.PROVIDER_SECRET);
    }

    @Test
    void theJobCarriesWhatTheAgentNeeds() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        assertThat(job.get("operation")).isEqualTo("apply");
        assertThat(((Map<?, ?>) job.get("module")).get("source")).isEqualTo("inline");
        assertThat(String.valueOf(((Map<?, ?>) job.get("module")).get("code"))).contains("terraform_data");
        assertThat(((Map<?, ?>) job.get("inputs")).get("name")).isEqualTo("prod-app.a");
        List<?> providers = (List<?>) job.get("providers");
        assertThat(providers).hasSize(1);
        assertThat(((Map<?, ?>) ((Map<?, ?>) providers.get(0)).get("configuration")).get("token"))
                .isEqualTo(Scenario.PROVIDER_SECRET);
        assertThat(job.get("outputs")).isEqualTo(List.of("name"));
        assertThat(job.get("lease_seconds")).isEqualTo(5);
    }

    @Test
    void waitReturnsWhenTheDeploymentEnds() throws Exception {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        CompletableFuture<String> waited = CompletableFuture.supplyAsync(() -> admin().queryParam("timeout", "20s")
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/wait", s.org, id)
                .then()
                .statusCode(200)
                .extract()
                .path("status"));
        Thread.sleep(300);
        s.succeed(s.claimAll().get("app.a"));
        assertThat(waited.get(10, TimeUnit.SECONDS)).isEqualTo("succeeded");
        admin().queryParam("timeout", "forever")
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/wait", s.org, id)
                .then()
                .statusCode(400)
                .body("errors[0].pointer", equalTo("timeout"));
    }

    /** Where the admin API lists the state versions of {@code app.a}. */
    private static final String APP_A_VERSIONS =
            "/api/v1/orgs/{org}/projects/shop/envs/prod/state/thing/default/app.a/versions";

    /** One resource deployed, its job claimed, and its state locked by that job ({@code lock-1}). */
    private record LockedState(String org, String auth, String address) {}

    private static LockedState lockedState() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) job.get("state");
        String auth = StateCalls.basic(state);
        String address = StateCalls.path(state.get("address"));
        StateCalls.lock(address, auth, "lock-1").then().statusCode(200);
        return new LockedState(s.org, auth, address);
    }

    @Test
    void aStateOverItsLimitIsRefusedWith413WhateverItsFramingAndNothingIsStored() throws Exception {
        LockedState locked = lockedState();
        byte[] big =
                ("{\"version\":4,\"serial\":1,\"lineage\":\"3f2a6c1e-0000-4000-8000-000000000001\",\"outputs\":{\"x\":{\"value\":\""
                                + "x".repeat(32 * 1024 * 1024) + "\",\"type\":\"string\"}},\"resources\":[]}")
                        .getBytes(StandardCharsets.UTF_8);

        // a plain HTTP client, as OpenTofu's is: with a Content-Length, and chunked from a stream
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI target = URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port
                + locked.address() + "?ID=lock-1");
        for (HttpRequest.BodyPublisher body : List.of(
                HttpRequest.BodyPublishers.ofByteArray(big),
                HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big)))) {
            HttpResponse<String> answer = client.send(
                    HttpRequest.newBuilder(target)
                            .header("Authorization", locked.auth())
                            .header("Content-Type", "application/json")
                            .POST(body)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(413);
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(answer.body()).contains("payload-too-large").contains(Integer.toString(32 * 1024 * 1024));
        }
        given().header("Authorization", locked.auth())
                .get(locked.address())
                .then()
                .statusCode(204);
        writeState(locked.address(), locked.auth(), "lock-1", 1).then().statusCode(200);
    }

    private static Response writeState(String address, String auth, String lockId, int serial) {
        return postState(
                address,
                auth,
                lockId,
                "{\"version\":4,\"terraform_version\":\"1.8.0\",\"serial\":" + serial
                        + ",\"lineage\":\"3f2a6c1e-0000-4000-8000-000000000001\",\"outputs\":{},\"resources\":[]}");
    }

    private static Response postState(String address, String auth, String lockId, String state) {
        return given().header("Authorization", auth)
                .contentType("application/json")
                .body(state)
                .queryParam("ID", lockId)
                .post(address);
    }

    @Test
    void aResultForATypeWhoseStoredSchemaIsNoLongerUsableFailsTheNodeNotTheRequest() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        // a schema saved before cycles were refused (the API refuses it now)
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update resource_type set output_schema = "
                                        + "cast(?1 as jsonb) where slug = 'thing' and org_id = (select id from organization where slug = ?2)")
                        .setParameter(1, "{\"type\":\"object\",\"properties\":{\"name\":{\"$ref\":\"#\"}}}")
                        .setParameter(2, s.org)
                        .executeUpdate());
        Map<String, Object> job = s.claimAll().get("app.a");
        s.runner
                .result(
                        job.get("job_id"),
                        Map.of(
                                "status",
                                "succeeded",
                                "outputs",
                                Map.of("name", Map.of("value", "x", "sensitive", false))))
                .then()
                .statusCode(204);
        assertThat(s.status(id)).isEqualTo("failed");
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", s.org, id)
                .then()
                .body("nodes[0].error", containsString("output schema cannot be used"));
    }

    @Test
    void resultsKeepOnlyTheDocumentedResourceFieldsAndACappedError() {
        Scenario s = new Scenario(2);
        s.manifest(graph("a", List.of(), "b", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> jobs = s.claimAll();
        Map<String, Object> resource = new java.util.HashMap<>(Map.of(
                "address",
                "terraform_data.this",
                "mode",
                "managed",
                "type",
                "terraform_data",
                "name",
                "this",
                "provider",
                "terraform.io/builtin/terraform"));
        resource.put("values", Map.of("input", "planted-by-a-runner"));
        resource.put("sensitive_values", Map.of("x", "planted-too"));
        s.runner
                .result(
                        jobs.get("app.a").get("job_id"),
                        Map.of(
                                "status",
                                "succeeded",
                                "outputs",
                                Map.of("name", Map.of("value", "prod-app.a", "sensitive", false)),
                                "resources",
                                List.of(resource)))
                .then()
                .statusCode(204);
        s.runner
                .result(
                        jobs.get("app.b").get("job_id"),
                        Map.of(
                                "status",
                                "failed",
                                "error",
                                Map.of("summary", "Error: boom", "detail", "x".repeat(60_000))))
                .then()
                .statusCode(204);
        await().atMost(Duration.ofSeconds(10)).until(() -> !s.status(id).equals("running"));

        String graph = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(graph)
                .contains("terraform_data.this")
                .doesNotContain("planted-by-a-runner")
                .doesNotContain("planted-too");
        String error = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", s.org, id)
                .then()
                .statusCode(200)
                .extract()
                .path("nodes.find { it.id == 'app.b' }.error");
        assertThat(error)
                .startsWith("Error: boom: xxx")
                .hasSizeLessThanOrEqualTo(8192)
                .endsWith("(truncated)");
    }

    @Test
    void aResultWithAStatusOutsideTheProtocolIsRefusedAndTheJobKeepsRunning() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        for (Object status : new Object[] {"done", "SUCCEEDED", "", 1}) {
            s.runner
                    .result(job.get("job_id"), Map.of("status", status))
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("detail", containsString("succeeded, failed or cancelled"))
                    .body("errors.find { it.pointer == '/status' }", notNullValue());
        }
        assertThat(s.nodeStatuses(id)).containsEntry("app.a", "running");
        s.succeed(job);
        await().atMost(Duration.ofSeconds(10)).until(() -> s.status(id).equals("succeeded"));
    }

    @Test
    void logBatchesAfterTheResultAreRefusedUnlessAlreadyStored() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        s.runner.log(job.get("job_id"), 0, "Apply complete!");
        s.succeed(job);
        // a repeat of a batch stored before the result is harmless; a new one is refused
        s.runner
                .request()
                .body(Map.of("batch", 0, "lines", List.of(Map.of("message", "Apply complete!"))))
                .post("/api/runner/v1/jobs/{id}/logs", job.get("job_id"))
                .then()
                .statusCode(204);
        s.runner
                .request()
                .body(Map.of("batch", 1, "lines", List.of(Map.of("message", "written after the result"))))
                .post("/api/runner/v1/jobs/{id}/logs", job.get("job_id"))
                .then()
                .statusCode(409)
                .body("detail", containsString("ended"));
    }

    @Test
    void stateWritesMustCarryLineageAndSerialAndNeverRewriteHistory() {
        LockedState locked = lockedState();
        String lineage = "3f2a6c1e-0000-4000-8000-000000000001";

        // without serial or lineage the stale-write check cannot work: refused
        postState(
                        locked.address(),
                        locked.auth(),
                        "lock-1",
                        "{\"version\":4,\"lineage\":\"" + lineage + "\",\"resources\":[]}")
                .then()
                .statusCode(400)
                .body("errors.pointer", hasItem("/serial"));
        postState(locked.address(), locked.auth(), "lock-1", "{\"version\":4,\"serial\":1,\"resources\":[]}")
                .then()
                .statusCode(400)
                .body("errors.pointer", hasItem("/lineage"));
        writeState(locked.address(), locked.auth(), "lock-1", 4).then().statusCode(200);
        // the same serial again: the same content is harmless, other content is a rewrite of history
        writeState(locked.address(), locked.auth(), "lock-1", 4).then().statusCode(200);
        postState(
                        locked.address(),
                        locked.auth(),
                        "lock-1",
                        "{\"version\":4,\"serial\":4,\"lineage\":\"" + lineage
                                + "\",\"outputs\":{\"x\":{\"value\":1,\"type\":\"number\"}},\"resources\":[]}")
                .then()
                .statusCode(409)
                .body("detail", containsString("serial 4"));
        // another lineage is another state's history
        postState(
                        locked.address(),
                        locked.auth(),
                        "lock-1",
                        "{\"version\":4,\"serial\":9,\"lineage\":\"another\",\"resources\":[]}")
                .then()
                .statusCode(409)
                .body("detail", containsString("lineage"));
        admin().get(APP_A_VERSIONS, locked.org()).then().statusCode(200).body("items.size()", equalTo(1));
    }

    @Test
    void aResourcesStateVersionsAreListedNewestFirstAPageAtATimeWithoutTheirContents() {
        LockedState locked = lockedState();
        for (int serial = 1; serial <= 3; serial++) {
            writeState(locked.address(), locked.auth(), "lock-1", serial).then().statusCode(200);
        }

        var first = admin().queryParam("limit", 2)
                .get(APP_A_VERSIONS, locked.org())
                .then()
                .statusCode(200)
                .body("items.serial", contains(3, 2))
                .body("items[0]", not(hasKey("content")))
                .extract()
                .jsonPath();
        String next = first.getString("next_page_token");
        assertThat(next).as("a third version is on the next page").isNotBlank();
        admin().queryParam("limit", 2)
                .queryParam("page_token", next)
                .get(APP_A_VERSIONS, locked.org())
                .then()
                .statusCode(200)
                .body("items.serial", contains(1))
                .body("next_page_token", nullValue());
        admin().queryParam("page_token", "not-a-token")
                .get(APP_A_VERSIONS, locked.org())
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
        admin().queryParam("limit", 501)
                .get(APP_A_VERSIONS, locked.org())
                .then()
                .statusCode(400)
                .contentType("application/problem+json");
    }
}
