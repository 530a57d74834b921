package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

/** The engine driven through the real runner protocol: ordering, parallelism, failures, unchanged, removals. */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class DeploymentEngineTest {

    static Map<String, List<String>> diamond() {
        return graph("a", List.of(), "b", List.of("a"), "c", List.of("a"), "d", List.of("b", "c"));
    }

    @Test
    void aDiamondRunsBAndCTogetherAndDOnlyAfterBoth() {
        Scenario s = new Scenario(4);
        s.manifest(diamond());
        String id = s.deploy();

        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first.keySet()).containsExactly("app.a");
        assertThat(s.nodeStatuses(id)).containsEntry("app.a", "running").containsEntry("app.d", "pending");
        s.succeed(first.get("app.a"));

        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second.keySet()).containsExactlyInAnyOrder("app.b", "app.c");
        assertThat(s.nodeStatuses(id)).containsEntry("app.b", "running").containsEntry("app.c", "running");
        s.succeed(second.get("app.b"));
        assertThat(s.claimAll()).as("d waits for c as well").isEmpty();
        s.succeed(second.get("app.c"));

        Map<String, Map<String, Object>> third = s.claimAll();
        assertThat(third.keySet()).containsExactly("app.d");
        @SuppressWarnings("unchecked")
        List<Object> upstream =
                (List<Object>) ((Map<String, Object>) third.get("app.d").get("inputs")).get("upstream");
        assertThat(upstream)
                .as("references are resolved with the dependencies' outputs")
                .containsExactly("out-app.b", "out-app.c");
        s.succeed(third.get("app.d"));

        assertThat(s.status(id)).isEqualTo("succeeded");
        admin().queryParam("outputs", true)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .body("nodes", hasSize(4))
                .body("nodes.find { it.id == 'app.d' }.outputs.name", equalTo("out-app.d"))
                .body(
                        "edges.findAll { it.from == 'thing/default/app.d' }.to",
                        containsInAnyOrder("thing/default/app.b", "thing/default/app.c"));
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/graph", s.org, id)
                .then()
                .statusCode(200)
                .body("edges", hasSize(4))
                .body("nodes.status", Matchers.everyItem(equalTo("succeeded")));
    }

    @Test
    void aFailureSkipsItsDependentsButNotIndependentBranches() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a"), "c", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> ready = s.claimAll();
        assertThat(ready.keySet()).containsExactlyInAnyOrder("app.a", "app.c");
        s.runner.fail(ready.get("app.a"), "Error: creating thing: quota exceeded");
        s.succeed(ready.get("app.c"));
        assertThat(s.nodeStatuses(id))
                .containsEntry("app.a", "failed")
                .containsEntry("app.b", "skipped")
                .containsEntry("app.c", "succeeded");
        Map<String, Object> deployment = s.deployment(id);
        assertThat(deployment.get("status")).isEqualTo("failed");
        assertThat(deployment.get("error")).isEqualTo("1 of 3 resources failed");
        @SuppressWarnings("unchecked")
        Map<String, Object> a = ((List<Map<String, Object>>) deployment.get("nodes"))
                .stream().filter(n -> n.get("id").equals("app.a")).findFirst().orElseThrow();
        assertThat(a.get("error")).isEqualTo("Error: creating thing: quota exceeded: exit code 1");

        // the list says what changed and what failed, without the nodes
        Map<String, Object> listed = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("items[0]");
        assertThat(listed.get("id")).isEqualTo(id);
        assertThat(listed.get("nodes")).isNull();
        assertThat(listed.get("changes")).isEqualTo(Map.of("add", 1, "change", 0, "destroy", 0));
        assertThat(listed.get("failures"))
                .isEqualTo(List.of(
                        Map.of("resource", "app.a", "error", "Error: creating thing: quota exceeded: exit code 1")));
    }

    @Test
    void aListedFailureShowsTheFirstLineOfItsError() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.runner.fail(
                s.claimAll().get("app.a"),
                "Error: Invalid count argument\n\n  on main.tf line 3:\n   3:   count = var.n");
        Map<String, Object> listed = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("items[0]");
        assertThat(listed.get("failures"))
                .isEqualTo(List.of(Map.of("resource", "app.a", "error", "Error: Invalid count argument")));
        assertThat(listed.get("changes")).as("nothing reported a change").isNull();
    }

    @Test
    void unchangedResourcesAreNotRunAgainUnlessForced() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String first = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(first)).isEqualTo("succeeded");

        String second = s.deploy();
        assertThat(s.claimAll()).isEmpty();
        assertThat(s.nodeStatuses(second)).containsEntry("app.a", "unchanged").containsEntry("app.b", "unchanged");
        assertThat(s.status(second)).isEqualTo("succeeded");

        s.manifest(graph("a", List.of(), "b", List.of("a")), Map.of("b", 3));
        String third = s.deploy();
        assertThat(s.nodeStatuses(third)).containsEntry("app.a", "unchanged");
        Map<String, Map<String, Object>> changed = s.claimAll();
        assertThat(changed.keySet()).containsExactly("app.b");
        s.succeed(changed.get("app.b"));
        assertThat(s.status(third)).isEqualTo("succeeded");

        // forced: nothing changed, yet every resource runs again, in order
        String forced = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Map<String, Object>> forcedFirst = s.claimAll();
        assertThat(forcedFirst.keySet()).containsExactly("app.a");
        s.succeed(forcedFirst.get("app.a"));
        Map<String, Map<String, Object>> forcedThen = s.claimAll();
        assertThat(forcedThen.keySet()).containsExactly("app.b");
        s.succeed(forcedThen.get("app.b"));
        assertThat(s.nodeStatuses(forced)).containsEntry("app.a", "succeeded").containsEntry("app.b", "succeeded");
    }

    @Test
    @SuppressWarnings("unchecked")
    void resourcesThatGoTogetherAreEachFoundUnchangedOrChangedByItself() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of(), "c", List.of()));
        String first = s.deploy();
        Map<String, Map<String, Object>> all = s.claimAll();
        assertThat(all).hasSize(3);
        all.values().forEach(s::succeed);
        assertThat(s.status(first)).isEqualTo("succeeded");

        // the three go in the deployment's first step, their active resources read together: only b changed
        s.manifest(graph("a", List.of(), "b", List.of(), "c", List.of()), Map.of("b", 3));
        String second = s.deploy();
        assertThat(s.nodeStatuses(second)).containsEntry("app.a", "unchanged").containsEntry("app.c", "unchanged");
        Map<String, Map<String, Object>> changed = s.claimAll();
        assertThat(changed.keySet()).containsExactly("app.b");
        assertThat((List<Map<String, Object>>) s.deployment(second).get("nodes"))
                .filteredOn(node -> "app.b".equals(node.get("id")))
                .extracting(node -> node.get("action"))
                .as("b is active already: an update")
                .containsExactly("update");
        s.succeed(changed.get("app.b"));
        assertThat(s.status(second)).isEqualTo("succeeded");
    }

    @Test
    void removedResourcesAreDestroyedAfterTheRestDependentsFirst() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a"), "c", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);

        s.manifest(graph("c", List.of()), Map.of("c", 2));
        String id = s.deploy();
        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first.keySet()).as("the kept resource applies first").containsExactly("app.c");
        assertThat(first.get("app.c").get("operation")).isEqualTo("apply");
        s.succeed(first.get("app.c"));
        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second.keySet()).as("then b, which depends on a").containsExactly("app.b");
        assertThat(second.get("app.b").get("operation")).isEqualTo("destroy");
        s.runner.succeed(second.get("app.b"), Map.of());
        Map<String, Map<String, Object>> third = s.claimAll();
        assertThat(third.keySet()).containsExactly("app.a");
        s.runner.succeed(third.get("app.a"), Map.of());
        assertThat(s.status(id)).isEqualTo("succeeded");
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .body("nodes.id", Matchers.contains("app.c"));
    }

    @Test
    void aSecondDeploymentQueuesBehindTheFirst() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String first = s.deploy();
        String second = s.create(Map.of("mode", "deploy", "force", true))
                .then()
                .statusCode(201)
                .body("status", equalTo("queued"))
                .extract()
                .path("id");
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs).hasSize(1);
        assertThat(jobs.get("app.a").get("deployment_id")).isEqualTo(first);
        s.succeed(jobs.get("app.a"));
        assertThat(s.status(first)).isEqualTo("succeeded");
        assertThat(s.status(second)).isEqualTo("running");
        Map<String, Map<String, Object>> next = s.claimAll();
        assertThat(next.get("app.a").get("deployment_id")).isEqualTo(second);
    }

    @Test
    void theIdempotencyKeyReturnsTheFirstDeployment() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String first = admin().header("Idempotency-Key", "ci-run-17")
                .body(Map.of("mode", "deploy"))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        admin().header("Idempotency-Key", "ci-run-17")
                .body(Map.of("mode", "deploy"))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .body("id", equalTo(first));
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .body("items", hasSize(1));
    }

    @Test
    void aRollbackDeploysTheEarlierModuleVersionsAndInputsAgain() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()), Map.of("a", 1));
        String first = s.deploy();
        Map<String, Object> original = s.claimAll().get("app.a");
        s.succeed(original);

        s.defineModule("resource \"terraform_data\" \"this\" { input = \"v2-${var.name}\" }");
        s.manifest(graph("a", List.of()), Map.of("a", 2));
        s.deploy();
        Map<String, Object> changed = s.claimAll().get("app.a");
        assertThat(((Map<?, ?>) changed.get("module")).get("version")).isEqualTo(2);
        s.succeed(changed);

        String rollback = s.create(Map.of("mode", "rollback", "rollback_to", first))
                .then()
                .statusCode(201)
                .body("rollback_of", equalTo(first))
                .extract()
                .path("id");
        Map<String, Object> again = s.claimAll().get("app.a");
        assertThat(again.get("module")).isEqualTo(original.get("module"));
        assertThat(again.get("inputs")).isEqualTo(original.get("inputs"));
        s.succeed(again);
        assertThat(s.status(rollback)).isEqualTo("succeeded");
    }

    @Test
    void aRollbackNeedsAFinishedDeployOfThisEnvironment() {
        Scenario s = new Scenario(1);
        s.create(Map.of("mode", "rollback")).then().statusCode(400).body("errors[0].pointer", equalTo("/rollback_to"));
        s.create(Map.of("mode", "rollback", "rollback_to", UUID.randomUUID().toString()))
                .then()
                .statusCode(422)
                .body("errors[0].pointer", equalTo("/rollback_to"));
    }

    @Test
    void destroyTearsEverythingDownInReverseOrder() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        String id = s.create(Map.of("mode", "destroy"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first.keySet()).containsExactly("app.b");
        s.runner.succeed(first.get("app.b"), Map.of());
        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second.keySet()).containsExactly("app.a");
        s.runner.succeed(second.get("app.a"), Map.of());
        assertThat(s.status(id)).isEqualTo("succeeded");
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .body("nodes", hasSize(0));
    }

    @Test
    void deletingAnEnvironmentWithResourcesDestroysThemFirst() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        String destroy = admin().delete("/api/v1/orgs/{org}/projects/shop/envs/prod", s.org)
                .then()
                .statusCode(202)
                .body("mode", equalTo("destroy"))
                .extract()
                .path("id");
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod", s.org)
                .then()
                .statusCode(200)
                .body("status", equalTo("deleting"));
        s.create(Map.of("mode", "deploy")).then().statusCode(409);
        Map<String, Object> job = s.claimAll().get("app.a");
        assertThat(job.get("deployment_id")).isEqualTo(destroy);
        s.runner.succeed(job, Map.of());
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod", s.org).then().statusCode(404);
    }

    @Test
    void outputsThatBreakTheResourceTypesSchemaFailTheNode() {
        Scenario s = new Scenario(1);
        s.manifest(graph("a", List.of()));
        String id = s.deploy();
        Map<String, Object> job = s.claimAll().get("app.a");
        s.runner.succeed(job, Map.of("other", 1));
        Map<String, Object> deployment = s.deployment(id);
        assertThat(deployment.get("status")).isEqualTo("failed");
        assertThat(String.valueOf(((List<?>) deployment.get("nodes")).get(0)))
                .contains("the module's outputs do not match resource type `thing`");
    }

    @Test
    void dryRunShowsTheGraphAndTheDiffAndStoresNothing() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        admin().body(Map.of("mode", "dry-run"))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .body("summary.add", equalTo(2))
                .body("layers", hasSize(2))
                .body("nodes.find { it.id == 'app.b' }.unknown", Matchers.contains("upstream"))
                .body("nodes.find { it.id == 'app.a' }.inputs.name", equalTo("prod-app.a"));
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .body("items", hasSize(0));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        s.claimAll().values().forEach(s::succeed);
        s.manifest(graph("a", List.of()), Map.of("a", 5));
        admin().body(Map.of("mode", "dry-run"))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .body("summary.change", equalTo(1))
                .body("summary.destroy", equalTo(1))
                .body("nodes.find { it.id == 'app.b' }.change", equalTo("removed"))
                .body("nodes.find { it.id == 'app.a' }.change", equalTo("inputs_changed"));
    }

    @Test
    void aPlanRunsEveryResourceWithoutApplying() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of(), "b", List.of("a")));
        String id = s.create(Map.of("mode", "plan"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        Map<String, Map<String, Object>> jobs = s.claimAll();
        assertThat(jobs.keySet()).containsExactly("app.a");
        assertThat(jobs.get("app.a").get("operation")).isEqualTo("plan");
        s.runner
                .result(
                        jobs.get("app.a").get("job_id"),
                        Map.of("status", "succeeded", "plan_summary", Map.of("add", 1, "change", 0, "destroy", 0)))
                .then()
                .statusCode(204);
        assertThat(s.nodeStatuses(id)).containsEntry("app.a", "succeeded").containsEntry("app.b", "skipped");
        admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .body("nodes", hasSize(0));
    }
}
