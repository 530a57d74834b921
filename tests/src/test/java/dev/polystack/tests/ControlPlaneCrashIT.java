package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 of the control plane (with its embedded PostgreSQL, the default single-node set-up) in the middle
 * of a deployment, then a restart: the deployment completes, every resource ran once, state serials grow.
 */
class ControlPlaneCrashIT {

    static final String ADMIN = "pst_crash-admin-token-0123456789abcdefghijklmnopqrst";
    static final String MODULE = """
            variable "name" { type = string }
            variable "upstream" {
              type    = any
              default = null
            }
            variable "apply_ms" {
              type    = number
              default = 0
            }
            variable "round" {
              type    = number
              default = 0
            }
            resource "terraform_data" "this" {
              input = { name = var.name, upstream = var.upstream }
            }
            output "name" { value = var.name }
            """;
    static final Map<String, Object> PARAMS = Map.of(
            "upstream",
            Map.of("type", "any", "is_optional", true),
            "apply_ms",
            Map.of("type", "number", "is_optional", true));

    @TempDir
    Path workspace;

    @Test
    void aKilledControlPlaneRestartsAndTheDeploymentCompletesWithNothingRunTwice() throws Exception {
        PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start();
        try (platform) {
            Polystack polystack = new Polystack(platform.baseUrl(), ADMIN);
            polystack.configure(MODULE, PARAMS);
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
                              a: { type: thing, params: { apply_ms: 3000 } }
                              b: { type: thing, params: { apply_ms: 3000, upstream: "${resources.a.outputs.name}" } }
                              c: { type: thing, params: { apply_ms: 3000, upstream: "${resources.a.outputs.name}" } }
                              d: { type: thing, params: { apply_ms: 3000, upstream: ["${resources.b.outputs.name}", "${resources.c.outputs.name}"] } }
                        """);
                String id = polystack.deploy("prod");
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> "running"
                                .equals(polystack.nodeStatuses("prod", id).get("app.a")));
                Thread.sleep(1500);

                long killed = System.nanoTime();
                platform.kill();
                Thread.sleep(3000);
                platform.start();
                System.out.printf(
                        "ControlPlaneCrashIT: control plane killed and back in %.1f s%n",
                        (System.nanoTime() - killed) / 1e9);

                assertThat(polystack.await("prod", id, Duration.ofMinutes(4)))
                        .as(() -> polystack.describe("prod", id))
                        .isEqualTo("succeeded");
                assertThat(polystack.nodeStatuses("prod", id))
                        .containsOnly(
                                Map.entry("app.a", "succeeded"),
                                Map.entry("app.b", "succeeded"),
                                Map.entry("app.c", "succeeded"),
                                Map.entry("app.d", "succeeded"));
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> nodes = (List<Map<String, Object>>)
                        polystack.deployment("prod", id).get("nodes");
                assertThat(nodes)
                        .as("no node was dispatched a second time")
                        .allSatisfy(n -> assertThat(n.get("attempt")).isEqualTo(1));
                for (String resource : List.of("app.a", "app.b", "app.c", "app.d")) {
                    List<Map<String, Object>> versions = polystack
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
                            .getList("items");
                    assertThat(versions)
                            .as("state versions of %s: one apply, one write", resource)
                            .hasSize(1);
                }
                assertThat(agent.log()).doesNotContain("lost its lease");
            }
        }
    }
}
