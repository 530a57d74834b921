package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * kill -9 of a runner agent in the middle of an apply: the node fails as "runner lost" within the lease,
 * the state lock is freed, the orphaned tofu's late state write is refused, and the next deployment works.
 */
class RunnerCrashIT {

    private static final Duration LEASE = Duration.ofSeconds(6);

    private static String runnerStatus(Polystack polystack) {
        return polystack
                .api()
                .get("/api/v1/orgs/acme/runners/r1")
                .then()
                .statusCode(200)
                .extract()
                .path("status");
    }

    @TempDir
    Path workspace;

    @Test
    void aKilledRunnersJobFailsWithinTheLeaseAndItsLateWriteIsRefused() throws Exception {
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ControlPlaneCrashIT.ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false",
                                "POLYSTACK_JOBS_LEASE",
                                LEASE.toSeconds() + "s",
                                "POLYSTACK_JOBS_HEARTBEAT_INTERVAL",
                                "2s",
                                "POLYSTACK_JOBS_SWEEP_INTERVAL",
                                "1s"))
                .start()) {
            Polystack polystack = new Polystack(platform.baseUrl(), ControlPlaneCrashIT.ADMIN);
            polystack.configure(ControlPlaneCrashIT.MODULE, ControlPlaneCrashIT.PARAMS);
            polystack.environment("prod");
            Path key = workspace.resolve("keys/r1.key");
            polystack.runner("r1", AgentProcess.keygen(key), 2);
            polystack.runnerRule("r1");
            Path tofu = StandInTofu.writeLauncher(workspace.resolve("bin"), System.getProperty("java.class.path"));

            polystack.manifest("prod", "shared:\n  slow: { type: thing, params: { apply_ms: 15000 } }\n");
            String first = polystack.deploy("prod");
            AgentProcess agent = AgentProcess.start(
                    platform.baseUrl(), "acme", "r1", key, tofu.toString(), workspace.resolve("agent1"), 2);
            List<ProcessHandle> orphans;
            long killedAt;
            try (agent) {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> "running"
                                .equals(polystack.nodeStatuses("prod", first).get("shared.slow")));
                // wait until the apply itself runs (it holds the state lock), then kill the agent, not its tofu
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> polystack
                                .api()
                                .queryParam("limit", 500)
                                .get("/api/v1/orgs/acme/projects/shop/envs/prod/deployments/{id}/logs", first)
                                .then()
                                .extract()
                                .jsonPath()
                                .getList("items.message", String.class)
                                .stream()
                                .anyMatch(m -> m.contains("Creating...")));
                Thread.sleep(1000);
                assertThat(runnerStatus(polystack)).isEqualTo("busy");
                orphans = agent.descendants();
                killedAt = System.nanoTime();
                agent.kill();
            }
            // the killed runner shows offline within two heartbeat intervals (2 s each) of its last contact
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> "offline".equals(runnerStatus(polystack)));
            double offlineAfter = (System.nanoTime() - killedAt) / 1e9;
            System.out.printf(
                    "RunnerCrashIT: runner shown offline %.1f s after kill -9 (heartbeat interval 2 s)%n",
                    offlineAfter);
            assertThat(offlineAfter)
                    .as("seconds until the runner showed offline")
                    .isLessThan(2 * 2 + 1.5);
            assertThat(polystack.await("prod", first, Duration.ofMinutes(1)))
                    .as(() -> polystack.describe("prod", first))
                    .isEqualTo("failed");
            double detectedAfter = (System.nanoTime() - killedAt) / 1e9;
            System.out.printf(
                    "RunnerCrashIT: runner lost detected %.1f s after kill -9 (lease %d s)%n",
                    detectedAfter, LEASE.toSeconds());
            assertThat(detectedAfter).as("seconds until the node failed").isLessThan(LEASE.toSeconds() + 10);
            @SuppressWarnings("unchecked")
            Map<String, Object> node = ((List<Map<String, Object>>)
                            polystack.deployment("prod", first).get("nodes"))
                    .get(0);
            assertThat(node.get("status")).isEqualTo("failed");
            assertThat(String.valueOf(node.get("error"))).contains("runner lost");

            // the orphaned tofu finishes its apply and tries to write the state: refused, nothing is stored
            for (ProcessHandle orphan : orphans) {
                orphan.onExit().get(60, TimeUnit.SECONDS);
            }
            assertThat(polystack
                            .api()
                            .get("/api/v1/orgs/acme/projects/shop/envs/prod/state/thing/default/shared.slow/versions")
                            .then()
                            .log()
                            .ifValidationFails()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("items"))
                    .as("state written by the dead job")
                    .isEmpty();

            // the lock was freed: a new runner process deploys the resource
            polystack.manifest("prod", "shared:\n  slow: { type: thing, params: { apply_ms: 100 } }\n");
            String second = polystack.deploy("prod");
            try (AgentProcess again = AgentProcess.start(
                    platform.baseUrl(), "acme", "r1", key, tofu.toString(), workspace.resolve("agent2"), 2)) {
                assertThat(polystack.await("prod", second, Duration.ofMinutes(2)))
                        .as(() -> polystack.describe("prod", second))
                        .isEqualTo("succeeded");
                assertThat(again.isAlive()).isTrue();
            }
        }
    }
}
