package dev.polystack.platform.issue;

import dev.polystack.platform.deployment.Reconciler;
import dev.polystack.platform.testing.CheckReports;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reconciliation policies: auto drift is put back by a reconcile deployment; under approve, and for destructive drift
 * whatever the policy, the fix is planned and waits for approval; observed drift only opens an issue.
 */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class ReconcileTest {

    private static final String ENV = "/api/v1/orgs/{org}/projects/shop/envs/prod";

    @Inject
    Reconciler reconciler;

    private static Scenario deployed(String policy) {
        return deployed(policy, graph("a", List.of(), "b", List.of()));
    }

    private static Scenario deployed(String policy, Map<String, List<String>> graph) {
        Scenario s = new Scenario(4);
        if (policy != null) {
            admin().body(Map.of("reconcile", Map.of("thing", policy)))
                    .put("/api/v1/orgs/{org}/env-types/production", s.org)
                    .then()
                    .statusCode(200);
        }
        s.manifest(graph);
        assertThat(s.status(s.deployAll())).isEqualTo("succeeded");
        return s;
    }

    private static Optional<Map<String, Object>> reconcile(Scenario s) {
        return s.deployments().stream()
                .filter(d -> "reconcile".equals(d.get("created_by")))
                .findFirst();
    }

    /** The reconcile deployment the environment's drift started, once it is there (within 20 s). */
    private static Map<String, Object> startedReconcile(Scenario s) {
        return await().atMost(Duration.ofSeconds(20))
                .until(() -> reconcile(s), Optional::isPresent)
                .get();
    }

    private static List<Map<String, Object>> issues(Scenario s, String query) {
        return admin().get(ENV + "/issues" + query, s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    @Test
    void autoDriftIsPutBackByADeploymentOfTheDriftedResourceOnly() {
        Scenario s = deployed("auto");
        s.check(Map.of("app.a", CheckReports.IN_PLACE));
        String issue = (String) issues(s, "?state=open").get(0).get("id");

        Map<String, Object> reconcile = startedReconcile(s);
        assertThat(reconcile.get("mode")).isEqualTo("deploy");
        assertThat(reconcile.get("force")).isEqualTo(true);
        assertThat(reconcile.get("targets")).isEqualTo(List.of("thing/default/app.a"));
        assertThat(reconcile.get("reconciles")).isEqualTo(List.of(issue));

        var jobs = s.claimAll();
        assertThat(jobs).as("only the drifted resource is applied").containsOnlyKeys("app.a");
        assertThat(jobs.get("app.a").get("operation")).isEqualTo("apply");
        jobs.values().forEach(s::succeed);
        String id = (String) reconcile.get("id");
        assertThat(s.status(id)).isEqualTo("succeeded");
        assertThat(s.nodeStatuses(id)).as("b is neither applied nor removed").containsOnlyKeys("app.a");
        assertThat(issues(s, "?state=resolved")).singleElement().satisfies(i -> {
            assertThat(i.get("id")).isEqualTo(issue);
            assertThat(i.get("resolved_by")).isEqualTo(id);
        });
        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("nodes.id"))
                .containsExactlyInAnyOrder("app.a", "app.b");
        assertThat(reconciler.reconcileWaiting(Instant.now()))
                .as("an issue is handed to one reconcile")
                .isZero();
    }

    @Test
    void aReconciledResourceKeepsWhatItDependsOnSoTheEnvironmentIsStillTornDownInOrder() {
        Scenario s = deployed("auto", graph("a", List.of(), "b", List.of("a")));
        s.check(Map.of("app.b", CheckReports.IN_PLACE));
        String id = (String) startedReconcile(s).get("id");
        var jobs = s.claimAll();
        assertThat(jobs).as("only the drifted dependent is applied").containsOnlyKeys("app.b");
        jobs.values().forEach(s::succeed);
        assertThat(s.status(id)).isEqualTo("succeeded");

        assertThat(admin().get(ENV + "/resource-graph", s.org)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("edges", Map.class))
                .as("b still depends on a, which the reconcile did not apply")
                .containsExactly(
                        Map.of("from", "thing/default/app.b", "to", "thing/default/app.a", "alias", "resources.a"));
        String destroy = s.create(Map.of("mode", "destroy"))
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        var first = s.claimAll();
        assertThat(first.keySet()).as("the dependent goes first").containsExactly("app.b");
        s.runner.succeed(first.get("app.b"), Map.of());
        var second = s.claimAll();
        assertThat(second.keySet()).containsExactly("app.a");
        s.runner.succeed(second.get("app.a"), Map.of());
        assertThat(s.status(destroy)).isEqualTo("succeeded");
    }

    @Test
    void aReconcileThatCannotStartFailsOnceAndSaysWhyInsteadOfBeingTriedAtEveryTick() {
        Scenario s = deployed("auto");
        // the rules no longer place the manifest's resources: the current manifest does not expand any more
        List<String> rules = admin().get("/api/v1/orgs/{org}/module-rules", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.id");
        rules.forEach(rule -> admin().delete("/api/v1/orgs/{org}/module-rules/{id}", s.org, rule)
                .then()
                .statusCode(204));
        s.check(Map.of("app.a", CheckReports.IN_PLACE));
        String issue = (String) issues(s, "?state=open").get(0).get("id");

        Map<String, Object> reconcile = startedReconcile(s);
        assertThat(reconcile.get("status")).isEqualTo("failed");
        assertThat(reconcile.get("reconciles")).isEqualTo(List.of(issue));
        assertThat((String) reconcile.get("error"))
                .as("why it could not start")
                .contains("could not start")
                .contains("module rule");
        assertThat(reconciler.reconcileWaiting(Instant.now()))
                .as("the issue was handed to that reconcile: it is not tried again")
                .isZero();
        assertThat(s.deployments().stream().filter(d -> "reconcile".equals(d.get("created_by"))))
                .hasSize(1);
        assertThat(issues(s, "?state=open"))
                .as("the drift is still there for a person")
                .extracting(i -> i.get("id"))
                .contains(issue);
    }

    @Test
    void destructiveDriftIsNeverAppliedAutomaticallyItsFixWaitsForApprovalAndObservedDriftOnlyOpensAnIssue() {
        Scenario auto = deployed("auto");
        auto.check(Map.of("app.a", CheckReports.REPLACE));
        Scenario observed = deployed(null);
        observed.check(Map.of("app.a", CheckReports.IN_PLACE));

        Map<String, Object> fix = startedReconcile(auto);
        assertThat(fix.get("approval"))
                .as("a fix that replaces waits for approval")
                .isNotNull();
        var plans = auto.claimAll();
        assertThat(plans).containsOnlyKeys("app.a");
        assertThat(plans.get("app.a").get("operation")).as("it only plans").isEqualTo("plan");
        auto.runner
                .result(
                        plans.get("app.a").get("job_id"),
                        Map.of("status", "succeeded", "plan_summary", Map.of("add", 1, "change", 0, "destroy", 1)))
                .then()
                .statusCode(204);
        assertThat(auto.status((String) fix.get("id"))).isEqualTo("awaiting_approval");
        assertThat(auto.claimAll()).as("nothing applies without an approval").isEmpty();
        assertThat(issues(auto, "?state=open")).extracting(i -> i.get("kind")).containsExactly("destructive-drift");

        assertThat(reconcile(observed)).isEmpty();
        assertThat(issues(observed, "?state=open"))
                .extracting(i -> i.get("kind"))
                .containsExactly("drift");
    }

    @Test
    void underApproveTheFixIsPlannedWaitsForASecondMemberAndResolvesTheIssueOnceApplied() {
        Scenario s = deployed("approve");
        s.check(Map.of("app.a", CheckReports.IN_PLACE));
        String issue = (String) issues(s, "?state=open").get(0).get("id");
        Map<String, Object> fix = startedReconcile(s);
        String id = (String) fix.get("id");
        var plans = s.claimAll();
        assertThat(plans).containsOnlyKeys("app.a");
        s.runner
                .result(
                        plans.get("app.a").get("job_id"),
                        Map.of("status", "succeeded", "plan_summary", Map.of("add", 0, "change", 1, "destroy", 0)))
                .then()
                .statusCode(204);
        assertThat(s.status(id)).isEqualTo("awaiting_approval");

        String engineer = tokenFor(s.org, "platform-engineer");
        List<Map<String, Object>> waiting = as(engineer)
                .get("/api/v1/orgs/{org}/approvals", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("");
        assertThat(waiting)
                .singleElement()
                .satisfies(p -> assertThat(p.get("reconciles")).isEqualTo(List.of(issue)));
        as(engineer)
                .body(Map.of("decision", "approve", "comment", "put it back"))
                .post(ENV + "/deployments/{id}/approvals", s.org, id)
                .then()
                .statusCode(201);
        var applies = s.claimAll();
        assertThat(applies.get("app.a").get("operation")).isEqualTo("apply");
        applies.values().forEach(s::succeed);
        assertThat(s.status(id)).isEqualTo("succeeded");
        assertThat(issues(s, "?state=resolved"))
                .singleElement()
                .satisfies(i -> assertThat(i.get("resolved_by")).isEqualTo(id));
    }

    @Test
    void aDeploymentRunningOrWaitingGoesFirstTheReconcileStartsAfterIt() {
        Scenario s = deployed(null);
        s.check(Map.of("app.a", CheckReports.IN_PLACE));
        admin().body(Map.of("reconcile", Map.of("thing", "auto")))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200);
        // b changes; a is unchanged, so this deployment does not put a back
        s.manifest(graph("a", List.of(), "b", List.of()), Map.of("b", 2));
        String deployment = s.deploy();
        assertThat(reconciler.reconcileWaiting(Instant.now()))
                .as("a deployment runs")
                .isZero();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(deployment)).isEqualTo("succeeded");
        assertThat(issues(s, "?state=open")).hasSize(1);

        assertThat(reconciler.reconcileWaiting(Instant.now())).isEqualTo(1);
        assertThat(reconcile(s))
                .hasValueSatisfying(d -> assertThat(d.get("targets")).isEqualTo(List.of("thing/default/app.a")));
    }

    @Test
    void policiesAreValidated() {
        Scenario s = new Scenario(1);
        admin().body(Map.of("reconcile", Map.of("thing", "sometimes")))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(400);
        admin().body(Map.of("output_schema", Map.of("type", "object"), "reconcile", "auto"))
                .put("/api/v1/orgs/{org}/resource-types/thing", s.org)
                .then()
                .statusCode(200)
                .body("reconcile", org.hamcrest.Matchers.equalTo("auto"));
        admin().get("/api/v1/orgs/{org}/resource-types/thing", s.org)
                .then()
                .body("reconcile", org.hamcrest.Matchers.equalTo("auto"));
    }
}
