package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL stopped and started again in the middle of a deployment: meanwhile the API answers 503
 * problems (not 500, not 401), and afterwards everything resumes with nothing lost.
 */
class DatabaseOutageIT {

    @TempDir
    Path workspace;

    @Test
    void theApiSays503DuringAnOutageAndTheDeploymentResumesAfterIt() throws Exception {
        try (ExternalPostgres postgres = new ExternalPostgres(workspace.resolve("pg")).start()) {
            Map<String, String> env = new HashMap<>(postgres.environment());
            env.put("POLYSTACK_BOOTSTRAP_ADMIN_TOKEN", ControlPlaneCrashIT.ADMIN);
            env.put("POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN", "false");
            try (PlatformProcess platform = new PlatformProcess(workspace.resolve("data"), env).start()) {
                Polystack polystack = new Polystack(platform.baseUrl(), ControlPlaneCrashIT.ADMIN);
                polystack.configure(ControlPlaneCrashIT.MODULE, ControlPlaneCrashIT.PARAMS);
                polystack.environment("prod");
                Path key = workspace.resolve("keys/r1.key");
                polystack.runner("r1", AgentProcess.keygen(key), 2);
                polystack.runnerRule("r1");
                Path tofu = StandInTofu.writeLauncher(workspace.resolve("bin"), System.getProperty("java.class.path"));
                try (AgentProcess agent = AgentProcess.start(
                        platform.baseUrl(), "acme", "r1", key, tofu.toString(), workspace.resolve("agent"), 2)) {
                    polystack.manifest("prod", """
                            workloads:
                              app:
                                resources:
                                  a: { type: thing, params: { apply_ms: 4000 } }
                                  b: { type: thing, params: { apply_ms: 2000, upstream: "${resources.a.outputs.name}" } }
                                  c: { type: thing, params: { apply_ms: 2000, upstream: "${resources.b.outputs.name}" } }
                            """);
                    String id = polystack.deploy("prod");
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> "running"
                                    .equals(polystack.nodeStatuses("prod", id).get("app.a")));

                    postgres.stop();
                    long stopped = System.nanoTime();
                    Response answer = polystack.api().get("/api/v1/orgs/acme");
                    assertThat(answer.statusCode())
                            .as("an API call while the database is down: %s", answer.asString())
                            .isEqualTo(503);
                    assertThat(answer.contentType()).startsWith("application/problem+json");
                    assertThat(answer.jsonPath().getInt("status")).isEqualTo(503);
                    assertThat(answer.header("Retry-After")).isNotBlank();
                    assertThat(answer.asString()).doesNotContain("Exception");
                    Response write = polystack
                            .api()
                            .body(Map.of("id", "during-outage", "name", "X"))
                            .post("/api/v1/orgs/acme/projects");
                    assertThat(write.statusCode()).isEqualTo(503);
                    assertThat(RestAssured.given()
                                    .baseUri(platform.baseUrl())
                                    .get("/q/health/ready")
                                    .statusCode())
                            .isEqualTo(503);
                    Thread.sleep(Math.max(0, 8000 - (System.nanoTime() - stopped) / 1_000_000));
                    postgres.start();
                    System.out.printf(
                            "DatabaseOutageIT: PostgreSQL was down for %.1f s%n", (System.nanoTime() - stopped) / 1e9);

                    assertThat(polystack.await("prod", id, Duration.ofMinutes(4)))
                            .as(() -> polystack.describe("prod", id))
                            .isEqualTo("succeeded");
                    assertThat(polystack.nodeStatuses("prod", id))
                            .containsOnly(
                                    Map.entry("app.a", "succeeded"),
                                    Map.entry("app.b", "succeeded"),
                                    Map.entry("app.c", "succeeded"));
                    // nothing lost: every resource's log and state arrived
                    List<String> messages = polystack
                            .api()
                            .queryParam("limit", 500)
                            .get("/api/v1/orgs/acme/projects/shop/envs/prod/deployments/{id}/logs", id)
                            .then()
                            .log()
                            .ifValidationFails()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("items.message");
                    assertThat(messages.stream()
                                    .filter(m -> m.startsWith("Apply complete!"))
                                    .count())
                            .isEqualTo(3);
                    for (String resource : List.of("app.a", "app.b", "app.c")) {
                        assertThat(polystack
                                        .api()
                                        .get(
                                                "/api/v1/orgs/acme/projects/shop/envs/prod/state/thing/default/{id}/versions",
                                                resource)
                                        .then()
                                        .log()
                                        .ifValidationFails()
                                        .statusCode(200)
                                        .extract()
                                        .jsonPath()
                                        .getList("items"))
                                .hasSize(1);
                    }
                    // the write refused during the outage did not half-happen
                    polystack
                            .api()
                            .get("/api/v1/orgs/acme/projects/during-outage")
                            .then()
                            .log()
                            .ifValidationFails()
                            .statusCode(404);
                    assertThat(agent.isAlive()).isTrue();
                }
            }
        }
    }
}
