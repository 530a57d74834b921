package dev.polystack.tests;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two control-plane replicas on one database and four runners (two polling each replica): 100 deployments
 * over 20 environments, created through both replicas at once. Each environment's deployments must run
 * strictly one after another and every resource of every deployment must be executed exactly once.
 */
class TwoReplicasIT {

    private static final int ENVIRONMENTS = 20;
    private static final int ROUNDS = 5;

    @TempDir
    Path workspace;

    @Test
    void deploymentsThroughTwoReplicasAreSerialPerEnvironmentAndRunEveryNodeOnce() throws Exception {
        try (ExternalPostgres postgres = new ExternalPostgres(workspace.resolve("pg")).start()) {
            Map<String, String> env = new HashMap<>(postgres.environment());
            env.put("POLYSTACK_BOOTSTRAP_ADMIN_TOKEN", ControlPlaneCrashIT.ADMIN);
            env.put("POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN", "false");
            // replicas share the encryption key, as the Helm chart makes them
            byte[] key = new byte[32];
            new java.security.SecureRandom().nextBytes(key);
            env.put("POLYSTACK_ENCRYPTION_KEY", Base64.getEncoder().encodeToString(key));
            try (PlatformProcess a = new PlatformProcess(workspace.resolve("a"), env).start();
                    PlatformProcess b = new PlatformProcess(workspace.resolve("b"), env).start()) {
                Polystack viaA = new Polystack(a.baseUrl(), ControlPlaneCrashIT.ADMIN);
                Polystack viaB = new Polystack(b.baseUrl(), ControlPlaneCrashIT.ADMIN);
                viaA.api()
                        .body(Map.of("id", "acme", "name", "Acme"))
                        .post("/api/v1/orgs")
                        .then()
                        .log()
                        .ifValidationFails()
                        .statusCode(201);
                viaB.api()
                        .body(Map.of("id", "production"))
                        .post("/api/v1/orgs/acme/env-types")
                        .then()
                        .log()
                        .ifValidationFails()
                        .statusCode(201);
                viaA.api()
                        .body(Map.of("id", "shop", "name", "Shop"))
                        .post("/api/v1/orgs/acme/projects")
                        .then()
                        .log()
                        .ifValidationFails()
                        .statusCode(201);
                viaB.api()
                        .body(Map.of(
                                "id",
                                "thing",
                                "output_schema",
                                Map.of(
                                        "type",
                                        "object",
                                        "required",
                                        List.of("name"),
                                        "properties",
                                        Map.of("name", Map.of("type", "string")))))
                        .post("/api/v1/orgs/acme/resource-types")
                        .then()
                        .log()
                        .ifValidationFails()
                        .statusCode(201);
                viaA.api()
                        .body(Map.of(
                                "id",
                                "thing",
                                "resource_type",
                                "thing",
                                "module_source",
                                "inline",
                                "module_source_code",
                                ControlPlaneCrashIT.MODULE,
                                "module_params",
                                Map.of(
                                        "upstream",
                                        Map.of("type", "any", "is_optional", true),
                                        "round",
                                        Map.of("type", "number", "is_optional", true)),
                                "module_inputs",
                                Map.of("name", "${context.env_id}-${context.res_id}")))
                        .post("/api/v1/orgs/acme/modules")
                        .then()
                        .log()
                        .ifValidationFails()
                        .statusCode(201);
                viaB.api()
                        .body(Map.of("module_id", "thing"))
                        .post("/api/v1/orgs/acme/module-rules")
                        .then()
                        .log()
                        .ifValidationFails()
                        .statusCode(201);
                List<ProtocolRunner> runners = new ArrayList<>();
                try {
                    for (int r = 0; r < 4; r++) {
                        Path keyFile = workspace.resolve("keys/r" + r + ".key");
                        viaA.runner("r" + r, ProtocolRunner.keygen(keyFile), 4);
                        runners.add(ProtocolRunner.start(
                                (r % 2 == 0 ? a : b).baseUrl(), "acme", "r" + r, keyFile, 4, Duration.ofMillis(20)));
                    }
                    for (int e = 0; e < ENVIRONMENTS; e++) {
                        (e % 2 == 0 ? viaA : viaB).environment("e" + e);
                        // each runner serves five environments
                        viaA.api()
                                .body(Map.of("runner_id", "r" + (e % 4), "project_id", "shop", "env_id", "e" + e))
                                .post("/api/v1/orgs/acme/runner-rules")
                                .then()
                                .log()
                                .ifValidationFails()
                                .statusCode(201);
                    }

                    long started = System.nanoTime();
                    List<String[]> deployments = new ArrayList<>();
                    for (int round = 0; round < ROUNDS; round++) {
                        for (int e = 0; e < ENVIRONMENTS; e++) {
                            Polystack through = (round + e) % 2 == 0 ? viaA : viaB;
                            // a new input every round, so that every resource runs every time
                            through.manifest("e" + e, """
                                    workloads:
                                      app:
                                        resources:
                                          a: { type: thing, params: { round: %d } }
                                          b: { type: thing, params: { round: %d, upstream: "${resources.a.outputs.name}" } }
                                          c: { type: thing, params: { round: %d, upstream: "${resources.b.outputs.name}" } }
                                    """.formatted(round, round, round));
                            deployments.add(new String[] {"e" + e, through.deploy("e" + e)});
                        }
                    }
                    for (String[] deployment : deployments) {
                        assertThat(viaA.await(deployment[0], deployment[1], Duration.ofMinutes(3)))
                                .as("deployment %s of %s", deployment[1], deployment[0])
                                .isEqualTo("succeeded");
                    }
                    double seconds = (System.nanoTime() - started) / 1e9;
                    int executed =
                            runners.stream().mapToInt(r -> r.executed.size()).sum();
                    System.out.printf(
                            "TwoReplicasIT: %d deployments (%d jobs) through two replicas in %.1f s%n",
                            deployments.size(), executed, seconds);
                    assertThat(runners)
                            .allSatisfy(r -> assertThat(r.failures)
                                    .as("runner protocol failures")
                                    .isEmpty());
                    assertThat(executed).isEqualTo(ENVIRONMENTS * ROUNDS * 3);

                    try (Connection connection = postgres.connect();
                            Statement statement = connection.createStatement()) {
                        // every node of every deployment ran exactly once
                        try (ResultSet rows = statement.executeQuery("""
                                select count(*) from deployment_node n
                                where (select count(*) from job j where j.node_id = n.id) <> 1""")) {
                            rows.next();
                            assertThat(rows.getInt(1))
                                    .as("nodes that did not run exactly once")
                                    .isZero();
                        }
                        try (ResultSet rows = statement.executeQuery("select count(*) from deployment_node")) {
                            rows.next();
                            assertThat(rows.getInt(1)).isEqualTo(ENVIRONMENTS * ROUNDS * 3);
                        }
                        // per environment, each deployment started after the previous one had finished
                        Map<String, List<Timestamp[]>> byEnvironment = new HashMap<>();
                        try (ResultSet rows = statement.executeQuery("""
                                select e.slug, d.started_at, d.finished_at from deployment d join environment e on e.id = d.environment_id
                                order by e.slug, d.created_at""")) {
                            while (rows.next()) {
                                byEnvironment
                                        .computeIfAbsent(rows.getString(1), k -> new ArrayList<>())
                                        .add(new Timestamp[] {rows.getTimestamp(2), rows.getTimestamp(3)});
                            }
                        }
                        assertThat(byEnvironment).hasSize(ENVIRONMENTS);
                        byEnvironment.forEach((environment, runs) -> {
                            assertThat(runs).hasSize(ROUNDS);
                            for (int i = 1; i < runs.size(); i++) {
                                assertThat(runs.get(i)[0])
                                        .as("deployment %d of %s started after the one before finished", i, environment)
                                        .isAfterOrEqualTo(runs.get(i - 1)[1]);
                            }
                        });
                    }
                } finally {
                    for (ProtocolRunner runner : runners) {
                        runner.close();
                    }
                }
            }
        }
    }
}
