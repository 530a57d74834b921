package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.Api;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;

/** Sequences across deployments of one environment: queued removals, removals decided at start, plans in order. */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class EngineSequencesTest {

    private static List<String> active(Scenario s) {
        return admin()
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("nodes.id", String.class)
                .stream()
                .sorted()
                .toList();
    }

    @Test
    void aQueuedRemovalOfAResourceAlreadyGoneDoesNotWedgeTheEnvironment() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        // the runner stops; b leaves the manifest; two deployments are made, the second queues
        s.manifest(graph("a", List.of()), Map.of("a", 2));
        String first = s.deploy();
        String second = s.create(Map.of("mode", "deploy"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        // the runner comes back
        for (int round = 0; round < 6; round++) {
            Map<String, Map<String, Object>> jobs = s.claimAll();
            jobs.values()
                    .forEach(job -> s.runner.succeed(
                            job,
                            "destroy".equals(job.get("operation"))
                                    ? Map.of()
                                    : Map.of("name", "out-" + RunnerDriver.resourceOf(job))));
        }
        assertThat(s.status(first)).as(() -> "first " + s.nodeStatuses(first)).isEqualTo("succeeded");
        assertThat(s.status(second))
                .as(() -> "second " + s.nodeStatuses(second))
                .isEqualTo("succeeded");
        assertThat(active(s)).containsExactly("app.a");
        // and the environment takes new deployments
        String third = s.deploy();
        assertThat(s.status(third)).isEqualTo("succeeded");
    }

    @Test
    void twoQueuedDestroysBothEnd() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        String first = s.create(Map.of("mode", "destroy"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String second = s.create(Map.of("mode", "destroy"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        s.claimAll().values().forEach(job -> s.runner.succeed(job, Map.of()));
        assertThat(s.status(first)).isEqualTo("succeeded");
        assertThat(s.status(second)).isEqualTo("succeeded");
        assertThat(s.nodeStatuses(second))
                .as("nothing was left to destroy when it started")
                .isEmpty();
        assertThat(active(s)).isEmpty();
    }

    @Test
    void removalsAreDecidedWhenADeploymentStartsNotWhenItIsCreated() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        // the running deployment adds c; the queued one drops it again
        s.manifest(graph("a", List.of(), "c", List.of()));
        String adds = s.deploy();
        s.manifest(graph("a", List.of()));
        String drops = s.deploy();
        for (int round = 0; round < 4; round++) {
            s.claimAll()
                    .values()
                    .forEach(job -> s.runner.succeed(
                            job,
                            "destroy".equals(job.get("operation"))
                                    ? Map.of()
                                    : Map.of("name", "out-" + RunnerDriver.resourceOf(job))));
        }
        assertThat(s.status(adds)).isEqualTo("succeeded");
        assertThat(s.status(drops)).isEqualTo("succeeded");
        assertThat(s.nodeStatuses(drops)).containsEntry("app.c", "succeeded");
        assertThat(active(s))
                .as("the resource the running deployment added was removed by the one that dropped it")
                .containsExactly("app.a");
    }

    @Test
    void aDependentsPlanWaitsForItsDependencysPlanAndNeverUsesStaleOutputs() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);

        // a changes: b's plan waits for a's, then cannot be planned with outputs a will only have after its apply
        s.manifest(graph("a", List.of(), "b", List.of("a")), Map.of("a", 2));
        String plan = s.create(Map.of("mode", "plan"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs.keySet()).containsExactly("app.a");
        assertThat(s.nodeStatuses(plan)).as("b waits while a plans").containsEntry("app.b", "pending");
        s.runner
                .result(
                        jobs.get("app.a").get("job_id"),
                        Map.of("status", "succeeded", "plan_summary", Map.of("add", 0, "change", 1, "destroy", 0)))
                .then()
                .statusCode(204);
        assertThat(s.claimAll()).isEmpty();
        assertThat(s.nodeStatuses(plan)).containsEntry("app.b", "skipped");
        @SuppressWarnings("unchecked")
        String error = ((List<Map<String, Object>>) s.deployment(plan).get("nodes"))
                .stream()
                        .filter(n -> n.get("id").equals("app.b"))
                        .findFirst()
                        .orElseThrow()
                        .get("error")
                        .toString();
        assertThat(error).contains("known after apply").contains("thing/default/app.a");

        // when a's plan changes nothing, b is planned with a's current outputs
        s.manifest(graph("a", List.of(), "b", List.of("a")), Map.of("b", 2));
        String second = s.create(Map.of("mode", "plan"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first.keySet()).containsExactly("app.a");
        s.runner
                .result(
                        first.get("app.a").get("job_id"),
                        Map.of("status", "succeeded", "plan_summary", Map.of("add", 0, "change", 0, "destroy", 0)))
                .then()
                .statusCode(204);
        Map<String, Map<String, Object>> then = s.claimAll();
        assertThat(then.keySet()).containsExactly("app.b");
        @SuppressWarnings("unchecked")
        List<Object> upstream =
                (List<Object>) ((Map<String, Object>) then.get("app.b").get("inputs")).get("upstream");
        assertThat(upstream).containsExactly("out-app.a");
        assertThat(second).isNotNull();
    }

    private static String rollbackDryRun(Scenario s, String target, boolean allowDestroy) {
        return admin().body(Map.of("mode", "dry-run", "rollback_to", target, "allow_destroy", allowDestroy))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .extract()
                .asString();
    }

    @Test
    void aRollbackToAFailedDeploymentLeavesWhatItDidNotApplyAsItIs() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        // the next deployment fails on a and adds c
        s.manifest(graph("a", List.of(), "b", List.of(), "c", List.of()), Map.of("a", 2));
        String failed = s.deploy();
        Map<String, Map<String, Object>> jobs = s.claimAll();
        s.runner.fail(jobs.get("app.a"), "asked to fail");
        s.succeed(jobs.get("app.c"));
        assertThat(s.status(failed)).isEqualTo("failed");

        var preview = admin().body(Map.of("mode", "dry-run", "rollback_to", failed))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(preview.getString("nodes.find { it.id == 'app.a' }.change")).isEqualTo("kept");
        assertThat(preview.getString("nodes.find { it.id == 'app.a' }.reasons[0]"))
                .contains("the target did not apply it (failed)");
        assertThat(preview.getString("nodes.find { it.id == 'app.b' }.change")).isEqualTo("unchanged");
        assertThat(preview.getString("nodes.find { it.id == 'app.c' }.change")).isEqualTo("unchanged");
        assertThat(preview.getInt("summary.destroy")).isZero();

        String rollback = s.create(Map.of("mode", "rollback", "rollback_to", failed))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        assertThat(s.claimAll()).as("nothing to run, nothing destroyed").isEmpty();
        assertThat(s.status(rollback)).isEqualTo("succeeded");
        assertThat(s.nodeStatuses(rollback)).doesNotContainKey("app.a").containsEntry("app.b", "unchanged");
        assertThat(active(s)).containsExactly("app.a", "app.b", "app.c");
    }

    @Test
    void aRollbackThatWouldDestroyLiveResourcesIsRefusedUnlessAllowed() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String first = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.manifest(graph("a", List.of(), "b", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);

        Api.problem(s.create(Map.of("mode", "rollback", "rollback_to", first)), 409, "conflict")
                .body(
                        "detail",
                        Matchers.containsString("would destroy live resources it did not have: thing/default/app.b"))
                .body("detail", Matchers.containsString("allow_destroy"));
        assertThat(rollbackDryRun(s, first, false))
                .contains("\"change\":\"kept\"")
                .contains("destroyed only with allow_destroy");
        assertThat(rollbackDryRun(s, first, true))
                .contains("\"change\":\"removed\"")
                .contains("\"destroy\":1");
        assertThat(active(s)).as("nothing changed yet").containsExactly("app.a", "app.b");

        String rollback = s.create(Map.of("mode", "rollback", "rollback_to", first, "allow_destroy", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs.keySet()).containsExactly("app.b");
        assertThat(jobs.get("app.b").get("operation")).isEqualTo("destroy");
        s.runner.succeed(jobs.get("app.b"), Map.of());
        assertThat(s.status(rollback)).isEqualTo("succeeded");
        assertThat(active(s)).containsExactly("app.a");
    }
}
